// URIs and paths on every operating system (server/src/platform/paths.ts), each rule run under
// both path flavours on this machine: the URIs VS Code sends on Windows (`file:///c%3A/...`),
// drive-letter case, UNC, backslashes, paths past 260 characters, case-insensitive folders, and
// confinement probes with Windows-style traversal, all refused.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { detectCaseInsensitive, FilePaths, PathError } from '../../server/src/platform/paths';
import { Indexer } from '../../server/src/index/indexer';
import { defaultSettings, InvalidRequest, retrieveAt } from '../../server/src/service';
import { tempDir } from '../helpers/tempDir';

const win = new FilePaths(path.win32, () => true);
const winSensitive = new FilePaths(path.win32, () => false);
const posix = new FilePaths(path.posix, () => false);
const mac = new FilePaths(path.posix, () => true);

test('URIs to paths: what VS Code sends on Windows, drive-letter case, UNC, localhost; POSIX alike', () => {
  const cases: [FilePaths, string, string][] = [
    [win, 'file:///c%3A/Users/Dev/shop/src/Order%20Service.java', 'C:\\Users\\Dev\\shop\\src\\Order Service.java'],
    [win, 'file:///C:/Users/Dev/shop/src/A.java', 'C:\\Users\\Dev\\shop\\src\\A.java'],
    [win, 'file:///c:/Users/Dev/shop/', 'C:\\Users\\Dev\\shop'],
    [win, 'file:///c%3A/', 'C:\\'],
    [win, 'file://server/share/team/shop/A.java', '\\\\server\\share\\team\\shop\\A.java'],
    [win, 'file://localhost/c%3A/x/A.java', 'C:\\x\\A.java'],
    [win, 'file:///c%3A/Users/J%C3%BCrgen/%23tmp/A.java', 'C:\\Users\\Jürgen\\#tmp\\A.java'],
    [posix, 'file:///home/dev/shop/src/Order%20Service.java', '/home/dev/shop/src/Order Service.java'],
    [posix, 'file:///home/dev/shop/', '/home/dev/shop'],
    [posix, 'file://localhost/home/dev/A.java', '/home/dev/A.java'],
    [posix, 'file:///home/J%C3%BCrgen/%23tmp/A.java', '/home/Jürgen/#tmp/A.java'],
    [posix, 'file:///', '/'],
  ];
  for (const [p, uri, want] of cases) assert.equal(p.toPath(uri), want, uri);
  const refused: [FilePaths, string][] = [
    [win, 'file:///c%3A/w/..%5Csecret.java'], [win, 'file:///c%3A/w/%2e%2e%2Fsecret'], [win, 'file:///Users/x.java'],
    [win, 'untitled:Untitled-1'], [win, 'file://%%%'], [win, 'https://c/x.java'],
    [posix, 'file://server/share/A.java'], [posix, 'file:///w/a%2Fb.java'], [posix, 'file:///w/a%00.java'], [posix, 'relative/a.java'],
  ];
  for (const [p, uri] of refused) assert.throws(() => p.toPath(uri), PathError, uri);
});

test('paths to URIs: VS Code spelling on Windows, UNC, and every conversion round-trips under both flavours', () => {
  assert.equal(win.toUri('C:\\Users\\Dev\\shop\\A.java'), 'file:///c%3A/Users/Dev/shop/A.java');
  assert.equal(win.toUri('c:/Users/Dev/shop/A.java'), 'file:///c%3A/Users/Dev/shop/A.java', 'forward slashes and a lower-case drive');
  assert.equal(win.toUri('\\\\server\\share\\shop\\A.java'), 'file://server/share/shop/A.java');
  assert.equal(posix.toUri('/home/dev/a b#%.java'), 'file:///home/dev/a%20b%23%25.java');
  const long = Array.from({ length: 30 }, (_, i) => `segment-${i}-with-a-longer-name`);
  assert.ok(long.join('/').length > 260);
  const paths: [FilePaths, string][] = [
    [win, 'C:\\Users\\Dev\\shop\\src\\Order Service.java'], [win, '\\\\server\\share\\shop\\A.java'],
    [win, 'C:\\' + long.join('\\') + '\\A.java'], [win, 'C:\\Users\\Jürgen\\[x]\\100%\\a#b;c.java'],
    [posix, '/home/dev/shop/src/Order Service.java'], [posix, '/' + long.join('/') + '/A.java'], [posix, '/home/Jürgen/[x]/100%/a#b;c\\d.java'],
  ];
  for (const [p, file] of paths) {
    assert.equal(p.toPath(p.toUri(file)), file, file);
    assert.equal(p.toUri(p.toPath(p.toUri(file))), p.toUri(file));
  }
  assert.ok(win.toUri('C:\\' + long.join('\\') + '\\A.java').length > 260);
});

