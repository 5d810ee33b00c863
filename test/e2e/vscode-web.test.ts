// End to end in VS Code itself: code-server with needle.vsix installed, driven through
// chromium. Opens examples/acme-shop and checks what a user sees: the status bar, code lenses
// with real scores, the hover, the insufficient-context diagnostic in the Problems panel, the
// palette commands (context view, copy) and the restart after the server is killed.
//
// Needs code-server in .cache/code-server (test/e2e/install-code-server.sh, run by .ci/run) and
// Debian's chromium. Without them it is skipped (test/helpers/prerequisites.ts), unless CI is set: then it is a
// failure. Screenshots go to test-results/e2e/, or to docs/screenshots/ with
// NEEDLE_E2E_SCREENSHOTS=docs (npm run test:e2e).

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, E2E_PREREQUISITES, languageServerPids, root, startWorkbench, type Workbench } from './codeServer';
import { requires } from '../helpers/prerequisites';

// Code passed to page.evaluate runs in the browser, where this global exists.
declare const navigator: { clipboard: { writeText(text: string): Promise<void>; readText(): Promise<string> } };

const E2E = requires(...E2E_PREREQUISITES);

const shotsDir = process.env.NEEDLE_E2E_SCREENSHOTS === 'docs' ? join(root, 'docs/screenshots') : join(root, 'test-results/e2e');
const ORDER_SERVICE = 'src/main/java/com/acme/shop/order/OrderService.java';
const LEDGER = 'src/main/java/com/acme/shop/billing/LedgerReconciler.java';
/**
 * With the calibrated τ (0.70, then 0.90) the gate finds reconcileDay's context sufficient
 * (confidence 0.81–0.93 while this was written, after follow-up rounds), so the workspace raises τ to 0.98
 * to make the gate flag it (it then flags most methods).
 */
const THRESHOLD = 0.98;
const STATUS_READY = /Needle: \d+ files · \d+ symbols/;
const LENS = /P\(sufficient\) \d\.\d\d · [a-z]+ body · coverage \d\.\d\d · novelty \d\.\d\d/;

