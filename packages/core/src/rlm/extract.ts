import { createRegionCursor, isCodeKind, isEscapedAt, normaliseLabel, type Region, type ScannedDocument } from '../markdown/scan.ts';
import { classifyInner, isClassified, parseFooterBullet, type RlmMalformed, type RlmParsed } from './grammar.ts';

/** Where a candidate stands in its document. */
export interface Located {
  /** The citation exactly as written. */
  readonly text: string;
  /** UTF-16 offset of its first character. */
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

/** A well-formed RLM citation with its position. */
export interface RlmCitation extends Located, RlmParsed {}

/** A near-miss with its position. */
export interface RlmNearMiss extends Located, RlmMalformed {}

/** Everything RLM-shaped found in one document. */
export interface RlmExtraction {
  readonly citations: readonly RlmCitation[];
  readonly malformed: readonly RlmNearMiss[];
  /** Bracket candidates skipped because they stand inside code. */
  readonly skippedInCode: number;
}

const MARKER_INNER = /^[A-Z][A-Z_-]+\s*:/;
const REF_ID = /^REF-\S+$/;
const FOOTER_BULLET = /^([ \t]*[-*+][ \t]+)(.*?)[ \t]*\r?$/;

/** Extracts RLM citations and near-misses from a scanned document (SPEC §2). */
export function extractRlm(document: ScannedDocument): RlmExtraction {
  const { text, definitions, lineStarts } = document;
  const citations: RlmCitation[] = [];
  const malformed: RlmNearMiss[] = [];
  let skippedInCode = 0;
  const regionAt = createRegionCursor(document.regions);
  const regions = document.regions;
  // Candidates come in ascending order: the region after the last one passed, and the line of the
  // last candidate, only move forward.
  let regionIndex = 0;
  let line = 1;

  // The candidates of `\[([^[\]\n]*)\]`: a `[` is one when the next `]` comes before the next `[`
  // and the next line feed. Three cursors that only move forward, each an indexOf; nothing is
  // copied for a bracket that is skipped.
  let close = -1;
  let lineFeed = -1;
  for (let start = text.indexOf('['); start !== -1; ) {
    const candidate = start;
    start = text.indexOf('[', candidate + 1);
    if (close < candidate) {
      close = text.indexOf(']', candidate + 1);
      if (close === -1) break;
    }
    if (start !== -1 && start < close) continue;
    if (lineFeed < candidate) {
      lineFeed = text.indexOf('\n', candidate + 1);
      if (lineFeed === -1) lineFeed = text.length;
    }
    if (lineFeed < close) continue;
    const end = close + 1;
    const region = regionAt(candidate);
    if (region !== null) {
      if (isCodeKind(region.kind) && isClassified(text.slice(candidate + 1, close))) skippedInCode += 1;
      continue;
    }
    // No region holds the start: the candidate is outside all of them unless the next one starts before `end`.
    while (regionIndex < regions.length && (regions[regionIndex] as Region).end <= candidate) regionIndex += 1;
    const next = regions[regionIndex];
    if (next !== undefined && next.start < end) continue;
    if (isEscapedAt(document, candidate) || isEscapedAt(document, close)) continue;
    const inner = text.slice(candidate + 1, close);
    if (isExcluded(text, candidate, end, inner, definitions)) continue;
    while (line < lineStarts.length && (lineStarts[line] as number) <= candidate) line += 1;
    const lineStart = lineStarts[line - 1] as number;
    if (isSnippetInclude(text, lineStart, candidate)) continue;
    const classification = classifyInner(inner);
    if (classification.type === 'none') continue;
    const column = candidate - lineStart + 1;
    if (classification.type === 'citation') {
      const { id, hash, lines, form, needsExistingFile } = classification.citation;
      if (form === 'bare' && isGluedToWord(text, candidate)) continue;
      citations.push({ text: text.slice(candidate, end), offset: candidate, line, column, id, hash, lines, form, needsExistingFile });
    } else {
      const { defects, normalised } = classification.malformed;
      malformed.push({ text: text.slice(candidate, end), offset: candidate, line, column, defects, normalised });
    }
  }

  for (const section of document.sourcesSections) {
    for (let line = section.start; line < section.end; line += 1) {
      const lineStart = lineStarts[line - 1] as number;
      const lineEnd = lineStarts[line] ?? text.length;
      const bullet = FOOTER_BULLET.exec(text.slice(lineStart, lineEnd).replace(/\n$/, ''));
      if (bullet === null || regionAt(lineStart) !== null) continue;
      const content = bullet[2] as string;
      const parsed = parseFooterBullet(content);
      if (parsed === null) continue;
      const offset = lineStart + (bullet[1] as string).length;
      citations.push({ ...parsed, text: content, offset, line, column: offset - lineStart + 1 });
    }
  }
  if (document.sourcesSections.length > 0) citations.sort((a, b) => a.offset - b.offset);
  return { citations, malformed, skippedInCode };
}

/** The exclusion rules of SPEC §2.2 for a `[…]` candidate at `[start, end)`. */
function isExcluded(text: string, start: number, end: number, inner: string, definitions: ReadonlySet<string>): boolean {
  const before = text.charCodeAt(start - 1);
  if (before === 33 /* ! */ || before === 91 /* [ */) return true;
  const after = text.charCodeAt(end);
  if (after === 40 /* ( */) return true;
  if (after === 91 /* [ */) {
    const close = text.indexOf(']', end + 1);
    const newline = text.indexOf('\n', end + 1);
    if (close !== -1 && (newline === -1 || close < newline)) {
      const label = text.slice(end + 1, close);
      if (label === '' || (definitions.size > 0 && definitions.has(normaliseLabel(label)))) return true;
    }
  }
  if (after === 58 /* : */ && startsLine(text, start)) return true;
  if (inner === '' || inner === ' ' || inner === 'x' || inner === 'X' || inner === 'un-versioned') return true;
  const first = inner.charCodeAt(0);
  if (first === 94 /* ^ */ || first === 64 /* @ */) return true;
  if (inner.includes('://') || (first === 82 /* R */ && REF_ID.test(inner)) || (first >= 65 && first <= 90 && MARKER_INNER.test(inner))) {
    return true;
  }
  return definitions.size > 0 && definitions.has(normaliseLabel(inner));
}

/**
 * A VitePress or Docusaurus snippet include, `<<< @/path#region [title]`: the bracket is a display
 * title, not a citation.
 */
function isSnippetInclude(text: string, lineStart: number, offset: number): boolean {
  let at = lineStart;
  while (at < offset && (text.charCodeAt(at) === 32 || text.charCodeAt(at) === 9)) at += 1;
  return text.startsWith('<<<', at) && at + 3 < offset;
}

/**
 * A bracket right after `$` or an ASCII letter or digit: `$[/path]` is template or shell syntax,
 * `$5[/mo]` a price, `argv[i]` an index. A reader sees no citation there, so a bare `[path]` (no
 * hash, no line range) glued to such a character is not one. Other scripts write no spaces
 * before a bracket (`详见[docs/a.md]`), so only ASCII counts.
 */
function isGluedToWord(text: string, start: number): boolean {
  const before = text.charCodeAt(start - 1);
  return before === 36 /* $ */ || (before < 128 && /[A-Za-z0-9]/.test(String.fromCharCode(before)));
}

function startsLine(text: string, offset: number): boolean {
  for (let at = offset - 1; at >= 0; at -= 1) {
    const code = text.charCodeAt(at);
    if (code === 10) return true;
    if (code !== 32 && code !== 9) return false;
  }
  return true;
}