test('canonical paths: backslashes and slashes, .. and trailing separators, drive case, the \\\\?\\ long-path prefix', () => {
  assert.equal(win.canonical('c:/Users\\Dev//shop\\.\\src\\..\\'), 'C:\\Users\\Dev\\shop');
  const long = 'C:\\' + 'x'.repeat(120) + '\\' + 'y'.repeat(120) + '\\' + 'z'.repeat(40) + '\\A.java';
  assert.equal(win.canonical('\\\\?\\' + long), long);
  assert.equal(win.canonical('\\\\?\\UNC\\server\\share\\A.java'), '\\\\server\\share\\A.java');
  for (const bad of ['\\\\.\\PhysicalDrive0', 'C:secret.java', '\\secret.java', 'src\\A.java']) assert.throws(() => win.canonical(bad), PathError, bad);
  assert.equal(posix.canonical('/home//dev/./shop/src/../'), '/home/dev/shop');
  assert.throws(() => posix.canonical('home/dev'), PathError);
  assert.equal(win.resolve('C:\\ws', 'src\\a\\A.java'), 'C:\\ws\\src\\a\\A.java');
  assert.equal(win.resolve('C:\\ws', 'src/a/A.java'), 'C:\\ws\\src\\a\\A.java');
  assert.equal(posix.resolve('/ws', 'src/a/A.java'), '/ws/src/a/A.java');
});

test('case: folded where the folder is case-insensitive (injected), exact where it is not; detected on disk here', () => {
  assert.ok(win.inside('C:\\Users\\Dev\\shop', 'C:\\users\\dev\\SHOP\\src\\A.java'));
  assert.ok(!winSensitive.inside('C:\\Users\\Dev\\shop', 'C:\\users\\dev\\SHOP\\src\\A.java'));
  assert.ok(winSensitive.inside('C:\\Users\\Dev\\shop', win.canonical('c:\\Users\\Dev\\shop\\A.java')), 'the drive letter never depends on case');
  assert.ok(winSensitive.inside('\\\\Server\\Share\\shop', '\\\\server\\share\\shop\\A.java'), 'nor a UNC server and share');
  assert.ok(mac.inside('/Users/dev/shop', '/users/dev/Shop/A.java'));
  assert.ok(!posix.inside('/Users/dev/shop', '/users/dev/Shop/A.java'));
  assert.ok(win.same('C:\\ws', 'C:\\ws\\Src\\A.java', 'C:\\ws\\src\\a.java'));
  assert.ok(!posix.same('/ws', '/ws/Src/A.java', '/ws/src/A.java'));
  // Lower-casing changes the length of some strings: the comparison is per component, not a prefix.
  assert.equal('İ'.toLowerCase().length, 2);
  assert.equal(win.relativeInside('C:\\İstanbul', 'C:\\i̇stanbul\\Src\\A.java'), 'Src\\A.java');
  assert.equal(win.relativeInside('C:\\İstanbul', 'C:\\i̇stanbulx\\A.java'), undefined);
  const dir = tempDir('needle-Case-');
  // This machine's file systems: ext4/tmpfs on Linux tell the two spellings apart.
  if (process.platform === 'linux') assert.equal(detectCaseInsensitive(dir), false);
  mkdirSync(path.join(dir, 'Mixed'));
  assert.equal(new FilePaths(path, detectCaseInsensitive).caseInsensitiveAt(path.join(dir, 'Mixed')), detectCaseInsensitive(path.join(dir, 'Mixed')));
});

const ROOT_WIN = 'C:\\Users\\dev\\shop';
const ROOT_POSIX = '/home/dev/shop';

/** Probes that must land outside the folder: as URIs and as the file arguments of the CLI and MCP. */
const WINDOWS_URI_PROBES = [
  'file:///c%3A/Users/dev/shop/../secret/A.java',
  'file:///c%3A/Users/dev/shop/src/..\\..\\..\\secret.java',
  'file:///c%3A/Users/dev/shop/%2e%2e/secret.java',
  'file:///c%3A/Users/dev/shop/..%5C..%5Csecret.java',
  'file:///d%3A/Users/dev/shop/src/A.java',
  'file://server/share/Users/dev/shop/src/A.java',
  'file://c%3A/Users/dev/shop/A.java',
  'file:///c%3A/Users/dev/SHOP~1/src/A.java',
  'file:///c%3A/Users/dev/shop/SRC~1/A.java',
  'file:///c%3A/Users/dev/shop/src/MAIN~12.JAV',
  'file:///c%3A/Users/dev/shopping/A.java',
  'file:///c%3A/Users/dev/shop%2F..%2Fsecret.java',
];
const WINDOWS_FILE_PROBES = [
  '..\\secret.java', 'src\\..\\..\\secret.java', '..\\shop-other\\A.java', 'D:\\shop\\A.java', 'd:secret.java', '\\secret.java',
  '\\\\server\\share\\shop\\A.java', '\\\\?\\C:\\Users\\dev\\secret.java', '\\\\?\\UNC\\server\\share\\A.java', '\\\\.\\C:\\Users\\dev\\shop\\A.java',
  'PROGRA~1\\A.java', 'src\\MAIN~1\\A.java', 'C:\\Users\\dev\\SHOP~1\\A.java', '..\\SHOP~1\\A.java',
];
const POSIX_URI_PROBES = [
  'file:///home/dev/shop/../secret/A.java', 'file:///home/dev/shop/%2e%2e/secret.java', 'file:///home/dev/shop/..%2Fsecret.java',
  'file:///home/dev/shopping/A.java', 'file://server/home/dev/shop/A.java', 'file:///etc/passwd',
];
const POSIX_FILE_PROBES = ['../secret.java', 'src/../../secret.java', '/etc/passwd', '../shop-other/A.java', '/home/dev/shopping/A.java'];

