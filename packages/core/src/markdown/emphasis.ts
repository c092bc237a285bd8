/**
 * Emphasis, strong emphasis and GFM strikethrough, as micromark resolves them (CommonMark §6.2,
 * https://spec.commonmark.org/0.31.2/#emphasis-and-strong-emphasis; micromark's attention and
 * micromark-extension-gfm-strikethrough). They change no character's standing as prose, but every
 * delimiter they use ends a text node, and the GFM address transform runs over text nodes one by
 * one: `www.e.com/a*b c*` links `www.e.com/a` only. So the inline phase asks for the used
 * delimiters only when a leaf holds an address the transform could link.
 */

const ASTERISK = 42;
const UNDERSCORE = 95;
const TILDE = 126;

const UNICODE_PUNCTUATION = /[\p{P}\p{S}]/u;
const UNICODE_WHITESPACE = /\s/u;

/**
 * micromark's classifyCharacter: 1 whitespace (and the ends of the leaf `[from, to)`), 2 punctuation,
 * 0 other. micromark reads UTF-16 units, so a character outside the BMP (an emoji) counts as other.
 */
function classify(s: string, at: number, from: number, to: number): number {
  if (at < from || at >= to) return 1;
  const code = s.charCodeAt(at);
  if (code === 32 || code === 9 || code === 10 || code === 13) return 1;
  if (code < 128) {
    const isPunctuation =
      (code >= 33 && code <= 47) || (code >= 58 && code <= 64) || (code >= 91 && code <= 96) || (code >= 123 && code <= 126);
    return isPunctuation ? 2 : 0;
  }
  const char = String.fromCharCode(code);
  if (UNICODE_WHITESPACE.test(char)) return 1;
  return UNICODE_PUNCTUATION.test(char) ? 2 : 0;
}

/** One delimiter run; `at` and `size` shrink as its markers are used. */
interface Run {
  at: number;
  size: number;
  readonly char: number;
  readonly open: boolean;
  readonly close: boolean;
}

/** Where a leaf's delimiter runs stand: in the leaf's own text, or inside a link's or an image's text. */
export interface DelimiterScope {
  /** Flattened `[start, end)` ranges that hold no delimiter (code spans, HTML, destinations, autolinks…). */
  readonly blocked: readonly number[];
  /** Offsets of backslash-escaped characters. */
  readonly escapes: ReadonlySet<number>;
  /** Flattened `[start, end)` ranges of link texts and image descriptions, resolved apart from the leaf. */
  readonly spans: readonly number[];
}

/**
 * The delimiter characters of the leaf `s[from, to)` that micromark uses as emphasis, strong or
 * strikethrough markers outside link texts, as flattened `[start, end)` ranges.
 */
export function usedDelimiters(s: string, from: number, to: number, scope: DelimiterScope): number[] {
  const blocked = sortedPairs(scope.blocked);
  const spans = sortedPairs(scope.spans);
  const top: Run[] = [];
  let firstAttention = -1;
  let firstTilde = -1;
  let blockIndex = 0;
  let spanIndex = 0;
  for (let at = from; at < to; ) {
    while (blockIndex < blocked.length && (blocked[blockIndex] as [number, number])[1] <= at) blockIndex += 1;
    const block = blocked[blockIndex];
    if (block !== undefined && block[0] <= at) {
      at = block[1];
      continue;
    }
    const code = s.charCodeAt(at);
    if ((code !== ASTERISK && code !== UNDERSCORE && code !== TILDE) || scope.escapes.has(at)) {
      at += 1;
      continue;
    }
    let end = at + 1;
    const limit = block === undefined ? to : block[0];
    while (end < limit && s.charCodeAt(end) === code && !scope.escapes.has(end)) end += 1;
    const size = end - at;
    const start = at;
    at = end;
    // A run of three or more tildes is no strikethrough sequence at all (micromark: data).
    if (code === TILDE && size > 2) continue;
    if (code === TILDE) {
      if (firstTilde === -1) firstTilde = start;
    } else if (firstAttention === -1) firstAttention = start;
    while (spanIndex < spans.length && (spans[spanIndex] as [number, number])[1] <= start) spanIndex += 1;
    const span = spans[spanIndex];
    if (span !== undefined && span[0] <= start) continue;
    const before = classify(s, start - 1, from, to);
    const after = classify(s, end, from, to);
    let open: boolean;
    let close: boolean;
    if (code === TILDE) {
      open = after === 0 || (after === 2 && before !== 0);
      close = before === 0 || (before === 2 && after !== 0);
    } else {
      // `~` around `*` or `_` loosens flanking (micromark's attention markers).
      const looseOpen = after === 0 || (after === 2 && before !== 0) || (end < to && s.charCodeAt(end) === TILDE);
      const looseClose = before === 0 || (before === 2 && after !== 0) || (start > from && s.charCodeAt(start - 1) === TILDE);
      open = code === ASTERISK ? looseOpen : looseOpen && (before !== 0 || !looseClose);
      close = code === ASTERISK ? looseClose : looseClose && (after !== 0 || !looseOpen);
    }
    top.push({ at: start, size, char: code, open, close });
  }
  const used: number[] = [];
  // micromark runs the resolver of whichever construct it met first; inside spans, attention first.
  const tildeFirst = firstTilde !== -1 && (firstAttention === -1 || firstTilde < firstAttention);
  resolve(top, used, tildeFirst);
  return used;
}

