// Reads the `needle.*` settings (initializationOptions or didChangeConfiguration) defensively:
// anything malformed falls back to the default instead of breaking the server.

import { defaultDependencySettings, type DependencySettings } from '../deps/discover';
import type { Settings } from '../service';

export interface EditorSettings {
  settings: Partial<Settings>;
  exclude: string[];
  paused: boolean;
  codeLens: boolean;
  diagnostics: boolean;
  diagnosticSeverity: 'error' | 'warning' | 'information' | 'hint';
  /** needle.dependencies, needle.internalGroups, needle.mavenRepositories, needle.useMavenCommand. */
  dependencies: DependencySettings;
}

let current: EditorSettings = { settings: {}, exclude: [], paused: false, codeLens: true, diagnostics: true, diagnosticSeverity: 'warning', dependencies: defaultDependencySettings() };

export function currentEditorSettings(): EditorSettings {
  return current;
}

function num(v: unknown, min: number, max: number): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max ? v : undefined;
}

export function readSettings(raw: unknown): EditorSettings {
  const o = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const s: Partial<Settings> = {};
  const budget = num(o.budgetTokens, 100, 200_000);
  if (budget !== undefined) s.budgetTokens = Math.floor(budget);
  const threshold = num(o.threshold, 0, 1);
  if (threshold !== undefined) s.threshold = threshold;
  const rounds = num(o.maxRounds, 0, 10);
  if (rounds !== undefined) s.maxRounds = Math.floor(rounds);
  if (Array.isArray(o.goldenRepositories)) s.goldenRoots = o.goldenRepositories.filter((x): x is string => typeof x === 'string');
  if (typeof o.orgIndex === 'string' && o.orgIndex.trim()) s.orgIndex = o.orgIndex.trim();
  const severity = o.diagnosticSeverity;
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  current = {
    settings: s,
    exclude: Array.isArray(o.exclude) ? o.exclude.filter((x): x is string => typeof x === 'string') : [],
    paused: o.pauseIndexing === true,
    codeLens: o.codeLens !== false,
    diagnostics: o.diagnostics !== false,
    diagnosticSeverity: severity === 'error' || severity === 'information' || severity === 'hint' ? severity : 'warning',
    dependencies: {
      dependencies: strings(o.dependencies), internalGroups: strings(o.internalGroups),
      mavenRepositories: strings(o.mavenRepositories), useMavenCommand: o.useMavenCommand === true,
    },
  };
  return current;
}
