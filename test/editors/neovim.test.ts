// Neovim (0.7+) as an LSP client of dist/server.js: headless, a Lua script starts the server with
// vim.lsp.start_client on a copy of examples/acme-shop, opens OrderService.java, waits for the
// index, asks for context, hover and code lenses, collects the published diagnostics, and writes
// all of it as JSON for the assertions below.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyExample, editorEnv, runProcess, SERVER } from './helpers';
import { executable, onPath, requires } from '../helpers/prerequisites';

const NEOVIM = requires(executable('nvim', 'neovim'));

const LUA = String.raw`
local cfg = vim.fn.json_decode(table.concat(vim.fn.readfile(os.getenv('NEEDLE_TEST_CONFIG')), '\n'))
local out = { diagnostics = {}, steps = {} }
local t0 = vim.loop.hrtime()
local function step(name) table.insert(out.steps, { name = name, ms = math.floor((vim.loop.hrtime() - t0) / 1e6) }) end
local function write() vim.fn.writefile({ vim.fn.json_encode(out) }, cfg.out) end

local function request(client, method, params, timeout, bufnr)
  local r, err = client.request_sync(method, params, timeout, bufnr)
  if not r then error(method .. ': ' .. tostring(err)) end
  if r.err then error(method .. ': ' .. vim.inspect(r.err)) end
  return r.result
end

local ok, err = pcall(function()
  local initialized = false
  local client_id = vim.lsp.start_client({
    name = 'needle',
    cmd = { cfg.node, cfg.server, '--stdio' },
    root_dir = cfg.root,
    on_init = function() initialized = true end,
    on_exit = function(code, signal) out.exit = { code = code, signal = signal } end,
    handlers = {
      ['textDocument/publishDiagnostics'] = function(_, result)
        table.insert(out.diagnostics, result)
      end,
    },
  })
  if not client_id then error('vim.lsp.start_client failed') end
  if not vim.wait(30000, function() return initialized end, 20) then error('the server did not initialize within 30 s') end
  step('initialized')
  local client = vim.lsp.get_client_by_id(client_id)
  out.capabilities = client.server_capabilities

  vim.cmd('edit ' .. vim.fn.fnameescape(cfg.file))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].filetype = 'java'
  vim.lsp.buf_attach_client(bufnr, client_id)
  local uri = vim.uri_from_bufnr(bufnr)
  out.uri = uri

  local deadline = vim.loop.now() + 120000
  repeat
    out.status = request(client, 'needle/status', vim.empty_dict(), 10000, bufnr)
    if out.status.state == 'ready' then break end
    vim.wait(200)
  until vim.loop.now() > deadline
  if out.status.state ~= 'ready' then error('index not ready within 120 s') end
  step('ready')

  local pos = { line = cfg.line, character = cfg.character }
  out.context = request(client, 'needle/retrieveContext', { textDocument = { uri = uri }, position = pos }, 120000, bufnr)
  step('retrieveContext')
  out.hover = request(client, 'textDocument/hover', { textDocument = { uri = uri }, position = pos }, 120000, bufnr)
  step('hover')
  out.codeLenses = request(client, 'textDocument/codeLens', { textDocument = { uri = uri } }, 30000, bufnr)
  local lens
  for _, l in ipairs(out.codeLenses or {}) do
    if l.range.start.line == cfg.methodLine then lens = l end
  end
  lens = lens or (out.codeLenses or {})[1]
  if lens then out.resolvedLens = request(client, 'codeLens/resolve', lens, 120000, bufnr) end
  step('codeLens')
  out.command = request(client, 'workspace/executeCommand', { command = 'needle.retrieveContext', arguments = { uri, pos } }, 120000, bufnr)
  step('executeCommand')

  -- Diagnostics are debounced and computed per method: wait for this file's first publication.
  vim.wait(cfg.diagnosticsWaitMs, function()
    for _, d in ipairs(out.diagnostics) do if d.uri == uri then return true end end
    return false
  end, 50)
  step('diagnostics')
  client.stop()
  vim.wait(3000, function() return out.exit ~= nil end, 50)
end)
if not ok then out.error = tostring(err) end
write()
vim.cmd(ok and 'qa!' or 'cquit! 1')
`;

