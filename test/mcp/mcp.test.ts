// Drives `node dist/cli.js mcp <workspace>` with the MCP SDK's own client over stdio.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { tempDir } from '../helpers/tempDir';

const CLI = process.env.NEEDLE_TEST_CLI ?? join(process.cwd(), 'dist/cli.js');
const ORDER_SERVICE = 'src/main/java/com/acme/shop/order/OrderService.java';
const CUSTOMER_ID = 'src/main/java/com/acme/shop/customer/CustomerId.java';

type Result = { content: { type: string; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };
const textOf = (r: Result) => r.content.map((c) => c.text).join('\n');

test('needle mcp: tools over stdio with the SDK client', { timeout: 120_000 }, async () => {
  const root = tempDir('needle-mcp-');
  cpSync(join(process.cwd(), 'examples/acme-shop'), root, { recursive: true });
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', root, '--no-cache'], stderr: 'pipe' });
  const client = new Client({ name: 'needle-test', version: '0.0.0' });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['check_code', 'index_status', 'retrieve_context']);
    for (const t of tools) {
      assert.ok(t.description && t.description.length > 60, `${t.name} has a description`);
      assert.equal(t.inputSchema.type, 'object');
    }

    // retrieve_context on the settleOrder TODO (line found by searching).
    const lines = readFileSync(join(root, ORDER_SERVICE), 'utf8').split('\n');
    const todo = lines.findIndex((l, i) => l.includes('// TODO') && lines.slice(Math.max(0, i - 3), i).some((p) => p.includes('settleOrder(')));
    assert.ok(todo > 0, 'the settleOrder TODO is in the example');
    const r = await client.callTool({ name: 'retrieve_context', arguments: { file: ORDER_SERVICE, line: todo + 1, column: 9, task: 'implement settleOrder' } }) as Result;
    assert.ok(!r.isError, textOf(r));
    const md = textOf(r);
    assert.match(md, /P\(sufficient\) (\d\.\d\d|—) · [a-z ]+ · coverage \d\.\d\d · novelty \d\.\d\d/);
    assert.match(md, /untrusted data/);
    assert.match(md, /^## src\/main\/java\/com\/acme\/shop\/order\/OrderService\.java$/m);
    assert.match(md, /^- #1 `com\.acme\.shop\.order\.OrderService#settleOrder\(OrderId,PaymentMethod\)` \(method\) · lines \d+–\d+/m);
    assert.match(md, /```+java untrusted/);
    const sc = r.structuredContent!;
    for (const k of ['coverage', 'novelty', 'confidence', 'review', 'missing', 'items']) assert.ok(k in sc, `structured ${k}`);
    assert.ok((sc.items as unknown[]).length > 0);

    // check_code: a misspelled internal API -> a finding with the real name as candidate.
    const bad = await client.callTool({ name: 'check_code', arguments: { file: CUSTOMER_ID, code:
      '    public static CustomerId parse(String text) {\n        String raw = Guard.requireTxt(text, "customerId");\n        return new CustomerId(Long.parseLong(raw));\n    }' } }) as Result;
    assert.ok(!bad.isError, textOf(bad));
    assert.match(textOf(bad), /unknown-internal-api\] line 2, column 28: `Guard` has no method `requireTxt`; did you mean `Guard\.requireText\(String,String\)`/);
    const findings = bad.structuredContent!.findings as { code: string; name: string; candidates: { name: string }[] }[];
    const f = findings.find((x) => x.code === 'unknown-internal-api');
    assert.equal(f?.name, 'requireTxt');
    assert.ok(f?.candidates.some((c) => c.name === 'Guard#requireText'));
    assert.equal(bad.structuredContent!.ok, false);

    // ... and real APIs -> no unknown-API finding.
    const good = await client.callTool({ name: 'check_code', arguments: { file: CUSTOMER_ID, code:
      '    public static CustomerId parse(String text) {\n        String raw = Guard.requireText(text, "customerId");\n        return new CustomerId(Long.parseLong(raw));\n    }' } }) as Result;
    assert.ok(!good.isError, textOf(good));
    assert.ok(!(good.structuredContent!.findings as { code: string }[]).some((x) => x.code === 'unknown-internal-api'), textOf(good));
    assert.equal(good.structuredContent!.ok, true);

    // Bad arguments -> isError results a model can act on; the server keeps serving.
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['retrieve_context', { file: ORDER_SERVICE }, /line is required/],
      ['retrieve_context', { file: ORDER_SERVICE, line: 0 }, /line must be an integer/],
      ['retrieve_context', { file: ORDER_SERVICE, line: 99999 }, /past the end/],
      ['retrieve_context', { file: '../../etc/passwd.java', line: 1 }, /outside the workspace/],
      ['retrieve_context', { file: 'src/Nope.java', line: 1 }, /does not exist/],
      ['check_code', { file: CUSTOMER_ID }, /code is required/],
      ['check_code', { file: CUSTOMER_ID, code: 'x', start_line: 5 }, /end_line is required/],
      ['check_code', { file: CUSTOMER_ID, code: 7 }, /code must be a string/],
      ['index_status', { verbose: true }, /unknown argument verbose/],
      ['no_such_tool', {}, /unknown tool/],
    ];
    for (const [name, args, re] of cases) {
      const e = await client.callTool({ name, arguments: args }) as Result;
      assert.equal(e.isError, true, `${name} ${JSON.stringify(args)}`);
      assert.match(textOf(e), re);
    }
    const s = await client.callTool({ name: 'index_status', arguments: {} }) as Result;
    assert.ok(!s.isError);
    assert.equal(s.structuredContent!.state, 'ready');
    assert.ok((s.structuredContent!.files as number) > 10);
  } finally {
    await client.close();
  }
});
