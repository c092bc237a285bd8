/**
 * Footnote markers and definitions in markdown (SPEC §7.1): GFM footnotes (`[^label]` with
 * `[^label]: text`, https://github.github.com/gfm/#footnotes) and numbered lists under a heading
 * ending in "Footnotes", referenced as `[N]` or `<sup>N</sup>`. Code, HTML blocks and frontmatter
 * are skipped.
 */
import { createRegionCursor, isCodeKind, positionOf, type Region, type RegionKind, scanMarkdown } from '../markdown/scan.ts';

/** How a footnote is defined. */
export type FootnoteStyle = 'gfm' | 'list';

/** A footnote definition. */
export interface FootnoteDefinition {
  /** Unique within the document: `^label` for GFM, `<section>#N` for list items. */
  readonly key: string;
  /** The label as written: `1`, `smith`. */
  readonly label: string;
  readonly style: FootnoteStyle;
  /** The definition's text without its label, continuation lines joined with `\n`. */
  readonly text: string;
  readonly line: number;
  readonly column: number;
  /** UTF-16 offsets of the text in the document. */
  readonly start: number;
  readonly end: number;
  /** The H2 the footnote belongs to: the one above its first marker, else the one above it. */
  readonly section: string;
  /** Markers that refer to this definition. */
  readonly references: number;
}

/** A footnote marker in prose. */
export interface FootnoteMarker {
  readonly label: string;
  readonly style: 'caret' | 'bracket' | 'sup' | 'bare';
  readonly text: string;
  readonly line: number;
  readonly column: number;
  readonly section: string;
  /** The key of the definition it refers to, or `null` when none exists. */
  readonly definition: string | null;
}

/** Every footnote of a document. */
export interface ParsedFootnotes {
  readonly definitions: readonly FootnoteDefinition[];
  readonly markers: readonly FootnoteMarker[];
}

/** Options of {@link parseFootnotes}. */
export interface FootnoteParseOptions {
  /** Count bare numerals after punctuation (`recovery.6`) as markers. @default false */
  readonly bareNumerals?: boolean;
}

