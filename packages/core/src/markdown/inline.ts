/**
 * The inline phase of the markdown model: over the text of one paragraph, heading or table cell it
 * finds what a reader does not see as text (CommonMark §6, https://spec.commonmark.org/0.31.2/#inlines):
 * code spans, `$` math, autolinks and GFM autolink literals, raw HTML, links and images with their
 * destinations, footnote calls and backslash escapes. Emphasis and strikethrough change no
 * character's standing, so they are not parsed. One pass, left to right, linear in the text.
 *
 * A leaf is read in place: `s[from, to)`, where `s` is the document text (a one-line leaf) or the
 * lines of a leaf joined (several lines). V8 reads a sliced string about 1.7 times slower than a
 * flat one, and copies cost allocation; so every test here is bounded by `from` and `to`
 * explicitly, never by `s.length`, and never reads a character outside the leaf.
 */
import { holdsBetween } from '../arrays.ts';
import { closingTagEnd, isAsciiAlpha, isAsciiAlphanumeric, openTagEnd } from './blocks.ts';
import { normaliseLabel, parseLabel } from './definitions.ts';
import { type DelimiterScope, usedDelimiters } from './emphasis.ts';
import { isAsciiPunctuation, parseDestination, parseTitle, skipWhitespace } from './link-syntax.ts';
import type { RegionKind } from './types.ts';

/** What the inline phase needs to know about the document. */
export interface InlineContext {
  readonly definitions: ReadonlySet<string>;
  readonly footnotes: ReadonlySet<string>;
}

/** Receives regions and escapes in offsets of `s`. */
export interface InlineSink {
  region(kind: RegionKind, start: number, end: number): void;
  /** The offset of a character made literal by a backslash. */
  escape(offset: number): void;
  /** A link's text (prose: the sink may ignore it). */
  linkText(start: number, end: number): void;
  /** An image's description (inside the image's region: the sink may ignore it). */
  imageText(start: number, end: number): void;
}

/**
 * The bracket stack of CommonMark's link algorithm, in typed arrays (a run of a million `[` is a
 * million entries). A link deactivates every link opener below it; `floor` records that in O(1):
 * link openers under it are inactive, image openers never are.
 */
class Openers {
  #at = new Int32Array(16);
  #image = new Uint8Array(16);
  length = 0;
  floor = 0;

