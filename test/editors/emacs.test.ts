// Emacs with eglot as an LSP client of dist/server.js: `emacs --batch` opens OrderService.java in
// a copy of examples/acme-shop, connects eglot, waits for the index with `needle/status`, then
// calls `needle/retrieveContext` through `jsonrpc-request` and writes the result as JSON.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyExample, editorEnv, runProcess, SERVER } from './helpers';
import { executable, onPath, probe, requires } from '../helpers/prerequisites';

const EMACS = requires(
  executable('emacs', 'emacs-nox elpa-eglot'),
  // As the test runs emacs: --batch without -Q, so Debian's site-start loads the elpa-* packages.
  probe('eglot', 'apt-get install elpa-eglot', 'emacs', ['--batch', '--eval', "(require 'eglot)"]),
);

const ELISP = String.raw`
(require 'package)
(package-activate-all)
(require 'json)
(require 'eglot)
(require 'cc-mode)

(defvar needle-cfg (json-read-file (getenv "NEEDLE_TEST_CONFIG")))
(defun needle-cfg (key) (alist-get key needle-cfg))
(defvar needle-root (file-name-as-directory (needle-cfg 'root)))

(defun needle-write (object)
  (with-temp-file (needle-cfg 'out)
    (insert (let ((json-encoding-pretty-print nil)) (json-encode object)))))

(condition-case err
    (progn
      ;; The whole copy is one project, whatever VC says.
      (add-hook 'project-find-functions (lambda (_dir) (cons 'transient needle-root)))
      (setq eglot-server-programs
            (list (cons 'java-mode (list (needle-cfg 'node) (needle-cfg 'server) "--stdio"))))
      (setq eglot-sync-connect t eglot-connect-timeout 60 eglot-autoshutdown nil)
      (find-file (needle-cfg 'file))
      (java-mode)
      (apply #'eglot (eglot--guess-contact))
      (let* ((server (eglot-current-server))
             (deadline (+ (float-time) 120))
             (status nil))
        (unless server (error "eglot did not connect"))
        (while (progn
                 (setq status (jsonrpc-request server :needle/status (make-hash-table) :timeout 30))
                 (and (not (equal (plist-get status :state) "ready")) (< (float-time) deadline)))
          (sleep-for 0.2))
        (unless (equal (plist-get status :state) "ready") (error "index not ready within 120 s"))
        (let ((result (jsonrpc-request
                       server :needle/retrieveContext
                       (list :textDocument (list :uri (eglot--path-to-uri (needle-cfg 'file)))
                             :position (list :line (needle-cfg 'line) :character (needle-cfg 'character)))
                       :timeout 120)))
          (needle-write (list :status status :context result))
          (ignore-errors (eglot-shutdown server))
          (kill-emacs 0))))
  (error
   (needle-write (list :error (error-message-string err)))
   (kill-emacs 1)))
`;

test('emacs: eglot calls needle/retrieveContext on dist/server.js', { timeout: 200_000, skip: EMACS.skip }, async () => {
  EMACS.assertPresent();
  const emacs = onPath('emacs')!;
  const ws = copyExample('emacs');
  try {
    const home = join(ws.dir, 'home');
    mkdirSync(home, { recursive: true });
    const script = join(ws.dir, 'test.el');
    const out = join(ws.dir, 'out.json');
    const config = join(ws.dir, 'config.json');
    writeFileSync(script, ELISP);
    writeFileSync(config, JSON.stringify({ node: process.execPath, server: SERVER, root: ws.root, file: ws.file, out, line: ws.cursor.line, character: ws.cursor.character }));
    const started = Date.now();
    const { code, output } = await runProcess(emacs, ['--batch', '-l', script], editorEnv(home, { NEEDLE_TEST_CONFIG: config }), 180_000);
    const elapsed = Date.now() - started;
    assert.ok(existsSync(out), `emacs wrote no result (exit ${code}): ${output.slice(-2000)}`);
    const r = JSON.parse(readFileSync(out, 'utf8'));
    assert.equal(r.error, undefined, `the Emacs script failed: ${r.error}\n${output.slice(-2000)}`);
    assert.equal(code, 0, `emacs exited with ${code}: ${output.slice(-2000)}`);
    console.log(`emacs: ${elapsed} ms`);

    assert.equal(r.status.state, 'ready');
    const ctx = r.context;
    assert.ok(Array.isArray(ctx.items) && ctx.items.length > 0, 'context items are non-empty');
    for (const item of ctx.items) {
      assert.match(item.uri, /^file:\/\//);
      assert.ok(typeof item.text === 'string' && item.text.length > 0);
    }
    assert.ok(ctx.items.some((i: { text: string }) => i.text.includes('settleOrder')), 'the enclosing method is in context');
    assert.ok(ctx.confidence >= 0 && ctx.confidence <= 1);
    console.log(`emacs: ${ctx.items.length} items, confidence ${ctx.confidence}`);
  } finally {
    ws.cleanup();
  }
});
