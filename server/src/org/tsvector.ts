// `to_tsvector('simple', words)` computed here, for the search words publish makes (lower-case
// identifiers and their parts, separated by spaces), so rows can travel by COPY, which cannot call
// a function. Only words whose tokens PostgreSQL's default parser is known to read as this module
// does are done here; for any other the caller lets the server compute it (undefined).
//
// The parser, for text made of [a-z0-9_$ ]: '_', '$' and ' ' separate tokens and take no position;
// a run of [a-z0-9] that starts with a letter is one token (asciiword, numword: `utf8`, `x1e5`), and
// so is a run of digits (uint: `007`); a run that starts with a digit and holds letters may split
// (`1e5x` is `1e5` then `x`), so it is left to the server. Each token takes the next position from
// 1; past position 16383, 255 positions of one lexeme, or a token over 2047 bytes (where the
// server clamps, truncates or drops) it is left to the server too. test/org/tsvector.test.ts compares with PGlite.

const MAX_POSITION = 16383;
const MAX_POSITIONS_PER_LEXEME = 255;
const MAX_LEXEME = 2047;

/** The text form of to_tsvector('simple', words) (lexemes in order of first position), or undefined where the server must compute it. */
export function simpleTsvector(words: string): string | undefined {
  const positions = new Map<string, number[]>();
  let position = 0;
  const n = words.length;
  for (let i = 0; i < n;) {
    const c = words.charCodeAt(i);
    if (c === 32 || c === 95 || c === 36) { i++; continue; }
    const letter = c >= 97 && c <= 122;
    if (!letter && !(c >= 48 && c <= 57)) return undefined;
    let j = i + 1;
    for (; j < n; j++) {
      const d = words.charCodeAt(j);
      if (d >= 97 && d <= 122) { if (!letter) return undefined; continue; }
      if (d >= 48 && d <= 57) continue;
      break;
    }
    if (j - i > MAX_LEXEME) return undefined;
    const lexeme = words.slice(i, j);
    if (++position > MAX_POSITION) return undefined;
    const list = positions.get(lexeme);
    if (!list) positions.set(lexeme, [position]);
    else if (list.length >= MAX_POSITIONS_PER_LEXEME) return undefined;
    else list.push(position);
    i = j;
  }
  let out = '';
  for (const [lexeme, at] of positions) out += `${out ? ' ' : ''}'${lexeme}':${at.join(',')}`;
  return out;
}
