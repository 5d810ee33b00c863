// needle/checkCode through the real server bundle, and the opt-in unknown-internal-api diagnostics.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { startServer } from '../helpers/lspClient';
import { writeFixture } from '../helpers/workspace';

const FILES = {
  'src/a/Item.java': 'package a;\npublic class Item {\n  public int total() { return 1; }\n}\n',
  'src/a/Svc.java': 'package a;\npublic class Svc {\n  int run(Item i) {\n    return i.total();\n  }\n}\n',
};

type Finding = { code: string; name?: string; range: unknown; fileRange?: unknown; candidates?: string[] };

test('needle/checkCode: proposed text, document ranges and invalid params', { timeout: 60_000 }, async () => {
  const fx = writeFixture(FILES);
  const s = await startServer([fx.root]);
  try {
    await s.waitReady();
    const uri = pathToFileURL(join(fx.root, 'src/a/Svc.java')).toString();
    const r = await s.connection.sendRequest<{ findings: Finding[]; placement: string }>('needle/checkCode', {
      textDocument: { uri }, text: '  int run(Item i) {\n    return i.totl();\n  }',
    });
    assert.equal(r.placement, 'method');
    assert.deepEqual(r.findings.filter((f) => f.code !== 'unused-surface').map((f) => [f.code, f.name, f.range, f.fileRange, f.candidates]), [[
      'unknown-internal-api', 'totl', { start: { line: 1, character: 13 }, end: { line: 1, character: 17 } },
      { start: { line: 3, character: 13 }, end: { line: 3, character: 17 } }, ['a.Item#total()'],
    ]]);
    const own = await s.connection.sendRequest<{ findings: Finding[] }>('needle/checkCode', { textDocument: { uri } });
    assert.deepEqual(own.findings.filter((f) => f.code !== 'unused-surface'), []);
    await assert.rejects(s.connection.sendRequest('needle/checkCode', { textDocument: { uri }, range: { start: { line: 2 } } }), /range must be/);
    await assert.rejects(s.connection.sendRequest('needle/checkCode', { textDocument: { uri: 'file:///elsewhere/X.java' }, text: 'class X {}' }), /outside every workspace folder/);
  } finally {
    await s.close();
  }
});

test('unknown-internal-api diagnostics are opt-in', { timeout: 60_000 }, async () => {
  const fx = writeFixture(FILES);
  const text = 'package a;\npublic class Svc {\n  int run(Item i) {\n    return i.totl();\n  }\n}\n';
  for (const on of [false, true]) {
    const s = await startServer([fx.root], { checkCodeDiagnostics: on, diagnostics: false });
    try {
      await s.waitReady();
      const uri = pathToFileURL(join(fx.root, 'src/a/Svc.java')).toString();
      await s.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'java', version: 1, text } });
      const until = Date.now() + (on ? 15_000 : 2_500);
      let got: { code?: string; range?: unknown }[] = [];
      while (Date.now() < until) {
        got = (s.diagnostics.get(uri) ?? []) as typeof got;
        if (got.some((d) => d.code === 'unknown-internal-api')) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const mine = got.filter((d) => d.code === 'unknown-internal-api');
      if (on) assert.deepEqual(mine.map((d) => d.range), [{ start: { line: 3, character: 13 }, end: { line: 3, character: 17 } }]);
      else assert.deepEqual(mine, []);
    } finally {
      await s.close();
    }
  }
});