test('neovim: vim.lsp client gets context, hover, code lens and diagnostics from dist/server.js', { timeout: 200_000, skip: NEOVIM.skip }, async () => {
  NEOVIM.assertPresent();
  const nvim = onPath('nvim')!;
  const ws = copyExample('nvim');
  try {
    const home = join(ws.dir, 'home');
    mkdirSync(home, { recursive: true });
    const script = join(ws.dir, 'test.lua');
    const out = join(ws.dir, 'out.json');
    const config = join(ws.dir, 'config.json');
    writeFileSync(script, LUA);
    writeFileSync(config, JSON.stringify({
      node: process.execPath, server: SERVER, root: ws.root, file: ws.file, out,
      line: ws.cursor.line, character: ws.cursor.character, methodLine: ws.methodLine, diagnosticsWaitMs: 60_000,
    }));
    const started = Date.now();
    const { code, output: stderr } = await runProcess(nvim, ['--headless', '--clean', '-n', '-i', 'NONE', '-c', `luafile ${script}`], editorEnv(home, { NEEDLE_TEST_CONFIG: config }), 180_000);
    const elapsed = Date.now() - started;
    assert.ok(existsSync(out), `neovim wrote no result (exit ${code}): ${stderr.slice(-2000)}`);
    const r = JSON.parse(readFileSync(out, 'utf8'));
    assert.equal(r.error, undefined, `the Lua script failed: ${r.error}`);
    assert.equal(code, 0, `nvim exited with ${code}: ${stderr.slice(-2000)}`);
    console.log(`neovim: ${elapsed} ms; steps ${JSON.stringify(r.steps)}`);

    // Capabilities the contract promises.
    assert.ok(r.capabilities.hoverProvider, 'hoverProvider');
    assert.ok(r.capabilities.codeLensProvider?.resolveProvider, 'codeLensProvider with resolve');
    assert.ok(r.capabilities.executeCommandProvider?.commands?.includes('needle.retrieveContext'), 'executeCommandProvider needle.retrieveContext');
    assert.ok(r.capabilities.experimental?.needle?.retrieveContext, 'experimental.needle.retrieveContext');
    assert.equal(r.status.state, 'ready');
    assert.ok(r.status.files > 0 && r.status.symbols > 0, `status counts: ${JSON.stringify(r.status)}`);

    // needle/retrieveContext: items with uri and text, the enclosing method among them.
    const ctx = r.context;
    assert.ok(Array.isArray(ctx.items) && ctx.items.length > 0, 'context items are non-empty');
    for (const item of ctx.items) {
      assert.match(item.uri, /^file:\/\//);
      assert.equal(typeof item.text, 'string');
      assert.ok(item.text.length > 0);
      assert.equal(item.untrusted, true);
    }
    assert.ok(ctx.items.some((i: { text: string }) => i.text.includes('settleOrder')), 'the enclosing method is in context');
    for (const k of ['coverage', 'novelty', 'confidence', 'threshold']) assert.ok(ctx[k] >= 0 && ctx[k] <= 1, `${k} in [0, 1]`);
    assert.ok(ctx.tokens <= 4000, `within the default budget (${ctx.tokens})`);

    // The command form answers the same (timings aside).
    assert.deepEqual(r.command.items.map((i: { uri: string; range: unknown }) => [i.uri, i.range]), ctx.items.map((i: { uri: string; range: unknown }) => [i.uri, i.range]));

    // Hover inside the method shows the verdict.
    const hover = typeof r.hover?.contents === 'string' ? r.hover.contents : r.hover?.contents?.value ?? '';
    assert.match(hover, /coverage/);

    // A code lens on settleOrder resolves to a verdict whose command retrieves context.
    assert.ok(Array.isArray(r.codeLenses) && r.codeLenses.length > 0, 'code lenses on the methods');
    assert.match(r.resolvedLens?.command?.title ?? '', /^P\(sufficient\) \d\.\d\d · [a-z]+ body · /);
    assert.equal(r.resolvedLens.command.command, 'needle.retrieveContext');

    // Diagnostics, if any were published for the file, are Needle's.
    const mine = r.diagnostics.filter((d: { uri: string }) => d.uri === r.uri);
    for (const pub of mine) for (const d of pub.diagnostics) {
      assert.equal(d.source, 'needle');
      assert.equal(d.code, 'insufficient-context');
    }
    console.log(`neovim: ${ctx.items.length} items, confidence ${ctx.confidence}, ${mine.length} diagnostics publications (${mine.at(-1)?.diagnostics.length ?? 0} diagnostics in the last)`);
  } finally {
    ws.cleanup();
  }
});