/** Where a probe ends up: the path inside the folder, or undefined (refused). */
function landing(p: FilePaths, root: string, probe: string, kind: 'uri' | 'file'): string | undefined {
  try {
    const abs = kind === 'uri' ? p.toPath(probe) : p.resolve(root, probe);
    return p.relativeInside(root, abs);
  } catch (e) {
    assert.ok(e instanceof PathError, `${probe}: ${(e as Error).message}`);
    return undefined;
  }
}

test('confinement with Windows-style traversal: .., ..\\, other drives, UNC, device and long-path prefixes, 8.3 short names: all refused', () => {
  for (const p of [win, winSensitive]) {
    for (const u of WINDOWS_URI_PROBES) assert.equal(landing(p, ROOT_WIN, u, 'uri'), undefined, u);
    for (const f of WINDOWS_FILE_PROBES) assert.equal(landing(p, ROOT_WIN, f, 'file'), undefined, f);
    // The controls: inside, spelled as a Windows client may.
    assert.equal(landing(p, ROOT_WIN, 'file:///c%3A/Users/dev/shop/src/A.java', 'uri'), 'src\\A.java');
    assert.equal(landing(p, ROOT_WIN, 'src/main/../A.java', 'file'), 'src\\A.java');
    assert.equal(landing(p, ROOT_WIN, 'c:\\Users\\dev\\shop\\A.java', 'file'), 'A.java');
  }
  for (const u of POSIX_URI_PROBES) assert.equal(landing(posix, ROOT_POSIX, u, 'uri'), undefined, u);
  for (const f of POSIX_FILE_PROBES) assert.equal(landing(posix, ROOT_POSIX, f, 'file'), undefined, f);
  // On POSIX a tilde is an ordinary character: PROGRA~1 is a real name there.
  assert.equal(landing(posix, ROOT_POSIX, 'PROGRA~1/A.java', 'file'), 'PROGRA~1/A.java');
  assert.equal(landing(posix, ROOT_POSIX, 'file:///home/dev/shop/src/A.java', 'uri'), 'src/A.java');
});

test('confinement through the service: an indexer with Windows paths refuses every probe URI before reading anything', async () => {
  const ix = new Indexer({ cacheDir: null, paths: win });
  await ix.addFolder(ROOT_WIN); // no such folder on this machine: indexed empty, its root still known
  const ask = (uri: string) => retrieveAt(ix, { textDocument: { uri }, position: { line: 0, character: 0 } }, defaultSettings());
  for (const uri of WINDOWS_URI_PROBES) {
    await assert.rejects(ask(uri), (e: Error) => e instanceof InvalidRequest && /outside every workspace folder|malformed URI|not an absolute/.test(e.message), uri);
  }
  // The control passes confinement and fails only at reading (the file is not on this disk).
  await assert.rejects(ask('file:///c%3A/users/DEV/shop/src/A.java'), (e: Error) => e instanceof InvalidRequest && /^cannot read C:\\users\\DEV\\shop\\src\\A\.java/.test(e.message));
});

test('case-insensitive folder: a request spelled in another case finds the indexed file', async () => {
  const dir = tempDir('needle-case-');
  mkdirSync(path.join(dir, 'src', 'Shop'), { recursive: true });
  writeFileSync(path.join(dir, 'src', 'Shop', 'Cart.java'), 'package shop;\n\npublic class Cart {\n  int total() {\n    return 0;\n  }\n}\n');
  // This file system is case-sensitive, so the spelling the client sends is read through the indexed one.
  const ix = new Indexer({ cacheDir: null, paths: new FilePaths(path.posix, () => true) });
  await ix.addFolder(dir);
  const indexed = path.join(dir, 'src', 'Shop', 'Cart.java');
  assert.equal(ix.spelledAsIndexed(path.join(dir, 'SRC', 'shop', 'CART.java')), indexed);
  const r = await retrieveAt(ix, { textDocument: { uri: 'file://' + path.join(dir, 'SRC', 'shop', 'CART.java') }, position: { line: 4, character: 4 } }, defaultSettings());
  assert.ok(r.items.some((i) => i.uri === 'file://' + indexed), JSON.stringify(r.items.map((i) => i.uri)));
  const exact = new Indexer({ cacheDir: null, paths: new FilePaths(path.posix, () => false) });
  await exact.addFolder(dir);
  assert.equal(exact.spelledAsIndexed(path.join(dir, 'SRC', 'shop', 'CART.java')), path.join(dir, 'SRC', 'shop', 'CART.java'));
});
