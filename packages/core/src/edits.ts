/**
 * Minimal byte-range edits to a user's markdown (SPEC §8.4): nothing is re-serialised, so line
 * endings, a BOM, trailing whitespace and a missing final newline all survive. Offsets are UTF-16
 * offsets into the decoded text *including* a leading BOM if the file has one.
 */

/** Replace `[start, end)` with `text`; `start === end` is an insertion. */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** The result of applying edits. */
export interface AppliedEdits {
  readonly text: string;
  /** Where each edit landed in the output, in input order. */
  readonly ranges: readonly { readonly start: number; readonly end: number }[];
}

/**
 * Applies non-overlapping edits, back to front. Throws on overlapping or out-of-range edits,
 * which would otherwise corrupt the user's file.
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): AppliedEdits {
  const order = edits.map((edit, index) => ({ edit, index })).sort((a, b) => a.edit.start - b.edit.start || a.index - b.index);
  for (let at = 0; at < order.length; at += 1) {
    const { edit } = order[at] as { edit: TextEdit };
    if (edit.start < 0 || edit.end < edit.start || edit.end > text.length) {
      throw new RangeError(`edit [${edit.start}, ${edit.end}) is outside the text (length ${text.length})`);
    }
    const next = order[at + 1];
    if (next !== undefined && next.edit.start < edit.end) {
      throw new RangeError(`edits [${edit.start}, ${edit.end}) and [${next.edit.start}, ${next.edit.end}) overlap`);
    }
  }
  let out = '';
  let cursor = 0;
  let shift = 0;
  const ranges = new Array<{ start: number; end: number }>(edits.length);
  for (const { edit, index } of order) {
    out += text.slice(cursor, edit.start) + edit.text;
    const start = edit.start + shift;
    ranges[index] = { start, end: start + edit.text.length };
    shift += edit.text.length - (edit.end - edit.start);
    cursor = edit.end;
  }
  out += text.slice(cursor);
  return { text: out, ranges };
}

/**
 * Reverses pure insertions: removes the inserted ranges from the output. Used by property tests
 * and by `annotate` to prove that the original bytes come back exactly.
 */
export function removeInsertions(text: string, ranges: readonly { readonly start: number; readonly end: number }[]): string {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  let out = '';
  let cursor = 0;
  for (const range of sorted) {
    out += text.slice(cursor, range.start);
    cursor = range.end;
  }
  return out + text.slice(cursor);
}
