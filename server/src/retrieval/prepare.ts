// Stage 0 (before any request): the workspace-wide structures retrieval consults, built once the
// index is complete, as the last phase of indexing, so that "ready" means a retrieval answers at
// its usual latency. Without it the first request after indexing built them all (java.base: 7.7 s;
// the whole JDK: ~50 s). Each structure keeps itself in step with the index afterwards (file by
// file, see perIndexVersionIncremental), so preparing is needed once per start.

import type { WorkspaceIndex } from '../index/workspaceIndex';
import type { PipelineRequest } from './request';
import { declarationsByName, directSubtypesOf, typesBySimpleName, usageCounts } from './symbols';
import { globalPopular } from './recall/graph';
import { currentDescriptionIndex, prepareDescriptions, SAVED_DESCRIPTION_TABLE } from './recall/descriptions';
import { currentWordMap, prepareWordFiles, SAVED_WORDS } from './recall/wordFiles';
import { buildWithSaved, type SavedPlace } from './preparedCache';
import { currentChunkCorpus, prepareChunkCorpus, SAVED_CHUNKS } from './recall/similar';
import { getLexicon } from '../gate/lexicon';

/** One structure built: its name, the time it took and the process's CPU time meanwhile (all threads: on a loaded machine the figure to compare). */
export interface PreparedStep { name: string; ms: number; cpuMs: number }

export interface PrepareInput {
  index: WorkspaceIndex;
  /** The files' current text (the indexer's textOf). */
  textOf: PipelineRequest['textOf'];
  /**
   * Where structures saved by an earlier start are (preparedCache.ts: word -> files and the
   * similar-code corpus and the description index in their finished form); absent:
   * everything is built from the index and texts.
   */
  saved?: SavedPlace;
}

/** The structures, in the order they are built (cheapest first, so progress moves early). */
export const PREPARE_STEPS: readonly { name: string; build: (p: PrepareInput) => void }[] = [
  { name: 'declarations by name', build: ({ index }) => { declarationsByName(index); } },
  { name: 'types by simple name', build: ({ index }) => { typesBySimpleName(index); } },
  { name: 'usage counts', build: ({ index }) => { usageCounts(index); } },
  { name: 'callers and popular declarations', build: ({ index }) => { index.prepareIncoming(); globalPopular(index); } },
  // The gate reads a type's subtypes on most requests: without this the first one built the table.
  { name: 'subtypes', build: ({ index }) => { directSubtypesOf(index, ''); } },
  // The gate's public-prior lexicon (1.2 MB of JSON, 50-100 ms to parse): otherwise read by the first verdict.
  { name: 'novelty lexicon', build: () => { getLexicon(); } },
  { name: 'description index', build: ({ index, saved }) => buildWithSaved(SAVED_DESCRIPTION_TABLE, saved, (s) => prepareDescriptions(index, s), () => currentDescriptionIndex(index)) },
  { name: 'word -> files', build: ({ index, textOf, saved }) => buildWithSaved(SAVED_WORDS, saved, (s) => prepareWordFiles({ index, textOf }, s), () => currentWordMap({ index, textOf })) },
  { name: 'similar-code corpus', build: ({ index, textOf, saved }) => buildWithSaved(SAVED_CHUNKS, saved, (s) => prepareChunkCorpus(index, textOf, s), () => currentChunkCorpus(index, textOf)) },
];

/**
 * Builds every structure for the index as it is now. `onStep` reports each one as it starts
 * (progress); between steps the event loop gets a turn (`pause`), so queued input is read.
 * Returns the time of each step.
 */
export async function prepareRetrieval(input: PrepareInput, opts: { onStep?: (name: string, done: number, total: number) => void; pause?: () => Promise<void> } = {}): Promise<PreparedStep[]> {
  const out: PreparedStep[] = [];
  for (const [i, step] of PREPARE_STEPS.entries()) {
    opts.onStep?.(step.name, i, PREPARE_STEPS.length);
    const t0 = performance.now(), cpu0 = process.cpuUsage();
    step.build(input);
    const cpu = process.cpuUsage(cpu0);
    out.push({ name: step.name, ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 });
    await (opts.pause ?? (() => new Promise<void>((r) => setImmediate(r))))();
  }
  return out;
}
