// The one "require or skip" rule for tests that need a program this repository does not ship
// (an editor, a browser, a JDK): on a developer's machine a missing program skips the test with a
// message naming the Debian package that provides it; with `CI` set (`.ci/run`, which installs
// them all) the test runs and fails on the missing program instead.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface Prerequisite {
  /** What is needed, as a reader would name it (`nvim`, `eglot`, `code-server`). */
  what: string;
  /** How to get it: Debian package names, or the command that installs it. */
  install: string;
  /** Why it is unusable here, or undefined when it is usable. */
  problem(): string | undefined;
}

/** The absolute path of `name` on PATH, or undefined. */
export function onPath(name: string): string | undefined {
  for (const d of (process.env.PATH ?? '').split(delimiter)) {
    const p = join(d, name);
    if (d && existsSync(p)) return p;
  }
  return undefined;
}

/** An executable on PATH, provided by the given Debian package(s). */
export function executable(name: string, debianPackages: string): Prerequisite {
  return { what: name, install: `apt-get install ${debianPackages}`, problem: () => (onPath(name) ? undefined : `\`${name}\` is not on PATH`) };
}

/** A condition checked by running a probe command (exit status 0 = usable). */
export function probe(what: string, install: string, cmd: string, args: string[]): Prerequisite {
  return {
    what, install,
    problem: () => {
      const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 60_000 });
      if (r.error) return `${cmd}: ${r.error.message}`;
      return r.status === 0 ? undefined : `${cmd} ${args.join(' ')} exited ${r.status}`;
    },
  };
}

/** A file that some set-up step puts in place. */
export function file(what: string, install: string, path: string): Prerequisite {
  return { what, install, problem: () => (existsSync(path) ? undefined : `${path} is missing`) };
}

export interface Requirement {
  /** The `skip` option of `test`/`describe`: the reason when something is missing outside CI, else false. */
  skip: string | false;
  /** Fails (throws) with what is missing and how to install it; call it first in the test body. */
  assertPresent(): void;
}

/** Checks the prerequisites once, when the test file loads. */
export function requires(...prerequisites: Prerequisite[]): Requirement {
  const missing: string[] = [];
  for (const p of prerequisites) {
    const problem = p.problem();
    if (!problem) continue;
    missing.push(`${p.what} (${problem}; install: ${p.install})`);
    break; // later prerequisites may need this one (eglot is probed by running emacs)
  }
  const message = missing.length ? `needs ${missing.join(', ')}` : undefined;
  return {
    skip: message && !process.env.CI ? `skipped: ${message}` : false,
    assertPresent: () => { if (message) throw new Error(`${message}${process.env.CI ? ' — required because CI is set' : ''}`); },
  };
}

/** The JDK the javac oracle (bench/oracle) runs: javac and java, or NEEDLE_ORACLE_JAVA_HOME. */
export const JDK: Prerequisite = process.env.NEEDLE_ORACLE_JAVA_HOME
  ? file('a JDK in NEEDLE_ORACLE_JAVA_HOME', 'openjdk-17-jdk-headless', join(process.env.NEEDLE_ORACLE_JAVA_HOME, 'bin', 'javac'))
  : executable('javac', 'openjdk-17-jdk-headless');