/** The section name of text above the first H2. */
export const NO_SECTION = '(before the first section)';

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const GFM_DEFINITION = /^ {0,3}\[\^([^\]\s]+)\]:[ \t]?(.*)$/;
const LIST_ITEM = /^ {0,3}(\d{1,4})[.)][ \t]+(.*)$/;
const FOOTNOTES_HEADING = /footnotes\W*$/i;
const CARET = /\[\^([^\]\s]+)\](?!:)/g;
const BRACKET = /\[(\d{1,4})\](?![([:])/g;
const SUP = /<sup>\s*\[?(\d{1,4})\]?\s*<\/sup>/gi;
const BARE = /(?<=[a-z][.,;:!?)"”’])(\d{1,3})(?=\s|$)/g;

/** Regions whose text is never a footnote: code, HTML blocks, comments, frontmatter, math (inline HTML holds `<sup>` markers). */
function isSkipped(kind: RegionKind): boolean {
  return isCodeKind(kind) || kind === 'html-block' || kind === 'comment' || kind === 'frontmatter' || kind === 'math';
}

interface RawDefinition {
  label: string;
  style: FootnoteStyle;
  lines: string[];
  line: number;
  start: number;
  end: number;
  ownSection: string;
  ownSectionIsFootnotes: boolean;
}

/** Finds footnote definitions and markers and links each marker to its definition. */
export function parseFootnotes(input: string, options: FootnoteParseOptions = {}): ParsedFootnotes {
  const document = scanMarkdown(input);
  const { text, lineStarts } = document;
  const skipped = document.regions.filter((region) => isSkipped(region.kind));
  const inSkipped = createRegionCursor(skipped);
  const lines = splitLines(text, lineStarts);

  const definitions: RawDefinition[] = [];
  const proseLines: number[] = [];
  let section = NO_SECTION;
  let sectionIsFootnotes = false;
  let footnotesLevel = 0;
  let current: RawDefinition | null = null;
  let blankRun = 0;

  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] as string;
    const start = lineStarts[index] as number;
    if (inSkipped(start) !== null) {
      current = null;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading !== null) {
      current = null;
      const level = (heading[1] as string).length;
      const title = (heading[2] as string).trim();
      if (level === 2) {
        section = title;
        sectionIsFootnotes = FOOTNOTES_HEADING.test(title);
      }
      if (footnotesLevel > 0 && level <= footnotesLevel) footnotesLevel = 0;
      if (FOOTNOTES_HEADING.test(title)) footnotesLevel = level;
      continue;
    }
    if (line.trim() === '') {
      blankRun += 1;
      continue;
    }
    const gfm = GFM_DEFINITION.exec(line);
    const item = gfm === null && footnotesLevel > 0 ? LIST_ITEM.exec(line) : null;
    if (gfm !== null || item !== null) {
      const match = (gfm ?? item) as RegExpExecArray;
      const body = match[2] as string;
      const bodyStart = start + line.length - body.length;
      current = {
        label: match[1] as string,
        style: gfm !== null ? 'gfm' : 'list',
        lines: [body],
        line: index + 1,
        start: bodyStart,
        end: start + line.length,
        ownSection: section,
        ownSectionIsFootnotes: sectionIsFootnotes,
      };
      definitions.push(current);
      blankRun = 0;
      continue;
    }
    const indent = /^[ \t]*/.exec(line)?.[0].length ?? 0;
    if (current !== null && ((blankRun === 0 && indent > 0) || indent >= 4)) {
      current.lines.push(line.trim());
      current.end = start + line.length;
      blankRun = 0;
      continue;
    }
    current = null;
    blankRun = 0;
    if (footnotesLevel === 0) proseLines.push(index);
  }

  const sectionAt = sectionIndex(lines, lineStarts, inSkipped);
  const markers = findMarkers(lineStarts, lines, proseLines, document.definitions, options, sectionAt, skipped);
  return link(definitions, markers, lineStarts);
}

function splitLines(text: string, lineStarts: readonly number[]): string[] {
  const lines: string[] = [];
  for (let index = 0; index < lineStarts.length; index += 1) {
    const start = lineStarts[index] as number;
    const next = lineStarts[index + 1];
    let end = next === undefined ? text.length : next - 1;
    if (end > start && text.charCodeAt(end - 1) === 13) end -= 1;
    if (next === undefined && start >= text.length) break;
    lines.push(text.slice(start, end));
  }
  return lines;
}

function sectionIndex(lines: readonly string[], lineStarts: readonly number[], inSkipped: (offset: number) => Region | null): string[] {
  const sections: string[] = [];
  let section = NO_SECTION;
  for (let index = 0; index < lines.length; index += 1) {
    const heading = inSkipped(lineStarts[index] as number) === null ? HEADING.exec(lines[index] as string) : null;
    if (heading !== null && (heading[1] as string).length === 2) section = (heading[2] as string).trim();
    sections.push(section);
  }
  return sections;
}

interface RawMarker {
  label: string;
  style: FootnoteMarker['style'];
  text: string;
  offset: number;
  section: string;
}

function findMarkers(
  lineStarts: readonly number[],
  lines: readonly string[],
  proseLines: readonly number[],
  referenceLabels: ReadonlySet<string>,
  options: FootnoteParseOptions,
  sectionAt: readonly string[],
  skipped: readonly Region[],
): RawMarker[] {
  const markers: RawMarker[] = [];
  const inCode = (offset: number) => skipped.some((region) => offset >= region.start && offset < region.end);
  for (const index of proseLines) {
    const line = lines[index] as string;
    const lineStart = lineStarts[index] as number;
    const section = sectionAt[index] as string;
    const add = (label: string, style: FootnoteMarker['style'], raw: string, at: number) => {
      const offset = lineStart + at;
      if (!inCode(offset)) markers.push({ label, style, text: raw, offset, section });
    };
    for (const match of line.matchAll(CARET)) add(match[1] as string, 'caret', match[0], match.index ?? 0);
    for (const match of line.matchAll(BRACKET)) {
      if (referenceLabels.has(match[1] as string)) continue;
      add(match[1] as string, 'bracket', match[0], match.index ?? 0);
    }
    for (const match of line.matchAll(SUP)) add(match[1] as string, 'sup', match[0], match.index ?? 0);
    if (options.bareNumerals === true) {
      for (const match of line.matchAll(BARE)) add(match[1] as string, 'bare', match[0], match.index ?? 0);
    }
  }
  return markers.sort((a, b) => a.offset - b.offset);
}

function link(raw: readonly RawDefinition[], rawMarkers: readonly RawMarker[], lineStarts: readonly number[]): ParsedFootnotes {
  const keyOf = (definition: RawDefinition) =>
    definition.style === 'gfm'
      ? `^${definition.label}`
      : `${definition.ownSectionIsFootnotes ? '' : definition.ownSection}#${definition.label}`;
  const byKey = new Map<string, RawDefinition>();
  for (const definition of raw) if (!byKey.has(keyOf(definition))) byKey.set(keyOf(definition), definition);

  const firstSection = new Map<string, string>();
  const references = new Map<string, number>();
  // `[N]` is a footnote marker only in a document that numbers its footnotes in a list; elsewhere
  // it is more likely an index or a bracketed number.
  const hasList = raw.some((definition) => definition.style === 'list');
  const candidates = hasList ? rawMarkers : rawMarkers.filter((marker) => marker.style !== 'bracket');
  const markers: FootnoteMarker[] = candidates.map((marker) => {
    const target = resolveMarker(marker, byKey);
    if (target !== null) {
      if (!firstSection.has(target)) firstSection.set(target, marker.section);
      references.set(target, (references.get(target) ?? 0) + 1);
    }
    const { line, column } = positionOf(lineStarts, marker.offset);
    return { label: marker.label, style: marker.style, text: marker.text, line, column, section: marker.section, definition: target };
  });

  const definitions: FootnoteDefinition[] = [];
  for (const [key, definition] of byKey) {
    const { column } = positionOf(lineStarts, definition.start);
    const ownSection = definition.ownSectionIsFootnotes ? null : definition.ownSection;
    const section = definition.style === 'gfm' ? (firstSection.get(key) ?? ownSection) : (ownSection ?? firstSection.get(key));
    definitions.push({
      key,
      label: definition.label,
      style: definition.style,
      text: definition.lines.join('\n').trim(),
      line: definition.line,
      column,
      start: definition.start,
      end: definition.end,
      section: section ?? NO_SECTION,
      references: references.get(key) ?? 0,
    });
  }
  definitions.sort((a, b) => a.start - b.start);
  return { definitions, markers };
}

function resolveMarker(marker: RawMarker, byKey: ReadonlyMap<string, RawDefinition>): string | null {
  if (marker.style === 'caret') return byKey.has(`^${marker.label}`) ? `^${marker.label}` : null;
  const local = `${marker.section}#${marker.label}`;
  if (byKey.has(local)) return local;
  const shared = `#${marker.label}`;
  if (byKey.has(shared)) return shared;
  if (byKey.has(`^${marker.label}`)) return `^${marker.label}`;
  for (const key of byKey.keys()) if (key.endsWith(`#${marker.label}`)) return key;
  return null;
}