function sortedPairs(flat: readonly number[]): [number, number][] {
  const pairs: [number, number][] = [];
  for (let index = 0; index < flat.length; index += 2) pairs.push([flat[index] as number, flat[index + 1] as number]);
  pairs.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  return pairs;
}

function resolve(runs: Run[], used: number[], tildeFirst: boolean): void {
  if (runs.length === 0) return;
  const alive = new Alive(runs.length);
  if (tildeFirst) {
    strikethrough(runs, alive, used);
    attention(runs, alive, used);
  } else {
    attention(runs, alive, used);
    strikethrough(runs, alive, used);
  }
}

/** Which runs are still delimiters; dead ones are skipped in near-constant time (path halving). */
class Alive {
  readonly #link: Int32Array;

  constructor(length: number) {
    this.#link = new Int32Array(length);
    for (let index = 0; index < length; index += 1) this.#link[index] = index;
  }

  has(index: number): boolean {
    return this.#link[index] === index;
  }

  kill(index: number): void {
    this.#link[index] = index - 1;
  }

  /** The highest alive index at or below `index`, or -1. */
  below(index: number): number {
    const link = this.#link;
    let at = index;
    while (at >= 0 && link[at] !== at) {
      const next = link[at] as number;
      if (next >= 0) link[at] = link[next] as number;
      at = link[at] as number;
    }
    return at;
  }
}

/**
 * The alive runs strictly between `from` and `to`, which die here: a group's content is resolved
 * on its own, and what it leaves unused is text to everything outside.
 */
function takeInner(runs: Run[], alive: Alive, from: number, to: number): Run[] {
  const inner: Run[] = [];
  for (let at = alive.below(to - 1); at > from; at = alive.below(at - 1)) {
    inner.push(runs[at] as Run);
    alive.kill(at);
  }
  return inner.reverse();
}

/** micromark's resolveAllAttention over one span, with CommonMark's openers_bottom to stay linear. */
function attention(runs: Run[], alive: Alive, used: number[]): void {
  // Lowest index worth searching per closer class (marker, size mod 3, can open); lowered when an
  // opener below it changes size.
  const bottom = new Int32Array(12).fill(-1);
  for (let index = 0; index < runs.length; index += 1) {
    const closer = runs[index] as Run;
    if (!alive.has(index) || closer.char === TILDE || !closer.close) continue;
    while (closer.size > 0) {
      const key = (closer.char === ASTERISK ? 0 : 6) + (closer.size % 3) * 2 + (closer.open ? 1 : 0);
      let found = -1;
      for (let at = alive.below(index - 1); at > (bottom[key] as number); at = alive.below(at - 1)) {
        const opener = runs[at] as Run;
        if (opener.char !== closer.char || !opener.open) continue;
        if ((opener.close || closer.open) && closer.size % 3 !== 0 && (opener.size + closer.size) % 3 === 0) continue;
        found = at;
        break;
      }
      if (found === -1) {
        bottom[key] = index - 1;
        break;
      }
      const opener = runs[found] as Run;
      const use = opener.size > 1 && closer.size > 1 ? 2 : 1;
      opener.size -= use;
      used.push(opener.at + opener.size, opener.at + opener.size + use, closer.at, closer.at + use);
      closer.at += use;
      closer.size -= use;
      const inner = takeInner(runs, alive, found, index);
      if (inner.length > 0) resolve(inner, used, false);
      if (opener.size === 0) alive.kill(found);
      for (let slot = 0; slot < 12; slot += 1) if ((bottom[slot] as number) >= found) bottom[slot] = found - 1;
    }
    if (closer.size === 0) alive.kill(index);
  }
  // Unused markers are text from here on.
  for (let index = 0; index < runs.length; index += 1) if ((runs[index] as Run).char !== TILDE && alive.has(index)) alive.kill(index);
}

/** micromark-extension-gfm-strikethrough's resolver: a closer takes the nearest opener of its size. */
function strikethrough(runs: Run[], alive: Alive, used: number[]): void {
  const bottom = [-1, -1, -1];
  for (let index = 0; index < runs.length; index += 1) {
    const closer = runs[index] as Run;
    if (!alive.has(index) || closer.char !== TILDE || !closer.close) continue;
    let found = -1;
    for (let at = alive.below(index - 1); at > (bottom[closer.size] as number); at = alive.below(at - 1)) {
      const opener = runs[at] as Run;
      if (opener.char === TILDE && opener.open && opener.size === closer.size) {
        found = at;
        break;
      }
    }
    if (found === -1) {
      bottom[closer.size] = index - 1;
      continue;
    }
    const opener = runs[found] as Run;
    used.push(opener.at, opener.at + opener.size, closer.at, closer.at + closer.size);
    const inner = takeInner(runs, alive, found, index);
    if (inner.length > 0) resolve(inner, used, false);
    alive.kill(found);
    alive.kill(index);
  }
  for (let index = 0; index < runs.length; index += 1) if ((runs[index] as Run).char === TILDE && alive.has(index)) alive.kill(index);
}
