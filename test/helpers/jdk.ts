// Builds jars for the dependency tests with the machine's JDK (javac, jar). Without a JDK the
// tests skip, naming the Debian package, unless CI is set, where they fail.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { tempDir } from './tempDir';

const JDK_PACKAGE = 'openjdk-17-jdk-headless';

function onPath(name: string): string | undefined {
  for (const d of (process.env.PATH ?? '').split(delimiter)) if (d && existsSync(join(d, name))) return join(d, name);
  return undefined;
}

/** A skip message when javac or jar is missing (and CI is not set), else undefined. */
export function jdkMissing(): string | undefined {
  if (onPath('javac') && onPath('jar')) return undefined;
  const msg = `javac and jar are needed (Debian package ${JDK_PACKAGE})`;
  if (process.env.CI) throw new Error(msg);
  return msg;
}

/** Writes sources (path relative to a fresh folder -> text), compiles them, returns the classes folder. */
export function compile(sources: Record<string, string>, javacArgs: string[] = [], classpath: string[] = []): string {
  const root = tempDir('needle-javac-');
  const src = join(root, 'src');
  const out = join(root, 'classes');
  mkdirSync(out, { recursive: true });
  const paths: string[] = [];
  for (const [rel, text] of Object.entries(sources)) {
    const p = join(src, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
    paths.push(p);
  }
  const cp = classpath.length ? ['-cp', classpath.join(delimiter)] : [];
  execFileSync('javac', ['-d', out, ...cp, ...javacArgs, ...paths], { stdio: 'pipe' });
  return out;
}

/** Packages a folder's content into a jar. */
export function jarOf(folder: string, jarPath: string): string {
  mkdirSync(dirname(jarPath), { recursive: true });
  execFileSync('jar', ['cf', jarPath, '-C', folder, '.'], { stdio: 'pipe' });
  return jarPath;
}

/** Writes sources into a folder and jars them as a `-sources.jar`. */
export function sourcesJarOf(sources: Record<string, string>, jarPath: string): string {
  const root = tempDir('needle-src-');
  for (const [rel, text] of Object.entries(sources)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return jarOf(root, jarPath);
}
