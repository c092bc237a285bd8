/**
 * A fast, position-keeping block and inline scanner for the parts of CommonMark + GFM that
 * decide where a citation can stand (https://spec.commonmark.org/0.31.2/): frontmatter, fenced
 * and indented code, HTML blocks, link reference definitions and code spans. It never builds a
 * tree, so text that cannot hold a citation costs one pass of `indexOf`. remark-parse remains the
 * parser of record: `test/scan-vs-remark.test.ts` checks that both agree on real documents.
 */

/** A half-open range of UTF-16 offsets into the document text. */
export interface Range {
  readonly start: number;
  readonly end: number;
}

/** Why a region of the document is not prose. */
export type RegionKind = 'frontmatter' | 'code' | 'html' | 'definition';

/** A non-prose region. */
export interface Region extends Range {
  readonly kind: RegionKind;
}

/** A `<!-- aiwg-cite-disable-next-line [rules] -->` directive: `rules` empty means every rule. */
export interface Suppression {
  readonly line: number;
  readonly rules: readonly string[];
}

/** The result of scanning one markdown document. */
export interface ScannedDocument {
  /** The decoded text, without a BOM. */
  readonly text: string;
  /** Offset of the first character of each line (line 1 is index 0). */
  readonly lineStarts: readonly number[];
  /** Non-prose regions, sorted and non-overlapping. */
  readonly regions: readonly Region[];
  /** Normalised labels of link reference definitions. */
  readonly definitions: ReadonlySet<string>;
  /** Line ranges (1-based, inclusive start, exclusive end) of `## Sources` footers. */
  readonly sourcesSections: readonly Range[];
  /** Suppression directives, keyed by the line they silence. */
  readonly suppressions: readonly Suppression[];
}

/** Options of {@link scanMarkdown}. */
export interface ScanOptions {
  /** Treat fenced, indented and inline code as prose. @default false */
  readonly includeCode?: boolean;
}

