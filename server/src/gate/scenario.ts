// Which scenario the gate judges, told apart from the text at the cursor (no request flag):
//   new-body       the body is empty, only comments, or a stub (`throw new UnsupportedOperationException()`);
//   partial-body   the cursor sits at the end of what is written: after it only blanks and closing braces;
//   existing-body  written code follows the cursor (an edit inside a method), or the cursor is on the
//                  signature of a written method (lenses, hovers and diagnostics ask there);
//   outside-method the cursor is not in a method or constructor.
// What is written is resolved by the index and enters D̂(q) as certain; only the rest is estimated.

import type { Position, Scenario } from '../../../shared/protocol';
import type { Target } from '../retrieval/request';
import { codeOnly } from '../java/lexer';
import { linesOf } from '../text/lines';

export interface ScenarioJudgement {
  scenario: Scenario;
  /** Why, for the result and the review reasons. */
  why: string;
  /** Non-blank code lines of the body (comments and braces-only lines excluded). */
  writtenLines: number;
  /** The method's brackets balance and its strings close (false: it does not parse as written). */
  parses: boolean;
}

/** Exceptions a placeholder body throws. */
const STUB_THROW = /^throw\s+new\s+(?:[\w.]*\.)?(?:UnsupportedOperationException|NotImplementedException|AssertionError|IllegalStateException|RuntimeException|Error)\s*\([^;]*\)\s*;$/;

/** Whether (), [] and {} of code (comments and strings removed) nest and close. */
export function bracketsBalance(code: string): boolean {
  const stack: string[] = [];
  const open: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  for (const c of code) {
    if (c === '(' || c === '[' || c === '{') stack.push(c);
    else if (c in open) { if (stack.pop() !== open[c]) return false; }
  }
  return stack.length === 0;
}

function isMethod(target: Target | undefined): target is Target {
  return !!target && (target.ref.sym.kind === 'method' || target.ref.sym.kind === 'constructor');
}

/**
 * The scenario of a request. `text` is the target's file as the editor has it; `position` the
 * cursor (0-based); `fileHasErrors` whether the file parsed with errors. Never throws on malformed code.
 */
export function judgeScenario(text: string | undefined, target: Target | undefined, position: Position, fileHasErrors = false): ScenarioJudgement {
  if (!target && fileHasErrors) {
    // A syntax error can leave no declaration to read at all: code being written, not "no method".
    return { scenario: 'partial-body', why: 'the method does not parse: the code at the cursor has syntax errors and no method can be read there', writtenLines: 0, parses: false };
  }
  if (!isMethod(target)) {
    return { scenario: 'outside-method', why: 'the cursor is not inside a method or constructor', writtenLines: 0, parses: true };
  }
  const span = target.ref.sym.span;
  const decl = linesOf(text ?? '').slice(span.sl, span.el + 1);
  if (decl.length === 0) return { scenario: 'new-body', why: 'the method text is not available', writtenLines: 0, parses: true };
  // Column offsets of the span's first and last lines, so the text is exactly the declaration.
  decl[decl.length - 1] = decl[decl.length - 1].slice(0, span.ec);
  decl[0] = decl[0].slice(span.sc);
  const whole = decl.join('\n');
  const { code, closed } = codeOnly(whole);
  const parses = closed && bracketsBalance(code);
  // The body: from the first '{' after the parameter list (annotations may hold braces before it).
  const paren = code.indexOf('(');
  const open = code.indexOf('{', paren >= 0 ? matchingParen(code, paren) : 0);
  if (open < 0) return { scenario: 'new-body', why: 'the method has no body yet', writtenLines: 0, parses };
  const close = parses ? code.lastIndexOf('}') : code.length;
  const body = code.slice(open + 1, close > open ? close : code.length);
  const statements = body.trim();
  const writtenLines = body.split('\n').filter((l) => /[^\s{}]/.test(l)).length;
  if (statements === '') {
    return { scenario: 'new-body', why: whole.slice(open + 1).trim().replace(/}\s*$/, '').trim() ? 'the body holds only comments' : 'the body is empty', writtenLines: 0, parses };
  }
  if (STUB_THROW.test(statements.replace(/\s+/g, ' '))) return { scenario: 'new-body', why: 'the body is a placeholder that throws', writtenLines, parses };
  if (!parses) return { scenario: 'partial-body', why: 'the method does not parse as written (unbalanced brackets or an unclosed string or comment)', writtenLines, parses };

  // Offset of the cursor within the declaration text.
  const rel = position.line - span.sl;
  if (rel < 0 || rel >= decl.length) return { scenario: 'existing-body', why: 'a complete method, judged from outside its body', writtenLines, parses };
  let at = 0;
  for (let i = 0; i < rel; i++) at += decl[i].length + 1;
  at += Math.max(0, rel === 0 ? position.character - span.sc : position.character);
  if (at <= open) return { scenario: 'existing-body', why: 'a complete method (the cursor is on its declaration)', writtenLines, parses };
  const after = code.slice(Math.min(at, code.length), close);
  if (/^[\s}]*$/.test(after)) return { scenario: 'partial-body', why: 'the cursor is at the end of a body being written', writtenLines, parses };
  return { scenario: 'existing-body', why: 'written code follows the cursor (an edit inside a complete method)', writtenLines, parses };
}

/** Index just after the parenthesis matching the one at `i` (end of text when unmatched). */
function matchingParen(code: string, i: number): number {
  let depth = 0;
  for (let j = i; j < code.length; j++) {
    if (code[j] === '(') depth++;
    else if (code[j] === ')' && --depth === 0) return j + 1;
  }
  return code.length;
}

/** Whether a method's body, as written in `text`, holds no code at all (`{}` or only blanks; comments count as code to write around). */
export function bodyIsEmpty(text: string, span: { sl: number; sc: number; el: number; ec: number }): boolean {
  const lines = text.split(/\r?\n/).slice(span.sl, span.el + 1);
  if (!lines.length) return false;
  lines[lines.length - 1] = lines[lines.length - 1].slice(0, span.ec);
  lines[0] = lines[0].slice(span.sc);
  const decl = lines.join('\n');
  const paren = decl.indexOf('(');
  const open = decl.indexOf('{', paren >= 0 ? matchingParen(decl, paren) : 0);
  const close = decl.lastIndexOf('}');
  return open >= 0 && close > open && decl.slice(open + 1, close).trim() === '';
}
