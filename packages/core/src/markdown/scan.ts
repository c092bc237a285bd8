/**
 * A scanned markdown document: the markdown model (model.ts) plus what the citation checks read
 * off it — `## Sources` footers and `aiwg-cite-disable-next-line` directives. Every recogniser in
 * the code base takes its markdown from here; none detects fences, HTML or links on its own.
 */
import { normaliseLabel } from './definitions.ts';
import {
  createRegionCursor,
  type Heading,
  isEscapedAt,
  isOutsideRegions,
  isProse,
  lineStartsOf,
  type MarkdownModel,
  parseMarkdown,
} from './model.ts';
import { isCodeKind, isHtmlKind, type Range, type Region, type RegionKind } from './types.ts';

export type { Heading, MarkdownModel, Range, Region, RegionKind };
export { createRegionCursor, isCodeKind, isEscapedAt, isHtmlKind, isOutsideRegions, isProse, lineStartsOf, normaliseLabel, parseMarkdown };

/** A `<!-- aiwg-cite-disable-next-line [rules] -->` directive: `rules` empty means every rule. */
export interface Suppression {
  readonly line: number;
  readonly rules: readonly string[];
}

/** The result of scanning one markdown document. */
export interface ScannedDocument extends MarkdownModel {
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

/** `aiwg-cite annotate` appends its audit report below this comment; it is generated, never checked. */
const AUDIT_REPORT = '<!-- aiwg-cite:audit-report -->';
const SUPPRESS = /^<!--\s*aiwg-cite-disable-next-line\b([^>]*?)-->/;
const SOURCES = /^sources$/i;

/** Scans markdown text into its model, footers and suppressions. */
export function scanMarkdown(input: string, options: ScanOptions = {}): ScannedDocument {
  const model = parseMarkdown(input);
  const { text, lineStarts } = model;
  let regions: readonly Region[] = model.regions;
  let audit: Region | undefined;
  let hasComment = false;
  for (const region of regions) {
    if (region.kind !== 'comment') continue;
    hasComment = true;
    if (text.startsWith(AUDIT_REPORT, region.start) && startsLine(text, region.start)) {
      audit = region;
      break;
    }
  }
  if (audit !== undefined) {
    const auditStart = audit.start;
    regions = [...regions.filter((region) => region.end <= auditStart), { kind: 'html-block', start: auditStart, end: text.length }];
  }
  // Directives stand in comments only: a document without one has none to look for.
  const suppressions = hasComment ? findSuppressions(text, regions, lineStarts) : [];
  if (options.includeCode === true) regions = regions.filter((region) => !isCodeKind(region.kind));
  const sourcesSections = findSourcesSections(model.headings, lineStarts, text.length);
  // Written out rather than spread: a spread of the model cost more than the rest of this function.
  return {
    text,
    lineStarts,
    regions,
    escapes: model.escapes,
    definitions: model.definitions,
    footnotes: model.footnotes,
    headings: model.headings,
    sourcesSections,
    suppressions,
  };
}

function startsLine(text: string, offset: number): boolean {
  for (let at = offset - 1; at >= 0; at -= 1) {
    const code = text.charCodeAt(at);
    if (code === 10 || code === 13) return true;
    if (code !== 32 && code !== 9) return false;
  }
  return true;
}

/** `## Sources` (or `# Sources`) footers: from the line after the heading to the next heading of level 1 or 2. */
function findSourcesSections(headings: readonly Heading[], lineStarts: readonly number[], length: number): Range[] {
  const sections: Range[] = [];
  let open = -1;
  for (const heading of headings) {
    if (heading.level > 2) continue;
    const line = lineOf(lineStarts, heading.start);
    if (open !== -1) sections.push({ start: open, end: line });
    open = SOURCES.test(heading.title) ? lineOf(lineStarts, heading.end) + 1 : -1;
  }
  if (open !== -1) sections.push({ start: open, end: lineOf(lineStarts, length) + 1 });
  return sections;
}

/** Directives in HTML comments; each silences the line after the comment's last line. */
function findSuppressions(text: string, regions: readonly Region[], lineStarts: readonly number[]): Suppression[] {
  if (!text.includes('aiwg-cite-disable')) return [];
  const found: Suppression[] = [];
  for (const region of regions) {
    if (region.kind !== 'comment') continue;
    let at = region.start;
    while (text.charCodeAt(at) === 32 || text.charCodeAt(at) === 9) at += 1;
    const match = SUPPRESS.exec(text.slice(at, region.end));
    if (match === null) continue;
    const endLine = lineOf(lineStarts, at + match[0].length - 1);
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