const FENCE = /^(?:>[ \t]?)*[ \t]*(`{3,}|~{3,})(.*)$/;
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t#]*$/;
const LIST_ITEM = /^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
const CONTAINER_PREFIX = /^(?: {0,3}>[ \t]?)*(?:[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+)?/;
/** A link reference definition on one line: label, destination, optional title (CommonMark §4.7). */
const DEFINITION =
  /^ {0,3}\[((?:[^\\\]]|\\.){1,999})\]:[ \t]*(?:<[^<>\n]*>|[^\s<]\S*)(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*\r?$/;
const HTML_TYPE_1 = /^ {0,3}<(script|pre|style|textarea)(?:[\s>]|$)/i;
const HTML_TYPE_6 =
  /^ {0,3}<\/?(address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:\s|\/?>|$)/i;
const HTML_TYPE_7 =
  /^ {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*\/?>|<\/[A-Za-z][A-Za-z0-9-]*\s*>)[ \t]*$/;
/** `aiwg-cite annotate` appends its audit report below this line; it is generated, never checked. */
const AUDIT_REPORT = /^<!-- aiwg-cite:audit-report -->[ \t]*\r?$/;
const SUPPRESS = /<!--\s*aiwg-cite-disable-next-line\b([^>]*?)-->/g;

type HtmlEnd = { readonly kind: 'marker'; readonly marker: RegExp } | { readonly kind: 'blank' };

/** Normalises a link label for matching: case-folded, inner whitespace collapsed (CommonMark §4.7). */
export function normaliseLabel(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Scans markdown text into regions, definitions, footers and suppressions. */
export function scanMarkdown(input: string, options: ScanOptions = {}): ScannedDocument {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const includeCode = options.includeCode === true;
  const lineStarts: number[] = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lineStarts.push(at + 1);
  const lineCount = text.length > 0 && text.endsWith('\n') ? lineStarts.length - 1 : lineStarts.length;

  const regions: Region[] = [];
  const definitions = new Set<string>();
  const sourcesSections: Range[] = [];
  const prose: Range[] = [];

  const lineEnd = (line: number): number => {
    const next = lineStarts[line + 1];
    if (next === undefined) return text.length;
    return text.charCodeAt(next - 2) === 13 ? next - 2 : next - 1;
  };
  const lineText = (line: number): string => text.slice(lineStarts[line], lineEnd(line));
  const regionEnd = (line: number): number => lineStarts[line + 1] ?? text.length;
  const push = (kind: RegionKind, fromLine: number, toLine: number): void => {
    const start = lineStarts[fromLine] as number;
    const end = regionEnd(toLine);
    const last = regions[regions.length - 1];
    if (last !== undefined && last.kind === kind && last.end === start) regions[regions.length - 1] = { kind, start: last.start, end };
    else regions.push({ kind, start, end });
  };

  let line = 0;
  const frontmatter = /^(---|\+\+\+)[ \t]*\r?$/.exec(lineText(0));
  if (frontmatter !== null) {
    const closer = frontmatter[1] === '---' ? /^(---|\.\.\.)[ \t]*$/ : /^\+\+\+[ \t]*$/;
    for (let end = 1; end < lineCount; end += 1) {
      if (closer.test(lineText(end))) {
        push('frontmatter', 0, end);
        line = end + 1;
        break;
      }
    }
  }

  let paragraphStart = -1;
  let inList = false;
  let previousBlank = true;
  let sourcesStart = -1;
  const closeParagraph = (atLine: number): void => {
    if (paragraphStart !== -1) prose.push({ start: lineStarts[paragraphStart] as number, end: regionEnd(atLine - 1) });
    paragraphStart = -1;
  };
  const closeSources = (atLine: number): void => {
    if (sourcesStart !== -1) sourcesSections.push({ start: sourcesStart + 1, end: atLine + 1 });
    sourcesStart = -1;
  };

  while (line < lineCount) {
    const content = lineText(line);
    if (content.trim() === '') {
      closeParagraph(line);
      previousBlank = true;
      line += 1;
      continue;
    }

    if (AUDIT_REPORT.test(content)) {
      closeParagraph(line);
      push('html', line, lineCount - 1);
      line = lineCount;
      break;
    }

    const fence = FENCE.exec(content);
    if (fence !== null && !(fence[1]?.startsWith('`') && fence[2]?.includes('`'))) {
      closeParagraph(line);
      const marker = fence[1] as string;
      const closing = new RegExp(`^(?:>[ \\t]?)*[ \\t]*${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`);
      let end = line + 1;
      while (end < lineCount && !closing.test(lineText(end))) end += 1;
      const last = Math.min(end, lineCount - 1);
      if (!includeCode) push('code', line, last);
      else prose.push({ start: lineStarts[line] as number, end: regionEnd(last) });
      line = last + 1;
      previousBlank = false;
      continue;
    }

    const indent = leadingColumns(content);
    if (indent >= 4 && paragraphStart === -1 && !inList && previousBlank) {
      let end = line;
      for (let next = line + 1; next < lineCount; next += 1) {
        const nextText = lineText(next);
        if (nextText.trim() === '') continue;
        if (leadingColumns(nextText) < 4) break;
        end = next;
      }
      if (!includeCode) push('code', line, end);
      else prose.push({ start: lineStarts[line] as number, end: regionEnd(end) });
      line = end + 1;
      previousBlank = false;
      continue;
    }

    const htmlEnd = htmlBlockEnd(content, paragraphStart !== -1);
    if (htmlEnd !== null) {
      closeParagraph(line);
      let end = line;
      if (htmlEnd.kind === 'marker') {
        while (end < lineCount && !htmlEnd.marker.test(lineText(end))) end += 1;
      } else {
        while (end + 1 < lineCount && lineText(end + 1).trim() !== '') end += 1;
      }
      const last = Math.min(end, lineCount - 1);
      push('html', line, last);
      line = last + 1;
      previousBlank = false;
      continue;
    }

    const startsBlock = paragraphStart === -1 || LIST_ITEM.test(content) || /^ {0,3}>/.test(content);
    if (startsBlock) {
      const definition = DEFINITION.exec(content.replace(CONTAINER_PREFIX, ''));
      if (definition !== null) {
        if (LIST_ITEM.test(content)) inList = true;
        closeParagraph(line);
        definitions.add(normaliseLabel(definition[1] as string));
        push('definition', line, line);
        line += 1;
        previousBlank = false;
        continue;
      }
    }

    const heading = ATX_HEADING.exec(content);
    if (heading !== null) {
      closeParagraph(line);
      const level = (heading[1] as string).length;
      if (level <= 2) closeSources(line);
      if (level <= 2 && /^sources$/i.test((heading[2] ?? '').trim())) sourcesStart = line + 1;
      prose.push({ start: lineStarts[line] as number, end: regionEnd(line) });
      line += 1;
      previousBlank = false;
      continue;
    }

    if (LIST_ITEM.test(content)) {
      closeParagraph(line);
      inList = true;
    } else if (indent === 0 && previousBlank) {
      inList = false;
    }
    if (paragraphStart === -1) paragraphStart = line;
    previousBlank = false;
    line += 1;
  }
  closeParagraph(lineCount);
  closeSources(lineCount);

  const inlineRegions = includeCode ? [] : findCodeSpans(text, prose);
  inlineRegions.push(...findInlineComments(text, prose));
  const allRegions = inlineRegions.length === 0 ? regions : mergeRegions(regions, inlineRegions);

  return {
    text,
    lineStarts,
    regions: allRegions,
    definitions,
    sourcesSections,
    suppressions: findSuppressions(text, lineStarts),
  };
}

function leadingColumns(line: string): number {
  let columns = 0;
  for (const char of line) {
    if (char === ' ') columns += 1;
    else if (char === '\t') columns += 4 - (columns % 4);
    else break;
  }
  return columns;
}

function htmlBlockEnd(line: string, interruptsParagraph: boolean): HtmlEnd | null {
  const trimmed = line.trimStart();
  if (!trimmed.startsWith('<') || line.length - trimmed.length > 3) return null;
  const type1 = HTML_TYPE_1.exec(line);
  if (type1 !== null) return { kind: 'marker', marker: new RegExp(`</${type1[1]}>`, 'i') };
  if (trimmed.startsWith('<!--')) return { kind: 'marker', marker: /-->/ };
  if (trimmed.startsWith('<?')) return { kind: 'marker', marker: /\?>/ };
  if (trimmed.startsWith('<![CDATA[')) return { kind: 'marker', marker: /\]\]>/ };
  if (/^<![A-Za-z]/.test(trimmed)) return { kind: 'marker', marker: />/ };
  if (HTML_TYPE_6.test(line)) return { kind: 'blank' };
  if (!interruptsParagraph && HTML_TYPE_7.test(line)) return { kind: 'blank' };
  return null;
}

/** A run of backticks. */
interface BacktickRun {
  readonly start: number;
  readonly length: number;
}

/**
 * Code spans in ascending prose ranges: a backtick run closes at the next run of the same length
 * in the same range (CommonMark §6.1). All runs are found in one pass over the document.
 */
function findCodeSpans(text: string, ranges: readonly Range[]): Region[] {
  const runs: BacktickRun[] = [];
  for (let at = text.indexOf('`'); at !== -1; ) {
    let end = at;
    while (text.charCodeAt(end) === 96) end += 1;
    const escaped = isEscaped(text, at);
    if (end - at > (escaped ? 1 : 0)) runs.push({ start: escaped ? at + 1 : at, length: end - at - (escaped ? 1 : 0) });
    at = text.indexOf('`', end);
  }
  const found: Region[] = [];
  let first = 0;
  for (const range of ranges) {
    while (first < runs.length && (runs[first] as BacktickRun).start < range.start) first += 1;
    let last = first;
    while (last < runs.length && (runs[last] as BacktickRun).start < range.end) last += 1;
    for (let open = first; open < last; open += 1) {
      const opener = runs[open] as BacktickRun;
      for (let close = open + 1; close < last; close += 1) {
        const closer = runs[close] as BacktickRun;
        if (closer.length !== opener.length) continue;
        found.push({ kind: 'code', start: opener.start, end: closer.start + closer.length });
        open = close;
        break;
      }
    }
    first = last;
  }
  return found;
}

