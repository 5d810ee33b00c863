// Stage 1 (The Needle and the Noise §4 (1)): goal/query construction, deterministic. From the cursor: the enclosing
// method and class (signature, Javadoc, parameter and return types, identifiers already in the
// body, nearby lines); from the optional task text: identifiers, quoted strings, error messages,
// failing-test names and file paths, all extracted in code. A short goal hint scopes pruning.

import type { PipelineRequest, Target } from './request';
import type { SymbolRef } from '../index/workspaceIndex';
import { identifiersIn, splitIdentifier } from '../text/identifiers';
import { docSummary, javadocLinks, javadocRefs, ownerType, typeNames, type DocLink } from './symbols';
import { isTypeKind } from '../java/symbols';

export interface Query {
  target?: Target;
  /** The cursor's enclosing method/constructor/field (if any) and type. */
  member?: SymbolRef;
  type?: SymbolRef;
  /** 0-based cursor line. */
  line: number;
  /** Identifiers written in the enclosing member's body (before and after the cursor). */
  bodyIdentifiers: string[];
  /** Identifiers in the signature (parameter and return types, names). */
  signatureIdentifiers: string[];
  /** Names linked or mentioned in the Javadoc. */
  javadocNames: string[];
  /** Structured {@link}/@see references of the Javadoc. */
  javadocRefs: DocLink[];
  /** Identifiers from the task text. */
  queryIdentifiers: string[];
  strings: string[];
  errors: string[];
  /** `FooTest.testBar` / `FooTest#testBar` -> { type, method }. */
  tests: { type: string; method?: string }[];
  paths: string[];
  /** Simple type names of parameters, return type, thrown types. */
  signatureTypes: string[];
  /** Lower-case word parts for description matching (method name, Javadoc, task text). */
  words: string[];
  /** Lines around the cursor (whole lines). */
  nearbyLines: string[];
  /** The enclosing member's text (the similar-code query). */
  memberText: string;
  /** A short deterministic context_focus_question (SWE-Pruner's Goal Hint). */
  goal: string;
  /** Identifiers that scope pruning (body, signature, Javadoc, task). */
  goalIdentifiers: Set<string>;
}

const JAVA_WORDS = new Set(('abstract assert boolean break byte case catch char class const continue default do double else enum extends final finally float for goto if implements import instanceof int interface long native new package private protected public return short static strictfp super switch synchronized this throw throws transient try void volatile while var record yield true false null').split(' '));
/** English function words and Javadoc tag words, left out of word matching (the query, the gate's name-matched members). */
export const STOP = new Set('the a an of to and or is are be in on for with by as at it its this that if not no from into when then else than which who return returns param throws null true false given specified'.split(' '));

export function isKeyword(id: string): boolean {
  return JAVA_WORDS.has(id);
}

/** Task text longer than this is cut: it is client input, and no useful task needs more. */
export const MAX_TASK_CHARS = 20_000;
/** Runs of non-space characters are cut to this length; no identifier, path or error is longer. */
export const MAX_WORD_CHARS = 256;

/** The task text with its size bounded, so the regexes below stay fast on hostile input. */
export function boundedTaskText(text: string): string {
  return text.slice(0, MAX_TASK_CHARS).replace(/\S{257,}/g, (w) => w.slice(0, MAX_WORD_CHARS));
}

