// The validation tasks of one corpus, run in process: the fit and diagnostic benches
// (retrieval-fit, noise-breakdown) index the corpus once, then mask each task's body in an open
// document (emptied, or half written: tasks.ts scenarioTask), hand the task to the caller, and
// close the document again.

import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Indexer } from '../../server/src/index/indexer';
import type { SymbolRef, WorkspaceIndex } from '../../server/src/index/workspaceIndex';
import { corpusSourceRoot } from '../cli';
import { goldRegions, type GoldRegion, type TextOf } from './attribution';
import { loadOracle, sampleTasks, scenarioTask, type BenchScenario, type GoldSymbol, type ScenarioTask, type TaskOptions } from './tasks';

export interface MaskedTask {
  /** The task as its scenario sees it (cursor and gold included). */
  task: ScenarioTask;
  /** The corpus's source root, as the index keeps it (real path: .cache may be a link). */
  src: string;
  indexer: Indexer;
  /** The masked file's `file:` URI, for retrieval requests. */
  uri: string;
  /** Current text of a file relative to `src` (the masked one included). */
  textOf: TextOf;
  regions: GoldRegion[];
}

/**
 * Runs `visit` on each validation task of corpus `name`, once per scenario of `scenarios` (in that
 * order; a task a scenario cannot be made from is skipped for it); returns the number of visits,
 * or undefined when the corpus is absent (an injected variant not generated).
 */
export async function forEachValidationTask(root: string, name: string, opts: TaskOptions, visit: (t: MaskedTask) => Promise<void>, scenarios: readonly BenchScenario[] = ['new']): Promise<number | undefined> {
  const given = name.endsWith('-injected') ? corpusSourceRoot(name, 'skip') : corpusSourceRoot(name);
  const src = given && realpathSync(given);
  if (!src) return undefined;
  const oracle = await loadOracle(root, src);
  const tasks = sampleTasks(oracle, opts).filter((t) => t.split === 'validation');
  const indexer = new Indexer({ cacheDir: null });
  await indexer.addFolder(src);
  const textOf: TextOf = (rel) => indexer.textOf(join(src, rel));
  let visits = 0;
  for (const task of tasks) {
    const path = join(src, task.file);
    for (const scenario of scenarios) {
      let st: ScenarioTask;
      try { st = scenarioTask(readFileSync(path, 'utf8'), task, scenario, opts.imports); } catch { continue; }
      await indexer.setDocument(path, st.text);
      try {
        await visit({ task: st, src, indexer, uri: pathToFileURL(path).href, textOf, regions: await goldRegions(st.gold, textOf) });
        visits++;
      } finally {
        await indexer.closeDocument(path);
      }
    }
  }
  indexer.removeFolder(src);
  return visits;
}

/** The index's declaration of a gold symbol in the masked workspace (by its file, line and name). */
export function goldRef(index: WorkspaceIndex, src: string, g: GoldSymbol): SymbolRef | undefined {
  const f = index.file(join(src, g.file));
  if (!f) return undefined;
  const ss = f.facts.symbols;
  const i = ss.findIndex((s) => s.nameSpan.sl === g.maskedLine && (s.kind === 'constructor' ? (s.parent >= 0 ? ss[s.parent].name : s.name) : s.name) === g.name);
  return i < 0 ? undefined : { file: f, sym: ss[i], index: i };
}
