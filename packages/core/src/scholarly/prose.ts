import type { ScannedDocument } from '../markdown/scan.ts';

/** A link `[text](destination)` in prose, with UTF-16 offsets. */
export interface LinkSpan {
  readonly start: number;
  readonly end: number;
  readonly destinationStart: number;
  readonly destinationEnd: number;
}

/** A sentence-like unit of prose. Headings and table rows are units of their own. */
export interface Sentence {
  readonly start: number;
  readonly end: number;
  /** Index of the paragraph (blank-line separated block) the sentence belongs to. */
  readonly paragraph: number;
  readonly kind: 'prose' | 'heading' | 'table';
}

/** The prose of a document, as views of equal length so offsets stay exact. */
export interface ProseView {
  /** The document text (no BOM). */
  readonly text: string;
  /** Non-prose regions and images blanked out (newlines kept): DOIs, arXiv ids and URLs are read here. */
  readonly withDestinations: string;
  /** Also link destinations, autolinks and bare URLs blanked: every other citation is read here. */
  readonly citable: string;
  readonly links: readonly LinkSpan[];
  /** Autolinks (`<https://…>`) and bare URLs, so an edit never lands inside one. */
  readonly urls: readonly { readonly start: number; readonly end: number }[];
}

/** Regions that hold addresses: DOIs, arXiv ids and URLs are read there, other citations are not. */
const ADDRESS_KINDS = new Set(['destination', 'reference', 'autolink', 'markup']);

/** Spaces for every character of `text` except line breaks, so lines and offsets are unchanged. */
function blankOut(text: string): string {
  return text.replace(/[^\r\n]/g, ' ');
}

/** `text` with each of the sorted, non-overlapping `ranges` blanked out. */
function blankRanges(text: string, ranges: readonly { readonly start: number; readonly end: number }[]): string {
  if (ranges.length === 0) return text;
  let out = '';
  let cursor = 0;
  for (const range of ranges) {
    if (range.start < cursor) continue;
    out += text.slice(cursor, range.start) + blankOut(text.slice(range.start, range.end));
    cursor = range.end;
  }
  return out + text.slice(cursor);
}

/**
 * Builds the prose views of a scanned document (SPEC §1.3) from the markdown model: code, HTML,
 * frontmatter, math, reference definitions and images never hold citations; link destinations and
 * autolinks feed only DOI, arXiv and URL checks.
 */
export function buildProseView(document: ScannedDocument): ProseView {
  const { text, regions } = document;
  const withDestinations = blankRanges(
    text,
    regions.filter((region) => !ADDRESS_KINDS.has(region.kind)),
  );
  const links: LinkSpan[] = [];
  const urls: { start: number; end: number }[] = [];
  let opener = -1;
  for (const region of regions) {
    if (region.kind === 'markup' && region.end - region.start === 1 && text.charCodeAt(region.start) === 91) {
      opener = region.start;
    } else if (region.kind === 'destination' && opener !== -1) {
      links.push({ start: opener, end: region.end, destinationStart: region.start + 1, destinationEnd: region.end });
      opener = -1;
    } else if (region.kind === 'autolink') {
      urls.push({ start: region.start, end: region.end });
    }
  }
  return { text, withDestinations, citable: blankRanges(text, regions), links, urls };
}

// No two quantifiers over the same characters side by side: a line of blanks (a blanked code span)
// was quadratic with `[ \t]*(?:>[ \t]?)*[ \t]*`.
const LIST_ITEM = /^[ \t]*(?:>[ \t]*)*(?:[-*+]|\d{1,9}[.)])[ \t]+/;
const HEADING = /^[ \t]{0,3}#{1,6}(?:[ \t]|$)/;

/** Where a sentence's words start: after the block-quote and list markers that open its line. */
export function wordsStart(citable: string, sentence: Sentence): number {
  const marker = LIST_ITEM.exec(citable.slice(sentence.start, Math.min(sentence.end, sentence.start + 64)));
  const from = sentence.start + (marker?.[0].length ?? 0);
  const first = citable.slice(from, sentence.end).search(/\S/);
  return first === -1 ? sentence.end : from + first;
}
const TABLE_ROW = /^[ \t]*\|/;
/** Words after which a period does not end a sentence. */
const ABBREVIATIONS =
  /(?:\bet al|\be\.g|\bi\.e|\bvs|\bcf|\bpp?|\bFig|\bfig|\bEq|\beq|\bSec|\bVol|\bNo|\bDr|\bMr|\bMrs|\bMs|\bProf|\bapprox|\bca|\bInc|\bLtd|\bJr|\bSr|\bSt|\bv|(?:^|[\s(])\p{Lu})$/u;
// Starts only at the first of a run of enders: from inside a run the match could end nowhere else,
// and trying every start made a long run of `.` or `?` quadratic.
const ENDER = /(?<![.!?])[.!?]+["'”’)\]*_]*(?=[ \t]|\r?\n|$)/g;

/** Splits the citable view into sentences, each tagged with its paragraph. */
export function splitSentences(citable: string): Sentence[] {
  const sentences: Sentence[] = [];
  let paragraph = 0;
  let lineStart = 0;
  let unitStart = -1;
  let unitKind: Sentence['kind'] = 'prose';
  let blankRun = true;
  const close = (end: number): void => {
    if (unitStart !== -1) splitUnit(citable, unitStart, end, paragraph, unitKind, sentences);
    unitStart = -1;
  };
  while (lineStart <= citable.length) {
    const newline = citable.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? citable.length : newline;
    const line = citable.slice(lineStart, lineEnd);
    if (line.trim() === '') {
      close(lineStart);
      if (!blankRun) paragraph += 1;
      blankRun = true;
    } else {
      blankRun = false;
      const kind: Sentence['kind'] = HEADING.test(line) ? 'heading' : TABLE_ROW.test(line) ? 'table' : 'prose';
      if (kind !== 'prose' || unitKind !== 'prose' || LIST_ITEM.test(line) || unitStart === -1) {
        close(lineStart);
        unitStart = lineStart;
        unitKind = kind;
      }
      if (kind !== 'prose') {
        close(lineEnd);
        if (kind === 'heading') paragraph += 1;
      }
    }
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  close(citable.length);
  return sentences;
}

function splitUnit(text: string, start: number, end: number, paragraph: number, kind: Sentence['kind'], out: Sentence[]): void {
  if (kind !== 'prose') {
    out.push({ start, end, paragraph, kind });
    return;
  }
  const unit = text.slice(start, end);
  let from = 0;
  ENDER.lastIndex = 0;
  for (let match = ENDER.exec(unit); match !== null; match = ENDER.exec(unit)) {
    const at = match.index;
    if (match[0][0] === '.' && ABBREVIATIONS.test(unit.slice(Math.max(0, at - 8), at))) continue;
    const next = /\S/.exec(unit.slice(at + match[0].length))?.[0];
    if (next !== undefined && /[a-z,;]/.test(next)) continue;
    const stop = at + match[0].length;
    if (unit.slice(from, stop).trim() !== '') out.push({ start: start + from, end: start + stop, paragraph, kind });
    from = stop;
  }
  if (unit.slice(from).trim() !== '') out.push({ start: start + from, end, paragraph, kind });
}

/** The index of the sentence holding `offset` (sentences sorted by start), or -1. */
export function sentenceAt(sentences: readonly Sentence[], offset: number): number {
  let low = 0;
  let high = sentences.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if ((sentences[mid] as Sentence).start <= offset) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found !== -1 && offset < (sentences[found] as Sentence).end ? found : -1;
}
