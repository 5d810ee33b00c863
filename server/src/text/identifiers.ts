// Splitting identifiers into lower-case word parts: `parseHTTPResponse2` -> parse, http, response, 2.
// Used by description search, the re-rank, and novelty, so they all agree on what a "word" is.

const PART = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;

export function splitIdentifier(name: string): string[] {
  const out: string[] = [];
  for (const piece of name.split(/[^A-Za-z0-9]+/)) {
    if (!piece) continue;
    const m = piece.match(PART);
    if (m) for (const p of m) out.push(p.toLowerCase());
  }
  return out;
}

const IDENT = /[A-Za-z_$][A-Za-z0-9_$]*/g;

/** Every Java-like identifier in a text, in order of appearance (duplicates kept). */
export function identifiersIn(text: string): string[] {
  return text.match(IDENT) ?? [];
}

/** Word parts of every identifier in a text. */
export function identifierParts(text: string): string[] {
  const out: string[] = [];
  for (const id of identifiersIn(text)) for (const p of splitIdentifier(id)) out.push(p);
  return out;
}

/**
 * Index of the next place from `from` on where `name` stands as a whole identifier (no identifier
 * character on either side), or -1. With `skipMembers`, an occurrence right after `.` (`x.name`,
 * a member access) does not count. An empty name stands nowhere: `indexOf('')` matches at every
 * index, past the end too, so a search for it would never end.
 */
export function identifierAt(text: string, name: string, from = 0, skipMembers = false): number {
  if (!name) return -1;
  const before = skipMembers ? /[\w$.]/ : /[\w$]/;
  for (let i = text.indexOf(name, from); i >= 0; i = text.indexOf(name, i + 1)) {
    if (!before.test(text[i - 1] ?? ' ') && !/[\w$]/.test(text[i + name.length] ?? ' ')) return i;
  }
  return -1;
}