describe('VS Code (code-server) end to end', { skip: E2E.skip, timeout: 240_000 }, () => {
  let wb: Workbench;
  let browser: Browser;
  let page: Page;

  before(async () => {
    E2E.assertPresent();
    wb = await startWorkbench({ workspaceSettings: { 'needle.threshold': THRESHOLD } });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 760 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(wb.url).origin });
    page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(wb.url);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    mkdirSync(shotsDir, { recursive: true });
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await wb?.stop();
  });

  const shot = async (name: string) => {
    const file = join(shotsDir, `${name}.png`);
    await page.screenshot({ path: file });
    assert.ok(statSync(file).size < 300_000, `${file} is ${statSync(file).size} bytes`);
  };

  /** A test step that leaves a screenshot of the page in test-results/e2e when it fails. */
  const step = (name: string, fn: () => Promise<void>) => it(name, async () => {
    try {
      await fn();
    } catch (e) {
      const dir = join(root, 'test-results/e2e');
      mkdirSync(dir, { recursive: true });
      await page?.screenshot({ path: join(dir, `failed-${name.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 60)}.png`) }).catch(() => undefined);
      throw e;
    }
  });

  const statusItem = () => page.locator('.statusbar-item').filter({ hasText: /Needle/ }).first();

  /** Runs a palette command by its title. */
  const palette = async (title: string) => {
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill(`>${title}`);
    // Enter picks the focused row: wait until the list has caught up with the text.
    await page.locator('.quick-input-list .monaco-list-row.focused').filter({ hasText: title }).waitFor();
    await page.keyboard.press('Enter');
  };

  /** Opens a workspace file with Quick Open and waits for its tab. */
  const openFile = async (path: string) => {
    const name = path.split('/').pop()!;
    // Keybindings need focus inside the workbench (hiding a panel can leave it on the body).
    const editor = page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
    if (await editor.isVisible()) await editor.click();
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill(path);
    // Enter picks the focused row; until the search catches up it is a recently opened file.
    await page.locator('.quick-input-list .monaco-list-row.focused').filter({ hasText: name }).waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.tab.active').filter({ hasText: name }).waitFor();
    await page.locator('.editor-instance .monaco-editor .view-lines').first().waitFor();
  };

  /** Puts the cursor at a 1-based line and column with "Go to Line/Column". */
  const goTo = async (line: number, column: number) => {
    await page.keyboard.press('Control+G');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill(`:${line}:${column}`);
    await page.keyboard.press('Enter');
    await input.waitFor({ state: 'hidden' });
  };

  it('the installed .vsix carries its own ripgrep', () => {
    assert.ok(wb.vsixShipsRipgrep, 'the .vsix has no dist/bin/rg');
  });

  step('indexes the workspace: the status bar shows files and symbols', async () => {
    await openFile(ORDER_SERVICE);
    await statusItem().filter({ hasText: STATUS_READY }).waitFor({ timeout: 90_000 });
  });

  step('shows code lenses with real scores', async () => {
    await goTo(146, 9); // settleOrder
    const lens = page.locator('.codelens-decoration').filter({ hasText: LENS }).first();
    await lens.waitFor({ timeout: 60_000 });
    assert.match((await lens.innerText()).trim(), /P\(sufficient\) \d\.\d\d · [a-z]+ body · coverage \d\.\d\d · novelty \d\.\d\d/);
    await shot('code-lens');
  });

  step('shows the verdict in a hover inside a method', async () => {
    await goTo(146, 9); // inside settleOrder's body
    await palette('Show or Focus Hover');
    const hover = page.locator('.monaco-hover').filter({ hasText: /coverage/ }).first();
    await hover.waitFor({ timeout: 30_000 });
    assert.match(await hover.innerText(), /Needle.*coverage \d\.\d\d/s);
    await shot('hover');
    await page.keyboard.press('Escape');
  });

  step('the language-model tools are registered and answer an invocation', async () => {
    await openFile(ORDER_SERVICE);
    await palette('Needle: Check language-model tools');
    const toast = page.locator('.notifications-toasts').filter({ hasText: /needle_retrieve_context answered \d+ characters \(P\(sufficient\) (\d\.\d\d|—), [a-z ]+\)/ });
    // VS Code asks before the tool runs, with the message that says what Needle will read.
    const dialog = page.locator('.monaco-dialog-box').filter({ hasText: 'Retrieve context with Needle' });
    await dialog.waitFor({ timeout: 60_000 });
    assert.match(await dialog.innerText(), /Needle will read src\/main\/java\/com\/acme\/shop\/order\/OrderService\.java/);
    await dialog.getByRole('button', { name: 'Yes' }).click();
    await toast.waitFor({ timeout: 60_000 });
    const text = await toast.innerText();
    assert.match(text, /needle_check_code, needle_retrieve_context/);
  });

  step('reports insufficient-context on LedgerReconciler.reconcileDay in the Problems panel', async () => {
    const lines = readFileSync(join(wb.workspace, LEDGER), 'utf8').split('\n');
    const line = lines.findIndex((l) => /\breconcileDay\(/.test(l)) + 1;
    const column = lines[line - 1].indexOf('reconcileDay') + 1;
    assert.ok(line > 0);
    await openFile(LEDGER);
    await goTo(line, column);
    await palette('View: Focus Problems');
    const row = page.locator('.markers-panel .monaco-list-row')
      .filter({ hasText: /Context may be insufficient/ }).filter({ hasText: new RegExp(`\\[Ln ${line}, Col ${column}\\]`) }).first();
    // The Problems list is virtualised: a row below the fold is not in the DOM until scrolled to,
    // and every diagnostic lists up to five missing symbols under it. Scroll down in steps (back
    // to the top now and then, since the diagnostics arrive while we look) until the row exists.
    const list = page.locator('.markers-panel .monaco-list').first();
    const deadline = Date.now() + 90_000;
    for (let i = 1; !(await row.count()); i++) {
      if (Date.now() > deadline) throw new Error(`no insufficient-context row at Ln ${line}, Col ${column} in the Problems panel`);
      if (await list.count()) { await list.hover(); await page.mouse.wheel(0, i % 16 === 0 ? -100_000 : 120); }
      await page.waitForTimeout(250);
    }
    await row.scrollIntoViewIfNeeded();
    assert.match(await row.innerText(), /needle\s*\(?\s*insufficient-context/);
    await row.click();
    await shot('problems');
    await palette('View: Hide Panel');
  });

  step('"Needle: Retrieve context for cursor" opens the context view', async () => {
    await openFile(ORDER_SERVICE);
    await goTo(146, 9);
    await palette('Needle: Retrieve context for cursor');
    await page.locator('.tab.active').filter({ hasText: /Needle context OrderService\.java_146/ }).waitFor({ timeout: 60_000 });
    const view = page.locator('.editor-group-container.active .monaco-editor .view-lines');
    await view.filter({ hasText: /Needle\scontext/ }) // the editor renders spaces as U+00A0.waitFor();
    // The view lists the files retrieved; find Outcome.java in it with the editor's own search.
    await page.keyboard.press('Control+F');
    await page.locator('.find-widget.visible .input').first().fill('Outcome.java');
    await page.locator('.find-widget.visible .matchesCount').filter({ hasText: /\d+ of \d+/ }).waitFor();
    await shot('context-view');
    await page.keyboard.press('Escape');
  });

  step('"Needle: Copy context" puts the context on the clipboard', async () => {
    await page.evaluate(() => navigator.clipboard.writeText('(empty)'));
    await palette('Needle: Copy context');
    await page.locator('.notifications-toasts').filter({ hasText: /context copied to the clipboard/ }).waitFor({ timeout: 60_000 });
    const text = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(text, /Outcome\.java/);
    assert.match(text, /OrderService\.java/);
  });

  step('restarts the language server after it is killed, and the status bar comes back', async () => {
    const before = languageServerPids(wb.extensionsDir);
    assert.ok(before.length >= 1, 'language server process found');
    for (const pid of before) process.kill(pid, 'SIGKILL');
    // The client notices, restarts it, and the status bar shows the index again.
    const deadline = Date.now() + 60_000;
    let after: number[] = [];
    while (Date.now() < deadline) {
      after = languageServerPids(wb.extensionsDir).filter((p) => !before.includes(p));
      if (after.length) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(after.length >= 1, 'a new language server process was started');
    await statusItem().filter({ hasText: STATUS_READY }).waitFor({ timeout: 90_000 });
  });
});