/** Structured pieces of a free task text. */
export function parseTaskText(text: string): Pick<Query, 'queryIdentifiers' | 'strings' | 'errors' | 'tests' | 'paths'> {
  const strings: string[] = [];
  for (const m of text.matchAll(/"([^"\n]{2,200})"|'([^'\n]{3,200})'|`([^`\n]{2,200})`/g)) strings.push(m[1] ?? m[2] ?? m[3]);
  const paths: string[] = [];
  for (const m of text.matchAll(/(?:[\w.-]+\/)+[\w.-]+\.\w+|\b[\w-]+\.(?:java|xml|ya?ml|properties|json|gradle|md)\b/g)) paths.push(m[0]);
  const tests: { type: string; method?: string }[] = [];
  for (const m of text.matchAll(/\b([A-Z]\w*(?:Test|Tests|IT|Spec))(?:[.#](\w+))?/g)) tests.push({ type: m[1], method: m[2] });
  const errors: string[] = [];
  for (const m of text.matchAll(/\b((?:[a-z]\w*\.)*[A-Z]\w*(?:Exception|Error))(?::\s*([^\n]+))?/g)) {
    errors.push(m[1].slice(m[1].lastIndexOf('.') + 1));
    if (m[2]) strings.push(m[2].trim().slice(0, 200));
  }
  for (const m of text.matchAll(/\bat\s+((?:[\w$]+\.)+[\w$<>]+)\(/g)) {
    const parts = m[1].split('.');
    errors.push(parts[parts.length - 2] ?? '', parts[parts.length - 1]);
  }
  const queryIdentifiers = uniq(identifiersIn(text).filter((id) => id.length >= 3 && !JAVA_WORDS.has(id) && (/[A-Z_]/.test(id.slice(1)) || /^[A-Z]/.test(id) || /\d/.test(id))));
  return { queryIdentifiers, strings: uniq(strings), errors: uniq(errors.filter(Boolean)), tests, paths: uniq(paths) };
}

export function buildQuery(req: PipelineRequest): Query {
  const text = req.textOf(req.path) ?? '';
  const lines = text.split('\n');
  const { line, character } = req.position;
  const inner = req.index.enclosingSymbol(req.path, line, character);
  let member: SymbolRef | undefined;
  let type: SymbolRef | undefined;
  if (inner) {
    // Walk out to the nearest method/constructor/field that is not inside a local class, and its type.
    let r: SymbolRef | undefined = inner;
    while (r && isTypeKind(r.sym.kind) && (r.sym.local || r.sym.anonymous) && r.sym.parent >= 0) r = { file: r.file, index: r.sym.parent, sym: r.file.facts.symbols[r.sym.parent] };
    if (r && !isTypeKind(r.sym.kind)) member = r;
    type = r ? ownerType(r) : undefined;
  }
  const target: Target | undefined = member ? { ref: member, owner: type } : type ? { ref: type, owner: type } : undefined;

  const m = member?.sym;
  const bodyStart = m ? m.nameSpan.sl : 0;
  const bodyText = m ? lines.slice(bodyStart, m.span.el + 1).join('\n') : '';
  const bodyIdentifiers = uniq(identifiersIn(stripComments(bodyText)).filter((id) => !JAVA_WORDS.has(id)));
  const signatureTypes = uniq([
    ...(m?.params ?? []).flatMap((p) => typeNames(p.type)),
    ...typeNames(m?.returnType ?? (m?.kind === 'field' ? m.type : undefined)),
    ...(m?.throws ?? []).flatMap((t) => typeNames(t)),
  ]).filter((n) => !JAVA_WORDS.has(n));
  const signatureIdentifiers = uniq([...(m ? [m.name] : []), ...signatureTypes, ...(m?.params ?? []).map((p) => p.name)]);
  const javadocNames = uniq([...javadocLinks(m?.javadoc), ...identifiersIn(m?.javadoc ?? '').filter((id) => /[a-z][A-Z]|^[A-Z][a-z]+[A-Z]|_/.test(id))]);
  const taskText = req.query !== undefined ? boundedTaskText(req.query) : undefined;
  const task = taskText ? parseTaskText(taskText) : { queryIdentifiers: [], strings: [], errors: [], tests: [], paths: [] };

  const lo = Math.max(0, line - 3), hi = Math.min(lines.length - 1, line + 3);
  const nearbyLines = lines.slice(lo, hi + 1);

  const words = uniq([
    ...(m ? splitIdentifier(m.name) : []),
    ...(m?.params ?? []).flatMap((p) => [...splitIdentifier(p.name), ...typeNames(p.type).flatMap(splitIdentifier)]),
    ...(type ? splitIdentifier(type.sym.name) : []),
    ...proseWords(docSummary(m?.javadoc, 400)),
    ...(taskText ? proseWords(taskText) : []),
    ...bodyIdentifiers.flatMap(splitIdentifier),
  ]).filter((w) => w.length > 1 && !STOP.has(w));

  const goalIdentifiers = new Set([...bodyIdentifiers, ...signatureIdentifiers, ...javadocNames, ...task.queryIdentifiers, ...task.errors]);
  const what = m ? `${m.kind} ${type ? type.sym.name + '.' : ''}${m.name}(${(m.params ?? []).map((p) => p.type).join(', ')})` : type ? `type ${type.sym.name}` : 'this file';
  const goal = `What does the code at line ${line + 1} of ${what} need${taskText ? ` to address: ${taskText.replace(/\s+/g, ' ').slice(0, 120)}` : ''}?`;

  return {
    target, member, type, line, bodyIdentifiers, signatureIdentifiers, javadocNames, javadocRefs: javadocRefs(m?.javadoc),
    ...task, signatureTypes, words, nearbyLines,
    memberText: m ? lines.slice(m.span.sl, m.span.el + 1).join('\n') : nearbyLines.join('\n'),
    goal, goalIdentifiers,
  };
}

function proseWords(text: string): string[] {
  return identifiersIn(text).flatMap(splitIdentifier).filter((w) => w.length > 2 && !STOP.has(w));
}

export function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ');
}

function uniq<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
