// One retrieval for one cursor, shared by the LSP layer and the CLI: validates the request
// against the workspace, builds the PipelineRequest and runs the pipeline with the gate.

import type { RetrievalMode, RetrievalResult, RetrieveContextParams } from '../../shared/protocol';
import { gate } from './gate/sufficiency';
import type { Indexer } from './index/indexer';
import { CancelledError, retrieve } from './retrieval/pipeline';
import { DEFAULTS, type PipelineRequest } from './retrieval/request';
import type { MemberRow, Packing } from './retrieval/memberModel';
import { hostPaths, PathError, shorten, type FilePaths } from './platform/paths';
import { orgContextFor } from './org/recall';
import { prepareRetrieval, type PreparedStep } from './retrieval/prepare';

export interface Settings {
  budgetTokens: number;
  /** τ set by the user; unset, the calibrated τ of the judged scenario is in force. */
  threshold?: number;
  maxRounds: number;
  goldenRoots: string[];
  /** Not a user setting: the fit of the packing constants (bench/retrieval-fit.bench.ts) tries others through it. */
  packing?: Packing;
  /** Not a user setting: the fit of the member model collects the ranked candidates through it. */
  observeMembers?: (rows: MemberRow[]) => void;
  /** Not a user setting: an oracle's P(needed) in place of the member model's (noise-breakdown --oracle). */
  neededOverride?: PipelineRequest['neededOverride'];
  /** Not a user setting: recall diagnostics see the whole ranked candidate list through it. */
  observeRanked?: PipelineRequest['observeRanked'];
  /** The organisation index (`needle.orgIndex`): a postgres:// URL without password, or a PGlite folder. */
  orgIndex?: string;
}

export function defaultSettings(): Settings {
  return { budgetTokens: DEFAULTS.budgetTokens, maxRounds: DEFAULTS.maxRounds, goldenRoots: [], orgIndex: process.env.NEEDLE_ORG_INDEX || undefined };
}

/** A request that cannot be served as asked; the LSP layer answers InvalidParams with the message. */
export class InvalidRequest extends Error {}

const MODES: RetrievalMode[] = ['rcl', 'similarity', 'fixedK', 'structural'];

/** The canonical path of a request's URI (platform/paths.ts); InvalidRequest when it names no file. */
export function pathOfUri(uri: unknown, paths: FilePaths = hostPaths): string {
  try {
    return paths.toPath(uri);
  } catch (e) {
    if (e instanceof PathError) throw new InvalidRequest(e.message);
    throw e;
  }
}

export function uriOfPath(path: string, paths: FilePaths = hostPaths): string {
  return paths.toUri(path);
}

/** Checks the shape of `needle/retrieveContext` params; returns them typed or throws InvalidRequest. */
export function validateParams(p: unknown): RetrieveContextParams {
  if (!p || typeof p !== 'object') throw new InvalidRequest('params must be an object');
  const o = p as Record<string, unknown>;
  const td = o.textDocument as Record<string, unknown> | undefined;
  if (!td || typeof td !== 'object') throw new InvalidRequest('textDocument is required');
  pathOfUri(td.uri);
  const pos = o.position as Record<string, unknown> | undefined;
  if (!pos || typeof pos !== 'object') throw new InvalidRequest('position is required');
  for (const k of ['line', 'character'] as const) {
    if (!Number.isInteger(pos[k]) || (pos[k] as number) < 0) throw new InvalidRequest(`position.${k} must be a non-negative integer`);
  }
  if (o.query !== undefined && typeof o.query !== 'string') throw new InvalidRequest('query must be a string');
  if (o.budgetTokens !== undefined && (!Number.isInteger(o.budgetTokens) || (o.budgetTokens as number) < 1)) throw new InvalidRequest('budgetTokens must be a positive integer');
  if (o.mode !== undefined && !MODES.includes(o.mode as RetrievalMode)) throw new InvalidRequest(`mode must be one of ${MODES.join(', ')}`);
  if (o.maxRounds !== undefined && (!Number.isInteger(o.maxRounds) || (o.maxRounds as number) < 0)) throw new InvalidRequest('maxRounds must be a non-negative integer');
  if (o.explain !== undefined && typeof o.explain !== 'boolean') throw new InvalidRequest('explain must be a boolean');
  return p as RetrieveContextParams;
}

