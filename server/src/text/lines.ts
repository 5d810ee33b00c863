// Line bookkeeping for whole-text scans: where each line starts, and the line of an offset.
// Shared by the vetting detectors (one regex over the whole text, then the line of each match)
// and the text-file chunkers.

/**
 * Every line break as '\n': CRLF (Windows checkouts) and a lone CR (which LSP clients count as a
 * line break too) become LF, at the edge where text enters the server (file reads, open documents),
 * so the index, line numbers and retrieved text are those of the LF file. Columns do not move: a
 * CR only ever stands at the end of a line.
 */
export function normalizeLineEndings(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

export class TextLines {
  readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  get count(): number {
    return this.starts.length;
  }

  /** Offset just past the last character of a line, before its '\n'. */
  lineEnd(line: number): number {
    return line + 1 < this.starts.length ? this.starts[line + 1] - 1 : this.text.length;
  }

  lineText(line: number): string {
    return this.text.slice(this.starts[line], this.lineEnd(line));
  }

  /** 0-based line containing an offset (binary search; clamped to the text). */
  lineOf(offset: number): number {
    if (!(offset > 0)) return 0;
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

let lastText: string | undefined;
let lastLines: readonly string[] = [];

/**
 * `text.split(/\r?\n/)`, remembered for the last text asked: the gate reads the cursor's file
 * several times per request (its scenario, its body, the blocks open at the cursor, once per
 * follow-up round), and splitting a large file was a measurable share of its time. The array is
 * shared: callers slice it, never change it.
 */
export function linesOf(text: string): readonly string[] {
  if (text !== lastText) { lastLines = text.split(/\r?\n/); lastText = text; }
  return lastLines;
}