/** Inline `<!-- … -->` comments in ascending prose ranges; an unclosed one runs to the end of its range. */
function findInlineComments(text: string, ranges: readonly Range[]): Region[] {
  const found: Region[] = [];
  let index = 0;
  let at = text.indexOf('<!--');
  while (at !== -1 && index < ranges.length) {
    const range = ranges[index] as Range;
    if (at >= range.end) {
      index += 1;
      continue;
    }
    if (at < range.start) {
      at = text.indexOf('<!--', range.start);
      continue;
    }
    const close = text.indexOf('-->', at + 4);
    const end = close === -1 || close >= range.end ? range.end : close + 3;
    found.push({ kind: 'html', start: at, end });
    at = text.indexOf('<!--', end);
  }
  return found;
}

/** True when the character at `offset` is preceded by an odd number of backslashes. */
export function isEscaped(text: string, offset: number): boolean {
  let count = 0;
  for (let at = offset - 1; at >= 0 && text.charCodeAt(at) === 92; at -= 1) count += 1;
  return count % 2 === 1;
}

function mergeRegions(blocks: readonly Region[], inline: readonly Region[]): Region[] {
  const all = [...blocks, ...inline].sort((a, b) => a.start - b.start);
  const merged: Region[] = [];
  for (const region of all) {
    const last = merged[merged.length - 1];
    if (last !== undefined && region.start < last.end) {
      if (region.end > last.end) merged[merged.length - 1] = { kind: last.kind, start: last.start, end: region.end };
    } else {
      merged.push(region);
    }
  }
  return merged;
}

function findSuppressions(text: string, lineStarts: readonly number[]): Suppression[] {
  if (!text.includes('aiwg-cite-disable')) return [];
  const found: Suppression[] = [];
  for (const match of text.matchAll(SUPPRESS)) {
    const endLine = lineOf(lineStarts, (match.index ?? 0) + match[0].length - 1);
    const rules = (match[1] ?? '').split(/[\s,]+/).filter((rule) => rule !== '');
    found.push({ line: endLine + 1, rules });
  }
  return found;
}

/** The 1-based line of an offset. */
export function lineOf(lineStarts: readonly number[], offset: number): number {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((lineStarts[mid] as number) <= offset) low = mid;
    else high = mid - 1;
  }
  return low + 1;
}

/** The 1-based line and UTF-16 column of an offset. */
export function positionOf(lineStarts: readonly number[], offset: number): { line: number; column: number } {
  const line = lineOf(lineStarts, offset);
  return { line, column: offset - (lineStarts[line - 1] as number) + 1 };
}

/** A cursor that answers "is this offset inside a region?" for ascending offsets in O(1) amortised. */
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
