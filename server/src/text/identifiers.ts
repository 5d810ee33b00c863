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
