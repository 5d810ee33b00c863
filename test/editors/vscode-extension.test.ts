// The VS Code extension (dist/extension.js) activated in plain Node against a stand-in `vscode`
// module (./vscodeMock): the real vscode-languageclient starts the real dist/server.js over IPC on a
// copy of examples/acme-shop. Checks the status bar, the context view, the code lens command
// (intercepted by the client's middleware), copy, status, and recovery after a server crash.
// A real VS Code / code-server run is a separate end-to-end test.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyExample, ROOT } from './helpers';
import { createVscode, recorded, Uri } from './vscodeMock';

async function waitFor<T>(what: string, f: () => T | undefined | false, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}; status bar: ${JSON.stringify(recorded.statusBar.slice(-5))}; messages: ${JSON.stringify(recorded.messages)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Child processes of this test running dist/server.js. */
function serverPids(): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('server.js')) pids.push(Number(name));
    } catch { /* gone */ }
  }
  return pids;
}

const READY = /^Needle: \d+ files · \d+ symbols/;
const lastText = () => recorded.statusBar.at(-1)?.text ?? '';
const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };

test('vscode extension: status bar, context view, code lens command, copy, status, crash recovery', { timeout: 180_000 }, async () => {
  const ws = copyExample('vscode');
  const { vscode, editor, doc } = createVscode(ws.root, { file: ws.file, ...ws.cursor });
  const load = (Module as unknown as { _load: Function })._load;
  (Module as unknown as { _load: Function })._load = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? vscode : load.call(this, request, ...rest);
  };
  process.env.NEEDLE_NO_CACHE = '1';
  const ext = require(join(ROOT, 'dist', 'extension.js'));
  const context = { subscriptions: [] as { dispose(): unknown }[], asAbsolutePath: (p: string) => join(ROOT, p), extensionPath: ROOT, extensionUri: Uri.file(ROOT) };
  try {
    const started = Date.now();
    await ext.activate(context);
    await waitFor('the status bar to show the index', () => READY.test(lastText()));
    console.log(`vscode: ready in ${Date.now() - started} ms: ${lastText()}`);
    assert.ok(recorded.statusBar.some((s) => /^\$\(sync~spin\) Needle indexing/.test(s.text)), `indexing shown: ${JSON.stringify(recorded.statusBar.map((s) => s.text))}`);
    assert.equal(recorded.statusBar.at(-1)?.command, 'needle.showStatus');
    assert.ok(recorded.output.some((l) => l.includes('[needle]')), 'the server log goes to the Needle output channel');

    // Retrieve for the cursor: a needle-context markdown view.
    await recorded.commands.get('needle.retrieveContextForCursor')!();
    const view = recorded.shown.at(-1)!;
    assert.equal(view.uri.scheme, 'needle-context');
    assert.equal(view.languageId, 'markdown');
    const md = view.getText();
    assert.match(md, /^# Needle context — \[src\/main\/java\/com\/acme\/shop\/order\/OrderService\.java:\d+\]/);
    assert.match(md, /^P\(sufficient\) (\d\.\d\d|—) · [a-z ]+ · coverage \d\.\d\d · novelty \d\.\d\d · τ /m);
    assert.match(md, /settleOrder/);
    assert.match(md, /^```java untrusted$/m);
    assert.match(md, /\]\(file:\/\/\/.*OrderService\.java#L\d+\)/);
    assert.match(lastText(), /· conf \d\.\d\d$/);

    // Code lens → the server's needle.retrieveContext command → the middleware opens a view.
    const lensProvider = recorded.codeLensProviders[0];
    assert.ok(lensProvider, 'a code lens provider is registered');
    const lenses = await lensProvider.provideCodeLenses(doc, token);
    const lens = lenses.find((l: { range: { start: { line: number } } }) => l.range.start.line === ws.methodLine) ?? lenses[0];
    const resolved = await lensProvider.resolveCodeLens!(lens, token);
    assert.match(resolved.command.title, /^P\(sufficient\) \d\.\d\d · [a-z]+ body · /);
    assert.equal(resolved.command.command, 'needle.retrieveContext');
    const shownBefore = recorded.shown.length;
    const result = await recorded.commands.get('needle.retrieveContext')!(...resolved.command.arguments);
    assert.ok((result as { items: unknown[] }).items.length > 0);
    assert.equal(recorded.shown.length, shownBefore + 1, 'the code lens command opened a view');
    assert.match(recorded.shown.at(-1)!.getText(), /^# Needle context/);

    const hover = await recorded.hoverProviders[0].provideHover(doc, editor.selection.active, token);
    assert.match(JSON.stringify(hover.contents), /coverage/);

    // Copy: from a view, its text; from the Java editor, a fresh retrieval.
    await recorded.commands.get('needle.copyContext')!();
    assert.equal(recorded.clipboard, recorded.shown.at(-1)!.getText());
    (vscode as { window: { activeTextEditor: unknown } }).window.activeTextEditor = editor;
    recorded.clipboard = '';
    await recorded.commands.get('needle.copyContext')!();
    assert.match(recorded.clipboard, /^# Needle context/);

    await recorded.commands.get('needle.showStatus')!();
    assert.ok(recorded.quickPicks.at(-1)!.some((i) => i.label === 'State: ready'), JSON.stringify(recorded.quickPicks.at(-1)));

    // A crash: the client restarts the server and the status bar comes back.
    const pids = serverPids();
    assert.equal(pids.length, 1, `one server process: ${pids}`);
    const mark = recorded.statusBar.length;
    process.kill(pids[0], 'SIGKILL');
    await waitFor('the status bar to leave the ready state', () => recorded.statusBar.slice(mark).some((s) => !READY.test(s.text)));
    await waitFor('the status bar to recover after the restart', () => READY.test(lastText()) && serverPids().length === 1 && serverPids()[0] !== pids[0]);
    assert.ok(recorded.statusBar.slice(mark).some((s) => /Needle indexing/.test(s.text)), 'progress shows again after the restart');
    await recorded.commands.get('needle.retrieveContextForCursor')!();
    assert.match(recorded.shown.at(-1)!.getText(), /settleOrder/);
    assert.deepEqual(recorded.messages.filter((m) => m.startsWith('error')), []);
  } finally {
    await ext.deactivate();
    for (const d of context.subscriptions) d.dispose();
    (Module as unknown as { _load: Function })._load = load;
    await waitFor('the server to exit', () => serverPids().length === 0, 10_000).catch(() => serverPids().forEach((p) => process.kill(p, 'SIGKILL')));
    ws.cleanup();
  }
});
