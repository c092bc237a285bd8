/**
 * The markdown model: one parse per document that every recogniser reads. It says, for every
 * character, whether a reader of the rendered page sees it as text (prose) or not, and why not
 * (a named region). CommonMark 0.31.2 exact, with the GFM extensions (tables, footnotes, autolink
 * literals, strikethrough, task list items), YAML/TOML frontmatter and `$` math, as micromark and
 * mdast-util-from-markdown read them; `test/markdown/` measures the agreement.
 *
 * Offsets are UTF-16 code units into `text`; lines end at `\n`, `\r\n` or a bare `\r`.
 */
import { holdsBetween } from '../arrays.ts';
import { parseBlocks } from './blocks.ts';
import { type DefinitionSink, normaliseLabel } from './definitions.ts';
import { type InlineSink, literalStarts, parseInline, TextSearch } from './inline.ts';
import type { Range, Region, RegionKind } from './types.ts';

/** A heading: its level and the source range of its text. */
export interface Heading extends Range {
  readonly level: number;
  /** The heading text as written (the first line of a setext heading). */
  readonly title: string;
}

/** The model of one markdown document. */
export interface MarkdownModel {
  /** The text, without a BOM; every offset points into it. */
  readonly text: string;
  /** Offset of the first character of each line (line 1 is index 0). */
  readonly lineStarts: readonly number[];
  /** Non-prose regions, sorted and non-overlapping (an image's inner code span is inside the image). */
  readonly regions: readonly Region[];
  /** Offsets of characters made literal by a backslash, sorted. */
  readonly escapes: readonly number[];
  /** Normalised labels of link reference definitions (see {@link normaliseLabel}). */
  readonly definitions: ReadonlySet<string>;
  /** Normalised labels of GFM footnote definitions. */
  readonly footnotes: ReadonlySet<string>;
  /** ATX and setext headings in document order. */
  readonly headings: readonly Heading[];
}

/** Parses a markdown document into its model. */
export function parseMarkdown(input: string): MarkdownModel {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const definitions = new Set<string>();
  const footnotes = new Set<string>();
  const sink: DefinitionSink = {
    addDefinition: (label) => definitions.add(label),
    addFootnote: (label) => footnotes.add(normaliseLabel(label)),
  };
  const front = frontmatterEnd(text);
  // The frontmatter's line starts; the block phase adds the rest (`front` ends a line, starts none).
  const lineStarts = front === 0 ? [0] : lineStartsOf(text.slice(0, front));
  const blocks = parseBlocks(text, front, sink, lineStarts);
  const regions: Region[] = blocks.regions;
  if (front > 0) regions.push({ kind: 'frontmatter', start: 0, end: front });
  const escapes: number[] = [];
  const context = { definitions, footnotes };

  const literals = literalStarts(text);
  const search = new TextSearch(text);
  // A one-line leaf is parsed in place in the text, so its offsets are the document's.
  const inPlace: InlineSink = {
    region: (kind, start, end) => regions.push({ kind, start, end }),
    escape: (offset) => escapes.push(offset),
    linkText: () => undefined,
    imageText: () => undefined,
  };
  for (const leaf of blocks.leaves) {
    const lines = leaf.lines;
    const first = lines[0] as number;
    const last = lines[lines.length - 1] as number;
    const mayHoldLiteral = literals.length > 0 && holdsBetween(literals, first, last);
    // A leaf with no special character and no literal start is all prose (between its lines
    // stand only container prefixes and line endings, which hold no special character).
    if (!mayHoldLiteral && search.nextSpecial(first) >= last) continue;
    if (lines.length === 2) {
      parseInline(search, first, last, context, inPlace, mayHoldLiteral);
      continue;
    }
    // Several lines: join them with `\n` and map offsets back line by line.
    let joined = '';
    const starts: number[] = [];
    for (let index = 0; index < lines.length; index += 2) {
      if (index > 0) joined += '\n';
      starts.push(joined.length);
      joined += text.slice(lines[index] as number, lines[index + 1] as number);
    }
    const toSource = (offset: number, isEnd: boolean): number => {
      let line = 0;
      let low = 0;
      let high = starts.length - 1;
      while (low <= high) {
        const mid = (low + high) >> 1;
        if ((starts[mid] as number) <= offset) {
          line = mid;
          low = mid + 1;
        } else high = mid - 1;
      }
      // An end just after a line's last character stays on that line.
      if (isEnd && line > 0 && offset === starts[line] && offset > 0) {
        return (lines[(line - 1) * 2 + 1] as number) + 1;
      }
      return (lines[line * 2] as number) + offset - (starts[line] as number);
    };
    parseInline(
      new TextSearch(joined),
      0,
      joined.length,
      context,
      {
        region: (kind, start, end) => regions.push({ kind, start: toSource(start, false), end: toSource(end, true) }),
        escape: (offset) => escapes.push(toSource(offset, false)),
        linkText: () => undefined,
        imageText: () => undefined,
      },
      mayHoldLiteral,
    );
  }
  const headings: Heading[] = [];
  for (let index = 0; index < blocks.headings.length; index += 3) {
    const level = blocks.headings[index] as number;
    const start = blocks.headings[index + 1] as number;
    const end = blocks.headings[index + 2] as number;
    headings.push({ level, start, end, title: headingTitle(text, start, end) });
  }
  headings.sort((a, b) => a.start - b.start);
  escapes.sort((a, b) => a - b);
  return { text, lineStarts, regions: normaliseRegions(regions), escapes, definitions, footnotes, headings };
}

