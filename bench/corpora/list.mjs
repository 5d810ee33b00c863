// The benchmark corpora: Debian source packages of real Java nobody on the team wrote, of different
// styles. fetch.mjs downloads them; the benchmarks take their default corpus lists from here.
//
// sourceRoot: the main source root inside the upstream tree, where it is not the shallowest src/main/java.
// pruneUncompilable: remove the files javac cannot compile against the JDK alone (they need
//   third-party jars the corpus does not ship), so that the oracle's gold is complete for the rest.
// heldOut: kept back from all tuning and development runs; looked at only when closing an issue.
// checkerOnly: a development corpus of check_code (bench/check.bench.ts) only, never of retrieval or
//   gate fits. Guava: its bodies are generics- and nesting-heavy (inherited member types such as
//   Map.Entry, varargs factories, deep nested classes). javac reports only its annotation imports
//   (jsr305, checker-qual, error-prone, j2objc) as errors; every method body attributes.
export const DEBIAN_CORPORA = {
  'commons-lang3': { pkg: 'libcommons-lang3-java', style: 'utility library' },
  jsoup: { pkg: 'libjsoup-java', style: 'HTML parser and DOM' },
  ant: { pkg: 'ant', sourceRoot: 'src/main', pruneUncompilable: true, style: 'application with its own task framework' },
  'antlr4-runtime': { pkg: 'antlr4', sourceRoot: 'runtime/Java/src', style: 'parser runtime (ATN interpreter, DFA; compiler-like)' },
  'commons-collections4': { pkg: 'libcommons-collections4-java', style: 'collections library, generics-heavy' },
  guava: { pkg: 'guava-libraries', sourceRoot: 'guava/src', checkerOnly: true, style: 'collections and utilities, Guava generics and nesting' },
  'jackson-core': { pkg: 'jackson-core', heldOut: true, style: 'streaming JSON parser' },
  'commons-io': { pkg: 'commons-io', heldOut: true, style: 'I/O utility library' },
};

/** Corpora used while developing and fitting (validation splits) and reported on (test splits). */
export const DEVELOPMENT_CORPORA = Object.keys(DEBIAN_CORPORA).filter((n) => !DEBIAN_CORPORA[n].heldOut && !DEBIAN_CORPORA[n].checkerOnly);
/** Corpora check_code is measured on: the development ones and the checker-only ones. */
export const CHECKER_CORPORA = Object.keys(DEBIAN_CORPORA).filter((n) => !DEBIAN_CORPORA[n].heldOut);
/** The held-out pair: run only when closing. */
export const HELD_OUT_CORPORA = Object.keys(DEBIAN_CORPORA).filter((n) => DEBIAN_CORPORA[n].heldOut);
/** Corpora that bench/corpora/inject.mjs renames into a synthetic organisation's private API (RCL §5). */
export const INJECTED_CORPORA = ['commons-lang3-injected', 'jsoup-injected'];