  push(at: number, image: boolean): void {
    if (this.length === this.#at.length) {
      const at2 = new Int32Array(this.length * 2);
      at2.set(this.#at);
      this.#at = at2;
      const image2 = new Uint8Array(this.length * 2);
      image2.set(this.#image);
      this.#image = image2;
    }
    this.#at[this.length] = at;
    this.#image[this.length] = image ? 1 : 0;
    this.length += 1;
  }

  /** Pops the top opener: its offset and kind, and whether it is still active; null when empty. */
  pop(): { at: number; image: boolean; active: boolean } | null {
    if (this.length === 0) return null;
    this.length -= 1;
    const index = this.length;
    const image = this.#image[index] === 1;
    const active = image || index >= this.floor;
    if (this.floor > index) this.floor = index;
    return { at: this.#at[index] as number, image, active };
  }

  /** A link closed: every link opener still on the stack is inactive. */
  deactivateLinks(): void {
    this.floor = this.length;
  }

  /** Empties the stack for the next leaf (the arrays are kept: one stack serves every leaf). */
  reset(): void {
    this.length = 0;
    this.floor = 0;
    // A pathological leaf (a megabyte of `[`) grew the arrays: do not keep them for the next.
    if (this.#at.length > 4096) {
      this.#at = new Int32Array(16);
      this.#image = new Uint8Array(16);
    }
  }
}

const SPECIAL_SEARCH = /[\\`$<![\]]/g;

/**
 * What the inline phase remembers about one string it reads leaves in: the document text (for
 * every one-line leaf) or one joined leaf. Its searches may run past a leaf to the next occurrence;
 * the answer is kept, and leaves come in document order, so the string is read about once per
 * search however many leaves it holds. The caller makes one per string: answers are never looked
 * up by comparing strings (two equal documents would compare in full at every call).
 */
export class TextSearch {
  readonly s: string;
  #specialFrom = 0;
  #specialNext = -1;
  /** Made on the first search: most strings are never searched. */
  #found: Map<string, { from: number; at: number }> | null = null;

  constructor(s: string) {
    this.s = s;
  }

  /**
   * The offset of the first special character at or after `from`, or the length of the string.
   * A regular expression reads prose faster than a loop of charCodeAt.
   */
  nextSpecial(from: number): number {
    if (this.#specialFrom <= from && from <= this.#specialNext) return this.#specialNext;
    SPECIAL_SEARCH.lastIndex = from;
    const next = SPECIAL_SEARCH.test(this.s) ? SPECIAL_SEARCH.lastIndex - 1 : this.s.length;
    this.#specialFrom = from;
    this.#specialNext = next;
    return next;
  }

  /**
   * `s.indexOf(needle, from)`, or -1 when the occurrence does not end before `to`. No occurrence
   * starts between the `from` of an earlier search and what it found, so callers that ask with
   * growing `from` (every `<` looking for its `>`) read the string about once per needle.
   */
  nextIndexOf(needle: string, from: number, to: number): number {
    this.#found ??= new Map();
    const known = this.#found.get(needle);
    let at: number;
    if (known !== undefined && known.from <= from && (known.at === -1 || known.at >= from)) at = known.at;
    else {
      at = this.s.indexOf(needle, from);
      this.#found.set(needle, { from, at });
    }
    return at === -1 || at + needle.length > to ? -1 : at;
  }
}

/** The one bracket stack: the inline phase runs one leaf at a time and never re-enters. */
const OPENERS = new Openers();

/** Characters that can start an inline construct (autolink literals are handled apart). */
const SPECIAL = new Uint8Array(128);
for (const char of '\\`$<![]') SPECIAL[char.charCodeAt(0)] = 1;

/** Parses the leaf `s[from, to)` of `search.s`; regions and escapes go to `out` in offsets of `s`. */
export function parseInline(
  search: TextSearch,
  from: number,
  to: number,
  context: InlineContext,
  out: InlineSink,
  mayHoldLiteral = true,
): void {
  const s = search.s;
  const hints = mayHoldLiteral ? literalHints(s, from, to) : NO_LITERALS;
  if (hints.needles.length === 0) {
    // No address the transform could link: the scan's regions are the answer, straight to `out`.
    scan(search, from, to, context, out, hints);
    return;
  }
  const found: number[] = [];
  const kinds: RegionKind[] = [];
  const escapes: number[] = [];
  const linkTexts: number[] = [];
  const imageTexts: number[] = [];
  const sink: InlineSink = {
    region(kind, start, end) {
      kinds.push(kind);
      found.push(start, end);
    },
    escape(offset) {
      escapes.push(offset);
      out.escape(offset);
    },
    linkText(start, end) {
      linkTexts.push(start, end);
    },
    imageText(start, end) {
      imageTexts.push(start, end);
    },
  };
  scan(search, from, to, context, sink, hints);
  for (let index = 0; index < kinds.length; index += 1) {
    out.region(kinds[index] as RegionKind, found[index * 2] as number, found[index * 2 + 1] as number);
  }
  const covered = found.concat(linkTexts);
  if (escapes.length > 0 || hasUncoveredNeedle(hints.needles, covered)) {
    // Link text is prose, but the address transform leaves it alone; emphasis and strikethrough
    // markers end the text nodes it reads.
    const markers = hasDelimiter(s, from, to)
      ? usedDelimiters(s, from, to, delimiterScope(found, kinds, linkTexts, imageTexts, escapes))
      : [];
    for (const [start, end] of literalAddresses(s, from, to, markers.length === 0 ? covered : covered.concat(markers), escapes)) {
      out.region('autolink', start, end);
    }
  }
}

/** What a leaf holds of the GFM autolink literals, found with a few searches instead of regexes. */
interface LiteralHints {
  /** An `@` followed by `[\w-]*\.` and an ASCII letter or digit: an e-mail literal may start. */
  readonly email: boolean;
  /** `://` or `www.` (any case): a URL literal may start. */
  readonly url: boolean;
  /**
   * `[start, end)` of every place the address transform could match at (`://`, `www.`, `xmpp:`,
   * `mailto:`, `@…` with a dot after word characters): it links nothing in a leaf where all of
   * them stand in code, destinations or link text.
   */
  readonly needles: number[];
}

const NO_LITERALS: LiteralHints = { email: false, url: false, needles: [] };

/**
 * Offsets in `text` where {@link literalHints} could find something, sorted: a leaf whose range
 * holds none of them has no hints (each hint lies within one line, whole).
 */
export function literalStarts(text: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    let end = at + 1;
    while (end < text.length && (isWordCode(text.charCodeAt(end)) || text.charCodeAt(end) === 45)) end += 1;
    if (text.charCodeAt(end) === 46) found.push(at);
  }
  for (let at = text.indexOf(':'); at !== -1; at = text.indexOf(':', at + 1)) {
    if (text.charCodeAt(at + 1) === 47 && text.charCodeAt(at + 2) === 47) found.push(at);
    else if (at >= 4 && text.startsWith('xmpp', at - 4)) found.push(at - 4);
    else if (at >= 6 && text.startsWith('mailto', at - 6)) found.push(at - 6);
  }
  for (let at = text.indexOf('&#'); at !== -1; at = text.indexOf('&#', at + 2)) found.push(at);
  for (const tail of ['w.', 'W.']) {
    for (let at = text.indexOf(tail, 2); at !== -1; at = text.indexOf(tail, at + 1)) {
      if ((text.charCodeAt(at - 1) | 32) === 119 && (text.charCodeAt(at - 2) | 32) === 119) found.push(at - 2);
    }
  }
  return found.sort((a, b) => a - b);
}

function isWordCode(code: number): boolean {
  return isAsciiAlphanumeric(code) || code === 95;
}

/**
 * The hints of `s[from, to)`. Searched in a copy of the leaf: an indexOf in the document would
 * read past the leaf to the next occurrence, for every leaf. Offsets are shifted back to `s`.
 */
function literalHints(text: string, from: number, to: number): LiteralHints {
  const s = from === 0 && to === text.length ? text : text.slice(from, to);
  const needles: number[] = [];
  let email = false;
  let url = false;
  for (let at = s.indexOf('@'); at !== -1; at = s.indexOf('@', at + 1)) {
    let end = at + 1;
    while (end < s.length && (isWordCode(s.charCodeAt(end)) || s.charCodeAt(end) === 45)) end += 1;
    if (s.charCodeAt(end) !== 46) continue;
    if (isAsciiAlphanumeric(s.charCodeAt(end + 1))) email = true;
    if (end > at + 1) needles.push(at, end + 1);
  }
  for (let at = s.indexOf(':'); at !== -1; at = s.indexOf(':', at + 1)) {
    if (s.charCodeAt(at + 1) === 47 && s.charCodeAt(at + 2) === 47) {
      url = true;
      needles.push(at, at + 3);
    } else if (at >= 4 && s.startsWith('xmpp', at - 4)) needles.push(at - 4, at + 1);
    else if (at >= 6 && s.startsWith('mailto', at - 6)) needles.push(at - 6, at + 1);
  }
  // A numeric character reference is decoded in the value the transform reads (`&#64;` is `@`).
  for (let at = s.indexOf('&#'); at !== -1; at = s.indexOf('&#', at + 2)) needles.push(at, at + 2);
  // `www.` in any case ends in `w.` or `W.`, far rarer than a dot.
  for (const tail of ['w.', 'W.']) {
    for (let at = s.indexOf(tail, 2); at !== -1; at = s.indexOf(tail, at + 1)) {
      if ((s.charCodeAt(at - 1) | 32) === 119 && (s.charCodeAt(at - 2) | 32) === 119) {
        url = true;
        needles.push(at - 2, at + 2);
      }
    }
  }
  if (from !== 0) for (let index = 0; index < needles.length; index += 1) needles[index] = (needles[index] as number) + from;
  return { email, url, needles };
}

/** True when some needle overlaps no covered range (both flattened `[start, end)` pairs). */
function hasUncoveredNeedle(needles: readonly number[], covered: readonly number[]): boolean {
  // Many of both (a pathological leaf): let the transform decide, it is linear.
  if (needles.length * covered.length > 16_384) return true;
  for (let index = 0; index < needles.length; index += 2) {
    const start = needles[index] as number;
    const end = needles[index + 1] as number;
    let free = true;
    for (let range = 0; range < covered.length && free; range += 2) {
      if ((covered[range] as number) < end && (covered[range + 1] as number) > start) free = false;
    }
    if (free) return true;
  }
  return false;
}

/** True when `s[from, to)` holds `*`, `_` or `~`. */
function hasDelimiter(s: string, from: number, to: number): boolean {
  for (let at = from; at < to; at += 1) {
    const code = s.charCodeAt(at);
    if (code === 42 || code === 95 || code === 126) return true;
  }
  return false;
}

/** Where delimiters can stand: not in code, HTML, destinations or autolinks; image descriptions are spans. */
function delimiterScope(
  found: readonly number[],
  kinds: readonly RegionKind[],
  linkTexts: readonly number[],
  imageTexts: readonly number[],
  escapes: readonly number[],
): DelimiterScope {
  const blocked: number[] = [];
  let image = 0;
  for (let index = 0; index < kinds.length; index += 1) {
    const start = found[index * 2] as number;
    const end = found[index * 2 + 1] as number;
    if (kinds[index] !== 'image') {
      blocked.push(start, end);
      continue;
    }
    // An image's description holds delimiters of its own; its `![`, `](…)` or `[…]` do not.
    while (image < imageTexts.length && (imageTexts[image] as number) < start) image += 2;
    const textStart = imageTexts[image] as number;
    const textEnd = imageTexts[image + 1] as number;
    blocked.push(start, textStart, textEnd, end);
  }
  return { blocked, escapes: new Set(escapes), spans: linkTexts.concat(imageTexts) };
}

function scan(search: TextSearch, from: number, to: number, context: InlineContext, sink: InlineSink, hints: LiteralHints): void {
  const s = search.s;
  const length = to;
  const openers = OPENERS;
  openers.reset();
  // Every e-mail literal holds `@`, then a dot before an ASCII letter or digit (see emailLiteral).
  const hasAt = hints.email;
  const hasLiteralStart = hasAt || hints.url;
  trailCache.failUntil = -1;
  const runs = { backtick: null as RunIndex | null, dollar: null as RunIndex | null };
  let at = from;
  while (at < length) {
    let code = s.charCodeAt(at);
    if (!hasLiteralStart && (code >= 128 || SPECIAL[code] === 0)) {
      // Most leaves hold no literal: only the special characters matter, so skip to the next.
      at = search.nextSpecial(at);
      if (at >= length) return;
      code = s.charCodeAt(at);
    }
    if (code < 128 && SPECIAL[code] === 1) {
      switch (code) {
        case 92 /* \ */:
          if (at + 1 < length && isAsciiPunctuation(s.charCodeAt(at + 1))) {
            sink.escape(at + 1);
            at += 2;
          } else {
            at += 1;
          }
          continue;
        case 96 /* ` */:
        case 36 /* $ */:
          {
            let end = at;
            while (end < length && s.charCodeAt(end) === code) end += 1;
            // Inline math needs `$$`: a single `$` is a shell variable or a price far more often
            // than math in real documents (`@$AIWG_ROOT/a.md and @$AIWG_ROOT/b.md`, `$10k to $50k`).
            if (code === 36 && end - at < 2) {
              at = end;
              continue;
            }
            if (code === 96 && runs.backtick === null) runs.backtick = indexRuns(s, 96, from, to);
            if (code === 36 && runs.dollar === null) runs.dollar = indexRuns(s, 36, from, to);
            const index = (code === 96 ? runs.backtick : runs.dollar) as RunIndex;
            const close = index.next(end - at, end);
            if (close !== -1) {
              sink.region(code === 96 ? 'code-span' : 'math', at, close + (end - at));
              at = close + (end - at);
            } else {
              at = end;
            }
            continue;
          }
        case 60 /* < */:
          {
            const end = angle(search, at, to);
            if (end.end !== -1) {
              sink.region(end.kind, at, end.end);
              at = end.end;
            } else {
              at += 1;
            }
            continue;
          }
        case 33 /* ! */:
          if (at + 1 < length && s.charCodeAt(at + 1) === 91) {
            openers.push(at, true);
            at += 2;
          } else {
            at += 1;
          }
          continue;
        case 91 /* [ */:
          {
            if (at + 1 < length && s.charCodeAt(at + 1) === 94 /* ^ */ && context.footnotes.size > 0) {
              const end = footnoteCall(s, at, context.footnotes, to);
              if (end !== -1) {
                sink.region('footnote-call', at, end);
                at = end;
                continue;
              }
            }
            openers.push(at, false);
            at += 1;
            continue;
          }
        case 93 /* ] */:
          at = closeBracket(s, at, openers, context, sink, to);
          continue;
      }
    }
    if (hasLiteralStart && openers.length === 0 && isLiteralTrigger(code)) {
      const end = autolinkLiteral(s, at, hasAt, from, to);
      if (end !== -1) {
        sink.region('autolink', at, end);
        at = end;
        continue;
      }
    }
    at += 1;
  }
}

function isLiteralTrigger(code: number): boolean {
  return isAsciiAlphanumeric(code) || code === 43 || code === 45 || code === 46 || code === 95;
}

/** Runs of one character in a leaf, by length, for code span and math closers in linear time. */
interface RunIndex {
  /** The start of the first run of exactly `size` characters at or after `from`, or -1. */
  next(size: number, from: number): number;
}

/**
 * The runs of `char` in `s[from, to)`. Its last search may read past the leaf to the next `char`;
 * leaves come in document order, so those reads do not overlap and stay linear in the document.
 */
function indexRuns(s: string, char: number, from: number, to: number): RunIndex {
  const bySize = new Map<number, number[]>();
  const cursor = new Map<number, number>();
  const needle = String.fromCharCode(char);
  for (let at = s.indexOf(needle, from); at !== -1 && at < to; ) {
    let end = at;
    while (end < to && s.charCodeAt(end) === char) end += 1;
    const size = end - at;
    let list = bySize.get(size);
    if (list === undefined) {
      list = [];
      bySize.set(size, list);
    }
    list.push(at);
    at = s.indexOf(needle, end);
  }
  return {
    next(size, from) {
      const list = bySize.get(size);
      if (list === undefined) return -1;
      let index = cursor.get(size) ?? 0;
      while (index < list.length && (list[index] as number) < from) index += 1;
      cursor.set(size, index);
      return index < list.length ? (list[index] as number) : -1;
    },
  };
}

/** A `]` at `at` (before `to`): closes a link or image when the bracket algorithm says so (CommonMark §6.3). */
function closeBracket(s: string, at: number, openers: Openers, context: InlineContext, sink: InlineSink, to: number): number {
  const opener = openers.pop();
  if (opener === null || !opener.active) return at + 1;
  const textStart = opener.at + (opener.image ? 2 : 1);
  const defined = (): boolean => {
    if (context.definitions.size === 0 || at - textStart > 999) return false;
    const textLabel = s.slice(textStart, at);
    return context.definitions.has(normaliseLabel(textLabel)) && parseLabel(`[${textLabel}]`, 0, textLabel.length + 2) !== -1;
  };
  let end = -1;
  let kind: RegionKind = 'destination';
  const after = at + 1 < to ? s.charCodeAt(at + 1) : -1;
  if (after === 40 /* ( */) end = inlineTail(s, at + 1, to);
  if (end === -1 && after === 91 /* [ */) {
    const labelEnd = parseLabel(s, at + 1, to);
    if (labelEnd !== -1) {
      if (context.definitions.size > 0 && context.definitions.has(normaliseLabel(s.slice(at + 2, labelEnd - 1)))) {
        end = labelEnd;
        kind = 'reference';
      }
    } else if (defined()) {
      end = at + 2 < to && s.charCodeAt(at + 2) === 93 ? at + 3 : -2;
      kind = 'reference';
    } else {
      end = -2;
    }
    if (end === -2) return at + 1;
  }
  if (end === -1 && after !== 91 && defined()) {
    end = at + 1;
    kind = 'reference';
  }
  if (end < 0) return at + 1;
  if (opener.image) {
    sink.region('image', opener.at, end);
    sink.imageText(opener.at + 2, at);
  } else {
    sink.region('markup', opener.at, opener.at + 1);
    if (at > opener.at + 1) sink.linkText(opener.at + 1, at);
    sink.region(kind, at, end);
    openers.deactivateLinks();
  }
  return end;
}

/** `(destination "title")` after a link's `]`; returns the offset after `)`, or -1. */
function inlineTail(s: string, open: number, to: number): number {
  let at = skipSpace(s, open + 1, to);
  if (at >= to) return -1;
  if (s.charCodeAt(at) === 41) return at + 1;
  const destinationEnd = parseDestination(s, at, 32, to);
  if (destinationEnd === -1 || (destinationEnd === at && s.charCodeAt(at) !== 60)) return -1;
  at = destinationEnd;
  const beforeTitle = at;
  at = skipSpace(s, at, to);
  if (at >= to) return -1;
  if (at > beforeTitle) {
    const code = s.charCodeAt(at);
    if (code === 34 || code === 39 || code === 40) {
      const titleEnd = parseTitle(s, at, to);
      if (titleEnd === -1) return -1;
      at = skipSpace(s, titleEnd, to);
    }
  }
  return at < to && s.charCodeAt(at) === 41 ? at + 1 : -1;
}

/** Spaces, tabs and line endings (a leaf holds no blank line). */
function skipSpace(s: string, from: number, to: number): number {
  let at = from;
  for (;;) {
    const next = skipWhitespace(s, at, true, to);
    if (next === at) return at;
    at = next;
  }
}

/** A GFM footnote call `[^label]` whose label is defined; returns the offset after `]`, or -1. */
function footnoteCall(s: string, at: number, footnotes: ReadonlySet<string>, to: number): number {
  let end = at + 2;
  while (end < to && end - at <= 1001) {
    const code = s.charCodeAt(end);
    if (code === 93) break;
    if (code === 91 || code === 32 || code === 9 || code === 10) return -1;
    if (code === 92) end += 1;
    end += 1;
  }
  if (end >= to || s.charCodeAt(end) !== 93 || end === at + 2) return -1;
  return footnotes.has(normaliseLabel(s.slice(at + 2, end))) ? end + 1 : -1;
}

/** `<…>` at `at`, ending before `to`: an autolink, a comment or other raw HTML. */
function angle(search: TextSearch, at: number, to: number): { kind: RegionKind; end: number } {
  const s = search.s;
  const next = at + 1 < to ? s.charCodeAt(at + 1) : -1;
  if (isAsciiAlpha(next)) {
    const autolink = uriAutolink(s, at, to);
    if (autolink !== -1) return { kind: 'autolink', end: autolink };
  }
  const email = emailAutolink(search, at, to);
  if (email !== -1) return { kind: 'autolink', end: email };
  if (isAsciiAlpha(next)) return { kind: 'html-inline', end: openTagEnd(s, at, to) };
  if (next === 47) return { kind: 'html-inline', end: closingTagEnd(s, at, to) };
  if (next === 63) {
    const close = search.nextIndexOf('?>', at + 2, to);
    return { kind: 'html-inline', end: close === -1 ? -1 : close + 2 };
  }
  if (next === 33) {
    if (at + 4 <= to && s.startsWith('<!--', at)) {
      if (at + 5 <= to && s.startsWith('<!-->', at)) return { kind: 'comment', end: at + 5 };
      if (at + 6 <= to && s.startsWith('<!--->', at)) return { kind: 'comment', end: at + 6 };
      const close = search.nextIndexOf('-->', at + 4, to);
      return { kind: 'comment', end: close === -1 ? -1 : close + 3 };
    }
    if (at + 9 <= to && s.startsWith('<![CDATA[', at)) {
      const close = search.nextIndexOf(']]>', at + 9, to);
      return { kind: 'html-inline', end: close === -1 ? -1 : close + 3 };
    }
    if (at + 2 < to && isAsciiAlpha(s.charCodeAt(at + 2))) {
      const close = search.nextIndexOf('>', at + 3, to);
      return { kind: 'html-inline', end: close === -1 ? -1 : close + 1 };
    }
  }
  return { kind: 'html-inline', end: -1 };
}

function uriAutolink(s: string, at: number, to: number): number {
  let end = at + 1;
  while (end < to && end - at - 1 < 33) {
    const code = s.charCodeAt(end);
    if (isAsciiAlphanumeric(code) || code === 43 || code === 45 || code === 46) end += 1;
    else break;
  }
  const schemeLength = end - at - 1;
  if (schemeLength < 2 || schemeLength > 32 || end >= to || s.charCodeAt(end) !== 58) return -1;
  end += 1;
  while (end < to) {
    const code = s.charCodeAt(end);
    if (code === 62) return end + 1;
    if (code <= 32 || code === 60 || code === 127) return -1;
    end += 1;
  }
  return -1;
}

const EMAIL_LOCAL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*>/;

function emailAutolink(search: TextSearch, at: number, to: number): number {
  const close = search.nextIndexOf('>', at + 1, to);
  const sign = search.nextIndexOf('@', at + 1, to);
  // The address holds no `<`, so a `<` before the `>` ends the attempt without copying the text.
  const next = search.nextIndexOf('<', at + 1, to);
  if (close === -1 || sign === -1 || sign > close || (next !== -1 && next < close)) return -1;
  const match = EMAIL_LOCAL.exec(search.s.slice(at + 1, close + 1));
  return match === null ? -1 : at + 1 + match[0].length;
}

// GFM autolink literals, after micromark-extension-gfm-autolink-literal's grammar.

const UNICODE_PUNCTUATION = /[\p{P}\p{S}]/u;
const UNICODE_WHITESPACE = /\s/u;

function isPunctuation(code: number): boolean {
  if (code < 128) return isAsciiPunctuation(code);
  return UNICODE_PUNCTUATION.test(String.fromCharCode(code));
}

function isSpaceLike(code: number): boolean {
  if (Number.isNaN(code)) return true;
  if (code === 32 || code === 9 || code === 10 || code === 13) return true;
  return code >= 128 && UNICODE_WHITESPACE.test(String.fromCharCode(code));
}

const isAtext = (code: number): boolean => code === 43 || code === 45 || code === 46 || code === 95 || isAsciiAlphanumeric(code);

/** An autolink literal starting at `at` in `[from, to)` (www., http(s)://, or an e-mail address); the offset after it, or -1. */
function autolinkLiteral(s: string, at: number, hasAt: boolean, from: number, to: number): number {
  const code = s.charCodeAt(at);
  const previous = at === from ? Number.NaN : s.charCodeAt(at - 1);
  if (hasAt && !(previous === 47 || isAtext(previous))) {
    const email = emailLiteral(s, at, to);
    if (email !== -1) return email;
  }
  if ((code === 104 || code === 72) && !isAsciiAlpha(previous)) {
    const end = protocolLiteral(s, at, to);
    if (end !== -1) return end;
  }
  if ((code === 119 || code === 87) && previousWww(previous)) {
    if (at + 4 < to && (s.charCodeAt(at + 1) | 32) === 119 && (s.charCodeAt(at + 2) | 32) === 119 && s.charCodeAt(at + 3) === 46) {
      const domainEnd = domain(s, at, to);
      if (domainEnd !== -1) return path(s, domainEnd, to);
    }
  }
  return -1;
}

function previousWww(code: number): boolean {
  return Number.isNaN(code) || code === 40 || code === 42 || code === 95 || code === 91 || code === 93 || code === 126 || isSpaceLike(code);
}

function emailLiteral(s: string, at: number, to: number): number {
  let end = at;
  while (end < to && isAtext(s.charCodeAt(end))) end += 1;
  if (end >= to || s.charCodeAt(end) !== 64) return -1;
  end += 1;
  let data = false;
  let dot = false;
  while (end < to) {
    const code = s.charCodeAt(end);
    if (code === 46) {
      // A dot followed by something other than an ASCII letter or digit ends the address.
      if (end + 1 >= to || !isAsciiAlphanumeric(s.charCodeAt(end + 1))) break;
      dot = true;
      end += 1;
      continue;
    }
    if (code === 45 || code === 95 || isAsciiAlphanumeric(code)) {
      data = true;
      end += 1;
      continue;
    }
    break;
  }
  return data && dot && isAsciiAlpha(s.charCodeAt(end - 1)) ? end : -1;
}

function protocolLiteral(s: string, at: number, to: number): number {
  let end = at;
  while (end < to && isAsciiAlpha(s.charCodeAt(end)) && end - at < 5) end += 1;
  // `http` or `https`, any case, then `:`.
  const length = end - at;
  if (length !== 4 && length !== 5) return -1;
  if ((s.charCodeAt(at + 1) | 32) !== 116 || (s.charCodeAt(at + 2) | 32) !== 116 || (s.charCodeAt(at + 3) | 32) !== 112) return -1;
  if (length === 5 && (s.charCodeAt(at + 4) | 32) !== 115) return -1;
  if (end + 2 >= to || s.charCodeAt(end) !== 58) return -1;
  if (s.charCodeAt(end + 1) !== 47 || s.charCodeAt(end + 2) !== 47) return -1;
  end += 3;
  if (end >= to) return -1;
  const first = s.charCodeAt(end);
  if (first < 32 || first === 127 || isSpaceLike(first) || isPunctuation(first)) return -1;
  const domainEnd = domain(s, end, to);
  return domainEnd === -1 ? -1 : path(s, domainEnd, to);
}

function domain(s: string, from: number, to: number): number {
  let at = from;
  let underscoreInLast = false;
  let underscoreInLastLast = false;
  let seen = false;
  while (at < to) {
    const code = s.charCodeAt(at);
    if (code === 46 || code === 95) {
      if (trail(s, at, to)) break;
      if (code === 95) underscoreInLast = true;
      else {
        underscoreInLastLast = underscoreInLast;
        underscoreInLast = false;
      }
      at += 1;
      continue;
    }
    if (isSpaceLike(code) || (code !== 45 && isPunctuation(code))) break;
    seen = true;
    at += 1;
  }
  return underscoreInLast || underscoreInLastLast || !seen ? -1 : at;
}

function path(s: string, from: number, to: number): number {
  let at = from;
  let open = 0;
  let close = 0;
  for (;;) {
    if (at >= to) return at;
    const code = s.charCodeAt(at);
    if (isSpaceLike(code)) return at;
    if (code === 40) {
      open += 1;
      at += 1;
      continue;
    }
    if (code === 41 && close < open) {
      close += 1;
      at += 1;
      continue;
    }
    if ((code < 128 && TRAILING[code] === 1) || code === 38 || code === 60 || code === 93) {
      if (trail(s, at, to)) return at;
      if (code === 41) close += 1;
      at += 1;
      continue;
    }
    at += 1;
  }
}

/**
 * Where the last `trail` scan of the current leaf failed: every offset before it shares the same
 * failing suffix, so a run of punctuation is scanned once, not once per character. Reset by every
 * scan; only the scan calls `trail`.
 */
const trailCache = { from: 0, failUntil: -1 };

/** Punctuation that may trail an autolink literal without belonging to it (`&`, `<` and `]` are decided apart). */
const TRAILING = new Uint8Array(128);
for (const char of '!"\')*,.:;?_~') TRAILING[char.charCodeAt(0)] = 1;

/** True when the text from `from` to `to` is trailing punctuation that is not part of an autolink literal. */
function trail(s: string, from: number, to: number): boolean {
  if (from >= trailCache.from && from < trailCache.failUntil) return false;
  const end = trailFailure(s, from, to);
  if (end === -1) return true;
  trailCache.from = from;
  trailCache.failUntil = end;
  return false;
}

/** -1 when the text from `from` is all trailing punctuation; else the offset of the first other character. */
function trailFailure(s: string, from: number, to: number): number {
  let at = from;
  for (;;) {
    if (at >= to) return -1;
    const code = s.charCodeAt(at);
    if (code === 60 || isSpaceLike(code)) return -1;
    if (code < 128 && TRAILING[code] === 1) {
      at += 1;
      continue;
    }
    if (code === 38) {
      let end = at + 1;
      if (end >= to || !isAsciiAlpha(s.charCodeAt(end))) return end;
      while (end < to && isAsciiAlpha(s.charCodeAt(end))) end += 1;
      if (end >= to || s.charCodeAt(end) !== 59) return end;
      at = end + 1;
      continue;
    }
    if (code === 93) {
      at += 1;
      if (at >= to) return -1;
      const next = s.charCodeAt(at);
      if (next === 40 || next === 91 || isSpaceLike(next)) return -1;
      continue;
    }
    return at;
  }
}

// The address transform of mdast-util-gfm-autolink-literal: after parsing, URLs, `www.` addresses
// and e-mail addresses in text (outside links) become links too, even where the syntax above did
// not take them (inside unbalanced brackets, after an escape).

const URL_LITERAL = /(?<![\da-z])(https?:\/\/|www(?=\.))([\w-]*\.[\w\-.]*)([^\t\n\r ]*)/gi;
const XMPP_LITERAL = /(?<![\w+\-.@])xmpp:([\w+\-.]+)@([\w-]+(?:\.[\w-]+)+)(\/(?:[\w\-/]|\.(?=[\dA-Za-z]))*)?/g;
const MAILTO_LITERAL = /(?<![\w+\-.@])mailto:([\w+\-.]+)@([\w-]+(?:\.[\w-]+)+)/g;
const EMAIL_LITERAL = /(?<![\w+\-.]|(?:^|[^\d@A-Za-z])(?:mailto|xmpp):)([\w+\-.]+)@([\w-]+(?:\.[\w-]+)+)/g;
const LABEL_END = /[\d\-_]$/;

/** Source ranges of the addresses the transform links, in the text runs of `s[from, to)` between `covered` ranges. */
function literalAddresses(s: string, from: number, to: number, covered: readonly number[], escapes: readonly number[]): [number, number][] {
  const ranges: [number, number][] = [];
  for (let index = 0; index < covered.length; index += 2) ranges.push([covered[index] as number, covered[index + 1] as number]);
  ranges.sort((a, b) => a[0] - b[0]);
  const escaped = new Set(escapes);
  const out: [number, number][] = [];
  let cursor = from;
  const run = (from: number, to: number): void => {
    if (to <= from) return;
    // The text node's value: escape backslashes dropped, numeric character references decoded;
    // `map` gives each value character's source offset and `ends` the offset after its source
    // (none is built when the run holds neither: then both follow from `from + index`).
    let value = s.slice(from, to);
    let map: number[] | null = null;
    let ends: number[] | null = null;
    const hasEscape = value.includes('\\') && holdsBetween(escapes, from + 1, to + 1);
    if (hasEscape || value.includes('&#')) {
      value = '';
      map = [];
      ends = [];
      for (let at = from; at < to; at += 1) {
        if (s.charCodeAt(at) === 92 && escaped.has(at + 1)) continue;
        const reference = s.charCodeAt(at) === 38 && !escaped.has(at) ? numericReference(s, at, to) : null;
        if (reference !== null) {
          for (let unit = 0; unit < reference.value.length; unit += 1) {
            map.push(at);
            ends.push(reference.end);
          }
          value += reference.value;
          at = reference.end - 1;
          continue;
        }
        value += s[at];
        map.push(at);
        ends.push(at + 1);
      }
      map.push(to);
      ends.push(to);
    }
    const source = (index: number): number => (map === null ? from + index : (map[index] as number));
    const sourceEnd = (index: number): number => (ends === null ? from + index + 1 : (ends[index] as number));
    let pieces: [number, number][] = [[0, value.length]];
    for (const [pattern, accept, needle] of TRANSFORMS) {
      if (!needle.test(value)) continue;
      const next: [number, number][] = [];
      for (const [start, end] of pieces) {
        const piece = value.slice(start, end);
        let textStart = 0;
        pattern.lastIndex = 0;
        for (let match = pattern.exec(piece); match !== null; match = pattern.exec(piece)) {
          const length = accept(match);
          if (length === -1) {
            pattern.lastIndex = match.index + 1;
            continue;
          }
          if (match.index > textStart) next.push([start + textStart, start + match.index]);
          out.push([source(start + match.index), sourceEnd(start + match.index + length - 1)]);
          textStart = match.index + length;
          // The trailing part of a URL match stays text and merges with what follows.
          pattern.lastIndex = match.index + match[0].length;
        }
        if (textStart < piece.length) next.push([start + textStart, end]);
      }
      pieces = mergePieces(next);
    }
  };
  for (const [start, end] of ranges) {
    if (end <= cursor) continue;
    run(cursor, start);
    cursor = Math.max(cursor, end);
  }
  run(cursor, to);
  return out;
}

/**
 * A decimal or hexadecimal character reference at `at` (before `to`), decoded as micromark does
 * (micromark-util-decode-numeric-character-reference: controls, surrogates, noncharacters and
 * values past U+10FFFF become U+FFFD); null when there is none. Named references are not decoded
 * here (no entity table in the core): an address beside one may still be read differently.
 */
function numericReference(s: string, at: number, to: number): { value: string; end: number } | null {
  if (s.charCodeAt(at + 1) !== 35) return null;
  const hex = (s.charCodeAt(at + 2) | 32) === 120;
  let end = at + (hex ? 3 : 2);
  const digitsStart = end;
  while (end < to && end - digitsStart < (hex ? 6 : 7)) {
    const code = s.charCodeAt(end);
    const isDigit = code >= 48 && code <= 57;
    const isHex = isDigit || ((code | 32) >= 97 && (code | 32) <= 102);
    if (!(hex ? isHex : isDigit)) break;
    end += 1;
  }
  if (end === digitsStart || end >= to || s.charCodeAt(end) !== 59) return null;
  const code = Number.parseInt(s.slice(digitsStart, end), hex ? 16 : 10);
  const replaced =
    code < 9 ||
    code === 11 ||
    (code > 13 && code < 32) ||
    (code > 126 && code < 160) ||
    (code > 55_295 && code < 57_344) ||
    (code > 64_975 && code < 65_008) ||
    (code & 65_535) === 65_535 ||
    (code & 65_535) === 65_534 ||
    code > 1_114_111;
  return { value: replaced ? '\uFFFD' : String.fromCodePoint(code), end: end + 1 };
}

function mergePieces(pieces: [number, number][]): [number, number][] {
  const merged: [number, number][] = [];
  for (const piece of pieces) {
    const last = merged[merged.length - 1];
    if (last !== undefined && last[1] === piece[0]) last[1] = piece[1];
    else merged.push([piece[0], piece[1]]);
  }
  return merged;
}

type Accept = (match: RegExpExecArray) => number;

/** Each transform: its pattern, what it accepts, and text every match contains (a cheap test first). */
const TRANSFORMS: readonly (readonly [RegExp, Accept, RegExp])[] = [
  [URL_LITERAL, acceptUrl, /:\/\/|www\./i],
  [XMPP_LITERAL, acceptXmpp, /xmpp:/],
  [MAILTO_LITERAL, (match) => (LABEL_END.test(match[2] as string) ? -1 : match[0].length), /mailto:/],
  [EMAIL_LITERAL, (match) => (LABEL_END.test(match[2] as string) ? -1 : match[0].length), /@[\w-]+\./],
];

function acceptUrl(match: RegExpExecArray): number {
  const before = match.input.charCodeAt(match.index - 1);
  if (!(match.index === 0 || isSpaceLike(before) || isPunctuation(before))) return -1;
  let protocol = match[1] as string;
  let domainPart = match[2] as string;
  if (/^w/i.test(protocol)) {
    domainPart = protocol + domainPart;
    protocol = '';
  }
  if (isPunctuation(domainPart.charCodeAt(0)) || !isCorrectDomain(domainPart)) return -1;
  return protocol.length + splitUrl(domainPart + (match[3] as string));
}

function acceptXmpp(match: RegExpExecArray): number {
  const resource = match[3];
  if (
    LABEL_END.test(match[2] as string) ||
    (resource !== undefined &&
      resource !== '' &&
      (!/[A-Za-z]$/.test(resource) || match.input.charAt(match.index + match[0].length) === '@'))
  ) {
    return -1;
  }
  return match[0].length;
}

function isCorrectDomain(domainPart: string): boolean {
  const parts = domainPart.split('.');
  if (parts.length < 2) return false;
  for (const part of [parts[parts.length - 1], parts[parts.length - 2]]) {
    if (part && (/_/.test(part) || !/[\dA-Za-z]/.test(part))) return false;
  }
  return true;
}

/** The length of a URL without its trailing punctuation, closing parentheses kept when balanced. */
function splitUrl(url: string): number {
  let index = url.length;
  while (index > 0) {
    const code = url.charCodeAt(index - 1);
    if ('!"&\'),.:;<>?]}'.includes(String.fromCharCode(code))) index -= 1;
    else break;
  }
  if (index === url.length) return url.length;
  let kept = url.slice(0, index);
  let trailing = url.slice(index);
  let closing = trailing.indexOf(')');
  const opening = count(kept, '(');
  let closed = count(kept, ')');
  while (closing !== -1 && opening > closed) {
    kept += trailing.slice(0, closing + 1);
    trailing = trailing.slice(closing + 1);
    closing = trailing.indexOf(')');
    closed += 1;
  }
  return kept.length;
}

function count(value: string, char: string): number {
  let total = 0;
  for (let at = value.indexOf(char); at !== -1; at = value.indexOf(char, at + 1)) total += 1;
  return total;
}
