// The editor-session figure of the gate: open real files of each corpus through the language
// server, as an editor does, and count the `insufficient-context` diagnostics it publishes per
// method with a body. These files are complete and compile (the oracle's javac run), so every
// diagnostic is a method the gate thinks lacks context although its body is written.
//
//   node dist/bench/editor-session.bench.js [--files N] [--corpus NAME]... [--seed S]
//
// Files: N per corpus (default 20), a seeded shuffle of the corpus's main sources that declare at
// least one method with a body. Writes bench/out/editor-session.json.

import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { arg, args, corpusSourceRoot } from './cli';
import { DEVELOPMENT_CORPORA } from './corpora/list.mjs';
import { startServer } from './retrieval/client';
import { prng } from './retrieval/tasks';
import { factsOfText } from '../server/src/index/parseFile';
import { diagnosedMethods } from '../server/src/lsp/editorFeatures';

const ROOT = process.cwd();
/** A diagnostics pass retrieves once per method; a large file takes a while on a busy machine. */
const PASS_TIMEOUT_MS = 600_000;

function javaFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...javaFiles(full));
    else if (name.endsWith('.java') && name !== 'package-info.java' && name !== 'module-info.java') out.push(full);
  }
  return out;
}

interface FileFigure { file: string; methods: number; flagged: number; flaggedMethods: string[]; ms: number; timedOut: boolean }

(async () => {
  const perCorpus = Number(arg('--files') ?? 20);
  const seed = arg('--seed') ?? 'needle-editor-session';
  const wanted = args('--corpus');
  const names = wanted.length ? wanted : DEVELOPMENT_CORPORA;
  const results: { corpus: string; files: FileFigure[]; methods: number; flagged: number; share: number }[] = [];
  for (const name of names) {
    const src = corpusSourceRoot(name);
    const ws = mkdtempSync(join(tmpdir(), `needle-editor-${name}-`));
    cpSync(src, ws, { recursive: true });
    const server = await startServer(join(ROOT, 'dist/server.js'), ws);
    const files: FileFigure[] = [];
    try {
      const all = javaFiles(ws);
      const rand = prng(`${seed}:${name}`);
      for (let i = all.length - 1; i > 0; i--) { const j = Math.floor(rand() * (i + 1)); [all[i], all[j]] = [all[j], all[i]]; }
      for (const path of all) {
        if (files.length >= perCorpus) break;
        const text = readFileSync(path, 'utf8');
        // The methods the server's diagnostics pass judges (code in the body, at most MAX_METHODS_PER_PASS).
        const facts = await factsOfText(text);
        const methods = diagnosedMethods(facts.symbols, text).length;
        if (methods === 0) continue;
        const uri = pathToFileURL(path).href;
        const t0 = performance.now();
        const next = server.nextDiagnostics(uri, PASS_TIMEOUT_MS);
        await server.open(path, text);
        const diags = await next;
        await server.close(path);
        const flagged = (diags ?? []).filter((d) => d.code === 'insufficient-context');
        files.push({ file: relative(ws, path), methods, flagged: flagged.length, flaggedMethods: flagged.map((d) => `line ${d.range.start.line + 1}`), ms: Math.round(performance.now() - t0), timedOut: diags === undefined });
        console.error(`  ${name} ${relative(ws, path)}: ${flagged.length}/${methods} methods flagged (${Math.round(performance.now() - t0)} ms)`);
      }
    } finally {
      await server.shutdown();
      rmSync(ws, { recursive: true, force: true });
    }
    const methods = files.reduce((a, f) => a + f.methods, 0), flagged = files.reduce((a, f) => a + f.flagged, 0);
    results.push({ corpus: name, files, methods, flagged, share: methods ? flagged / methods : NaN });
    console.log(`${name}: ${files.length} files, ${methods} methods with a body, ${flagged} flagged insufficient-context (${(100 * (methods ? flagged / methods : NaN)).toFixed(1)} %)` +
      (files.some((f) => f.timedOut) ? `; ${files.filter((f) => f.timedOut).length} passes timed out` : ''));
  }
  const out = join(ROOT, 'bench/out');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'editor-session.json'), JSON.stringify({ generatedAt: new Date().toISOString(), options: { files: perCorpus, seed }, corpora: results }, null, 2));
  console.log(`wrote ${join(out, 'editor-session.json')}`);
})().catch((e) => { console.error(e); process.exit(1); });