/**
 * The Indexer's prepare phase (IndexerOptions.prepare): retrieval's workspace-wide structures
 * built before the folder counts as ready, each step reported through `onStep` as it starts;
 * `done` receives the time of each; `ignoreSaved`: saved kinds to build afresh (preparedCache.ts).
 */
export function prepareIndexer(opts: { onStep?: (name: string, done: number, total: number) => void; done?: (steps: PreparedStep[]) => void; ignoreSaved?: readonly string[] } = {}): (indexer: Indexer) => Promise<void> {
  return async (indexer) => {
    const cacheDir = indexer.cacheDir;
    const saved = cacheDir ? { cacheDir, folders: indexer.folders, log: (m: string) => indexer.note(m), ignore: opts.ignoreSaved } : undefined;
    const steps = await prepareRetrieval({ index: indexer.index, textOf: (p) => indexer.textOf(p), saved }, { onStep: opts.onStep });
    opts.done?.(steps);
  };
}

/** File texts as of the request's start, each read once: stages re-read files many times. */
function snapshotTexts(indexer: Indexer): (path: string) => string | undefined {
  const texts = new Map<string, string | undefined>();
  return (path) => {
    if (!texts.has(path)) texts.set(path, indexer.textOf(path));
    return texts.get(path);
  };
}

export async function retrieveAt(indexer: Indexer, params: RetrieveContextParams, settings: Settings, isCancelled?: () => boolean): Promise<RetrievalResult> {
  // The pipeline yields between stages; an edit landing meanwhile would make it read two index
  // states. Such an attempt is abandoned and the request answered for the new state instead.
  for (let attempt = 0; ; attempt++) {
    const version = indexer.index.version;
    const moved = () => indexer.index.version !== version;
    try {
      return await retrieveOnce(indexer, params, settings, () => !!isCancelled?.() || (attempt < MAX_ATTEMPTS - 1 && moved()));
    } catch (e) {
      if (!(e instanceof CancelledError) || isCancelled?.() || !moved()) throw e;
    }
  }
}

/** Attempts before a request is answered for whatever state it ends on (edits never stopped). */
const MAX_ATTEMPTS = 3;

async function retrieveOnce(indexer: Indexer, params: RetrieveContextParams, settings: Settings, isCancelled: () => boolean): Promise<RetrievalResult> {
  const path = indexer.spelledAsIndexed(pathOfUri(params.textDocument.uri, indexer.paths));
  if (!indexer.rootOf(path)) throw new InvalidRequest(`${shorten(path)} is outside every workspace folder`);
  const text = indexer.textOf(path);
  if (text === undefined) throw new InvalidRequest(`cannot read ${shorten(path)}`);
  const lines = text.split('\n');
  const { line, character } = params.position;
  if (line >= lines.length) throw new InvalidRequest(`position line ${line} is outside the document (${lines.length} lines)`);
  if (character > lines[line].length) throw new InvalidRequest(`position character ${character} is outside line ${line} (${lines[line].length} characters)`);
  const req: PipelineRequest = {
    index: indexer.index,
    roots: [...indexer.folders],
    goldenRoots: settings.goldenRoots,
    textOf: snapshotTexts(indexer),
    openPaths: indexer.openPaths(),
    configFiles: indexer.configFilesIn(indexer.folders),
    path,
    position: { line, character },
    query: params.query,
    budgetTokens: params.budgetTokens ?? settings.budgetTokens,
    mode: params.mode ?? 'rcl',
    maxRounds: params.maxRounds ?? settings.maxRounds,
    ...(params.explain ? { explain: true } : {}),
    threshold: settings.threshold ?? NaN,
    packing: settings.packing,
    observeMembers: settings.observeMembers,
    observeRanked: settings.observeRanked,
    neededOverride: settings.neededOverride,
    isCancelled,
  };
  // The org source runs beside the local pipeline, bounded by its own timeout; it never fails the request.
  const org = settings.orgIndex ? orgContextFor(req, settings.orgIndex) : undefined;
  const result = await retrieve(req, req.mode === 'rcl' ? gate : undefined);
  if (org) result.org = await org;
  if (indexer.state !== 'ready') {
    result.reviewReasons = [...result.reviewReasons, 'the workspace index is still being built: the answer uses what is indexed so far'];
  }
  return result;
}