/**
 * The first line of a heading without its markers: an opening run of 1-6 `#` before a space, a tab
 * or the end; a closing run of `#` after spaces or tabs; a line of only `#`; then trimmed. Index
 * arithmetic in place of the three replacements it was written with (see the test).
 */
export function headingTitle(text: string, start: number, end: number): string {
  let from = start;
  let to = start;
  while (to < end && text.charCodeAt(to) !== 10 && text.charCodeAt(to) !== 13) to += 1;
  // `^#{1,6}(?=[ \t]|$)`
  let hashes = from;
  while (hashes < to && text.charCodeAt(hashes) === 35) hashes += 1;
  if (hashes > from && hashes - from <= 6 && (hashes === to || isSpaceOrTabCode(text.charCodeAt(hashes)))) from = hashes;
  // `[ \t]+#+[ \t]*$`: spaces or tabs, then the last run of `#`, then only spaces or tabs.
  let stop = to;
  while (stop > from && isSpaceOrTabCode(text.charCodeAt(stop - 1))) stop -= 1;
  let run = stop;
  while (run > from && text.charCodeAt(run - 1) === 35) run -= 1;
  if (run < stop && run > from && isSpaceOrTabCode(text.charCodeAt(run - 1))) {
    to = run - 1;
    while (to > from && isSpaceOrTabCode(text.charCodeAt(to - 1))) to -= 1;
  }
  // `^#+[ \t]*$`: nothing but `#`, then spaces or tabs, is left.
  let only = from;
  while (only < to && text.charCodeAt(only) === 35) only += 1;
  if (only > from) {
    while (only < to && isSpaceOrTabCode(text.charCodeAt(only))) only += 1;
    if (only === to) to = from;
  }
  return text.slice(from, to).trim();
}

function isSpaceOrTabCode(code: number): boolean {
  return code === 32 || code === 9;
}

/** Sorts regions and drops those inside an earlier one (a code span inside an image). */
function normaliseRegions(regions: Region[]): Region[] {
  regions.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Region[] = [];
  let end = -1;
  for (const region of regions) {
    if (region.end <= end) continue;
    if (region.start < end) {
      out.push({ kind: region.kind, start: end, end: region.end });
    } else {
      out.push(region);
    }
    end = region.end;
  }
  return out;
}

/** The end of YAML (`---`) or TOML (`+++`) frontmatter at the start of the document, or 0. */
function frontmatterEnd(text: string): number {
  const fence = text.startsWith('---') ? '---' : text.startsWith('+++') ? '+++' : null;
  if (fence === null) return 0;
  let at = lineAfterFence(text, 0, fence);
  if (at === -1) return 0;
  while (at < text.length) {
    const close = lineAfterFence(text, at, fence);
    if (close !== -1) return close;
    const next = nextLine(text, at);
    if (next === -1) return 0;
    at = next;
  }
  return 0;
}

/** When the line at `at` is exactly the fence plus spaces, the offset of its end (before the line ending); else -1. */
function lineAfterFence(text: string, at: number, fence: string): number {
  if (!text.startsWith(fence, at)) return -1;
  let end = at + 3;
  while (text.charCodeAt(end) === 32 || text.charCodeAt(end) === 9) end += 1;
  if (end >= text.length) return at === 0 ? -1 : end;
  const code = text.charCodeAt(end);
  if (code !== 10 && code !== 13) return -1;
  if (at === 0) return code === 13 && text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
  return end;
}

function nextLine(text: string, at: number): number {
  for (let index = at; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 10) return index + 1;
    if (code === 13) return text.charCodeAt(index + 1) === 10 ? index + 2 : index + 1;
  }
  return -1;
}

/** Offsets of line starts; `\n`, `\r\n` and a bare `\r` each end a line. */
export function lineStartsOf(text: string): number[] {
  const starts = [0];
  if (text.indexOf('\r') === -1) {
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
    return starts;
  }
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code === 10) starts.push(at + 1);
    else if (code === 13) {
      if (text.charCodeAt(at + 1) === 10) at += 1;
      starts.push(at + 1);
    }
  }
  return starts;
}

/** A cursor that answers "which region holds this offset?" for ascending offsets in O(1) amortised. */
export function createRegionCursor(regions: readonly Region[]): (offset: number) => Region | null {
  let index = 0;
  let lastOffset = -1;
  return (offset) => {
    if (offset < lastOffset) index = 0;
    lastOffset = offset;
    while (index < regions.length && (regions[index] as Region).end <= offset) index += 1;
    const region = regions[index];
    return region !== undefined && region.start <= offset ? region : null;
  };
}

/** True when no region overlaps `[start, end)`: a binary search over the sorted regions. */
export function isOutsideRegions(regions: readonly Region[], start: number, end: number): boolean {
  let low = 0;
  let high = regions.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const region = regions[mid] as Region;
    if (region.end <= start) low = mid + 1;
    else if (region.start >= end) high = mid - 1;
    else return false;
  }
  return true;
}

/** True when the character at `offset` was made literal by a backslash. */
export function isEscapedAt(model: Pick<MarkdownModel, 'escapes'>, offset: number): boolean {
  const escapes = model.escapes;
  let low = 0;
  let high = escapes.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const value = escapes[mid] as number;
    if (value === offset) return true;
    if (value < offset) low = mid + 1;
    else high = mid - 1;
  }
  return false;
}

/**
 * True when `[start, end)` is prose a reader sees as text: no region overlaps it and its first
 * character is not backslash-escaped. This is how a `[…]` citation candidate is placed.
 */
export function isProse(model: MarkdownModel, start: number, end: number): boolean {
  return isOutsideRegions(model.regions, start, end) && !isEscapedAt(model, start);
}

export type { Range, Region, RegionKind };
