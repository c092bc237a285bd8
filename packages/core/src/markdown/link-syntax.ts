/** Link destinations and titles (CommonMark §6.3, https://spec.commonmark.org/0.31.2/#links). */

/**
 * Every function here reads `s` only in `[from, to)`: the inline phase parses a leaf in place in
 * the document text, so a character at or after `to` belongs to something else.
 */

/** Skips spaces and tabs and, when `lineEnding` is true, at most one line ending among them. */
export function skipWhitespace(s: string, from: number, lineEnding: boolean, to: number): number {
  let at = from;
  let seenLineEnding = !lineEnding;
  while (at < to) {
    const code = s.charCodeAt(at);
    if (code === 32 || code === 9) at += 1;
    else if (code === 10 && !seenLineEnding) {
      seenLineEnding = true;
      at += 1;
    } else break;
  }
  return at;
}

const isAsciiPunctuation = (code: number): boolean =>
  (code >= 33 && code <= 47) || (code >= 58 && code <= 64) || (code >= 91 && code <= 96) || (code >= 123 && code <= 126);

export { isAsciiPunctuation };

/**
 * A link destination at `from`: `<…>` without line endings or unescaped `<`/`>`, or a run without
 * spaces or controls whose parentheses balance (nested at most `depth` deep). Returns the offset after
 * it (equal to `from` for an empty raw destination), or -1.
 */
export function parseDestination(s: string, from: number, depth: number, to: number): number {
  if (from < to && s.charCodeAt(from) === 60 /* < */) {
    let at = from + 1;
    while (at < to) {
      const code = s.charCodeAt(at);
      if (code === 62) return at + 1;
      if (code === 60 || code === 10) return -1;
      if (code === 92 && at + 1 < to && isAsciiPunctuation(s.charCodeAt(at + 1))) at += 2;
      else at += 1;
    }
    return -1;
  }
  let at = from;
  let open = 0;
  while (at < to) {
    const code = s.charCodeAt(at);
    if (code <= 32 || code === 127) break;
    if (code === 92 && at + 1 < to && isAsciiPunctuation(s.charCodeAt(at + 1))) {
      at += 2;
      continue;
    }
    if (code === 40) {
      open += 1;
      if (open > depth) return -1;
    } else if (code === 41) {
      if (open === 0) break;
      open -= 1;
    }
    at += 1;
  }
  return open === 0 ? at : -1;
}

/** A link title `"…"`, `'…'` or `(…)` at `from`; returns the offset after it, or -1. */
export function parseTitle(s: string, from: number, to: number): number {
  if (from >= to) return -1;
  const open = s.charCodeAt(from);
  const close = open === 40 ? 41 : open;
  if (open !== 34 && open !== 39 && open !== 40) return -1;
  let at = from + 1;
  while (at < to) {
    const code = s.charCodeAt(at);
    if (code === close) return at + 1;
    if (code === 92 && at + 1 < to && isAsciiPunctuation(s.charCodeAt(at + 1))) at += 2;
    else if (open === 40 && code === 40) return -1;
    else if (code === 10 && at + 1 < to && (s.charCodeAt(at + 1) === 10 || blankLineAt(s, at + 1, to))) return -1;
    else at += 1;
  }
  return -1;
}

function blankLineAt(s: string, from: number, to: number): boolean {
  let at = from;
  while (at < to && (s.charCodeAt(at) === 32 || s.charCodeAt(at) === 9)) at += 1;
  return at >= to || s.charCodeAt(at) === 10;
}
