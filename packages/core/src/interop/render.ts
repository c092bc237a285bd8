/**
 * `annotate`: badges after each checked claim or citation and an audit report at the end
 * (SPEC §8.3), written only as byte-range insertions (SPEC §8.4): removing the inserted ranges
 * gives back the input exactly, BOM, CRLF and a missing final newline included.
 */
import { applyEdits, type TextEdit } from '../edits.ts';
import { isHtmlKind, scanMarkdown } from '../markdown/scan.ts';
import type { Finding } from '../report.ts';
import { interopMessages } from './messages.ts';
import { createOffsetIndex } from './offsets.ts';
import type { AggregatedVerdict, SourceCheckVerdict, VerdictLabel } from './schema.ts';
import { sourceCheckOfLabel, VERDICT_ICONS, verdictsOf } from './verdict-model.ts';

/** One thing to mark: a verifier's claim or one of aiwg-cite's findings. */
export interface AnnotationMark {
  /** UTF-16 offsets into the document text, a leading BOM included. */
  readonly start: number;
  readonly end: number;
  readonly verdict: SourceCheckVerdict;
  readonly label: VerdictLabel;
  /** The name in the badge: a verifier name, or a rule id for aiwg-cite's findings. */
  readonly verifier: string;
  /** The claim sentence, or the citation exactly as written. */
  readonly claim: string;
  /** True for aiwg-cite's findings: the citation is shown as code so a re-check never sees it. */
  readonly isCitation: boolean;
  readonly rationale: string;
  readonly evidence: readonly { readonly url: string; readonly title?: string | null }[];
  /** `file:line` of a finding (no column: badges earlier on the line would move it, and a re-run must not). */
  readonly location?: string;
}

/** `inline` badges every mark; `append` marks only failures and appends a table. */
export type AnnotateMode = 'inline' | 'append';

/** The result of {@link annotateMarkdown}. */
export interface Annotated {
  readonly text: string;
  readonly edits: readonly TextEdit[];
  /** Where the inserted text landed in the output (for `removeInsertions`). */
  readonly ranges: readonly { readonly start: number; readonly end: number }[];
  readonly badges: number;
  /** Marks that got no badge because they stand in a fence, a `>` quote, front matter or HTML. */
  readonly skipped: number;
  /** True when an earlier audit report was found and replaced rather than a new one appended. */
  readonly replacedReport: boolean;
}

/** The line that opens aiwg-cite's audit report; everything from it to the end is ours. */
export const REPORT_MARKER = '<!-- aiwg-cite:audit-report -->';

const FAILURE_TEXT = { hard: ' [Unverified]', soft: ' [Partially Unverified]' } as const;

/** Marks for aiwg-cite's own findings on a document (`text` as read, BOM included). */
export function marksFromFindings(text: string, findings: readonly Finding[]): AnnotationMark[] {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const lineStarts: number[] = [0];
  for (let at = text.indexOf('\n', bom); at !== -1; at = text.indexOf('\n', at + 1)) lineStarts.push(at + 1 - bom);
  const marks: AnnotationMark[] = [];
  for (const finding of findings) {
    const lineStart = lineStarts[finding.line - 1];
    if (lineStart === undefined) continue;
    const start = bom + lineStart + finding.column - 1;
    const lineEnd = lineEndAt(text, start);
    const end = Math.min(start + finding.text.length, lineEnd);
    const verdicts = verdictsOf(finding);
    marks.push({
      start,
      end,
      verdict: verdicts.sourceCheck,
      label: verdicts.citationAuditor,
      verifier: finding.rule,
      claim: finding.text,
      isCitation: true,
      rationale: finding.fix === null ? finding.message : `${finding.message}. Fix: ${finding.fix}`,
      evidence: [],
      location: `${finding.file}:${finding.line}`,
    });
  }
  return marks;
}

/**
 * Marks for aggregated verifier verdicts; their spans are document code points (Python offsets).
 * When the span no longer holds the claim's text (the document was annotated or edited since it
 * was chunked) but the text occurs verbatim, the nearest occurrence is used instead.
 */
export function marksFromAggregate(text: string, aggregated: readonly AggregatedVerdict[]): AnnotationMark[] {
  const index = createOffsetIndex(text);
  const marker = findReportMarker(text);
  const limit = marker === -1 ? text.length : marker;
  return aggregated.map(({ claim, verdict }) => ({
    ...relocate(text, limit, claim.text, index.toUtf16(claim.sentence_span.start), index.toUtf16(claim.sentence_span.end)),
    verdict: verdict.source_check_verdict ?? sourceCheckOfLabel(verdict.label),
    label: verdict.label,
    verifier: verdict.verifier_name,
    claim: claim.text,
    isCitation: false,
    rationale: verdict.rationale,
    evidence: verdict.evidence,
  }));
}

/** The span itself when it still holds the claim, else the claim's nearest verbatim occurrence before `limit`. */
function relocate(text: string, limit: number, claim: string, start: number, end: number): { start: number; end: number } {
  if (claim === '' || text.slice(start, end) === claim) return { start, end };
  let best = -1;
  for (let at = text.indexOf(claim); at !== -1 && at + claim.length <= limit; at = text.indexOf(claim, at + 1)) {
    if (best === -1 || Math.abs(at - start) < Math.abs(best - start)) best = at;
  }
  return best === -1 ? { start, end } : { start: best, end: best + claim.length };
}

/** Orders marks by position, then verifier, so the output never depends on input order. */
export function sortMarks(marks: readonly AnnotationMark[]): AnnotationMark[] {
  return [...marks].sort((a, b) => a.start - b.start || a.end - b.end || (a.verifier < b.verifier ? -1 : a.verifier > b.verifier ? 1 : 0));
}

/**
 * Annotates a document. Badges go right after each mark (after a link destination when the mark
 * ends inside one); the audit report goes at the end, after a blank line, in the document's own
 * line endings. Running it again on its own output changes nothing: badges already in place are
 * not repeated, and an earlier report (from {@link REPORT_MARKER} on) is replaced.
 */
export function annotateMarkdown(text: string, input: readonly AnnotationMark[], mode: AnnotateMode = 'inline'): Annotated {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const markerAt = findReportMarker(text);
  const bodyEnd = markerAt === -1 ? text.length : markerAt;
  const marks = sortMarks(input.filter((mark) => mark.start <= bodyEnd && mark.end <= bodyEnd));
  const skip = skipRanges(text.slice(0, bodyEnd));
  const edits: TextEdit[] = [];
  const badged: boolean[] = [];
  let badges = 0;
  let skipped = 0;
  for (const mark of marks) {
    const inSkip = skip.blocks.some((range) => mark.start < range.end && Math.max(mark.end, mark.start + 1) > range.start);
    const point = insertionPoint(text, mark.end, bodyEnd);
    if (inSkip || skip.inline.some((range) => point > range.start && point < range.end)) {
      skipped += 1;
      badged.push(false);
      continue;
    }
    badged.push(true);
    const badge = mode === 'inline' ? ` **[${VERDICT_ICONS[mark.verdict]} ${escapeBadge(mark.verifier)}]**` : failureText(mark.verdict);
    if (badge === null) continue;
    badges += 1;
    if (badgesAt(text, point).includes(badge) || edits.some((edit) => edit.start === point && edit.text === badge)) continue;
    edits.push({ start: point, end: point, text: badge });
  }
  const report = mode === 'inline' ? inlineReport(marks, badged) : appendixTable(marks);
  const block = [REPORT_MARKER, '', ...report].join(eol) + eol;
  if (markerAt === -1) {
    const lead = text.length === 0 ? '' : text.endsWith('\n') ? eol : eol + eol;
    edits.push({ start: text.length, end: text.length, text: lead + block });
  } else if (text.slice(markerAt) !== block) {
    edits.push({ start: markerAt, end: text.length, text: block });
  }
  const applied = applyEdits(text, edits);
  return { text: applied.text, edits, ranges: applied.ranges, badges, skipped, replacedReport: markerAt !== -1 };
}

const EXISTING_BADGE = / \*\*\[[^\]\n]*\]\*\*| \[(?:Partially )?Unverified\]/y;

/** The badges an earlier run left at `point`, in order, so a re-run never repeats one. */
function badgesAt(text: string, point: number): string[] {
  const found: string[] = [];
  EXISTING_BADGE.lastIndex = point;
  for (let match = EXISTING_BADGE.exec(text); match !== null; match = EXISTING_BADGE.exec(text)) found.push(match[0]);
  return found;
}

function failureText(verdict: SourceCheckVerdict): string | null {
  if (verdict === 'VERIFIED' || verdict === 'GROUNDED') return null;
  return verdict === 'CONTRADICTED' || verdict === 'UNGROUNDED' ? FAILURE_TEXT.hard : FAILURE_TEXT.soft;
}

function inlineReport(marks: readonly AnnotationMark[], badged: readonly boolean[]): string[] {
  const lines = ['## Audit Report', ''];
  if (marks.length === 0) return [...lines, interopMessages.noClaims()];
  marks.forEach((mark, at) => {
    lines.push(`### Claim ${at + 1}`, '');
    lines.push(`- Verdict: ${VERDICT_ICONS[mark.verdict]} ${mark.verdict} (${mark.label})`);
    lines.push(`- Verifier: ${mark.isCitation ? `aiwg-cite ${mark.verifier}` : flat(mark.verifier)}`);
    lines.push(
      `- Claim: ${mark.isCitation ? `${codeSpan(mark.claim)}${mark.location === undefined ? '' : ` at ${mark.location}`}` : flat(mark.claim)}`,
    );
    lines.push(`- Rationale: ${flat(mark.rationale) || '—'}`);
    lines.push(`- Evidence: ${mark.evidence.length === 0 ? 'none' : mark.evidence.map(describeEvidence).join('; ')}`);
    if (badged[at] === false) lines.push(`- Badge: ${interopMessages.noBadge()}`);
    lines.push('');
  });
  lines.pop();
  return lines;
}

function appendixTable(marks: readonly AnnotationMark[]): string[] {
  const lines = ['---', '', '## Audit Appendix', ''];
  if (marks.length === 0) return [...lines, interopMessages.noClaims()];
  lines.push('| # | Claim | Verdict | Verifier | Evidence |', '|---|---|---|---|---|');
  marks.forEach((mark, at) => {
    const claim = mark.isCitation ? codeSpan(clip(mark.claim, 100)) : clip(flat(mark.claim), 100);
    const evidence = mark.evidence.length === 0 ? '—' : mark.evidence.map((item) => item.url).join(', ');
    const verifier = mark.isCitation ? `aiwg-cite ${mark.verifier}` : flat(mark.verifier);
    const cells = [String(at + 1), claim, `${VERDICT_ICONS[mark.verdict]} ${mark.verdict}`, verifier, evidence];
    lines.push(`| ${cells.map(escapeCell).join(' | ')} |`);
  });
  return lines;
}

function describeEvidence(item: { readonly url: string; readonly title?: string | null }): string {
  return typeof item.title === 'string' && item.title.trim() !== '' ? `${flat(item.title)} (${item.url})` : item.url;
}

function flat(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

function escapeBadge(name: string): string {
  return flat(name).replace(/[[\]*|]/g, (char) => `\\${char}`);
}

/** Markdown inline code that holds `text` whatever backticks it contains. */
function codeSpan(text: string): string {
  const runs = text.match(/`+/g) ?? [];
  const fence = '`'.repeat(Math.max(0, ...runs.map((run) => run.length)) + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat(text)}${pad}${fence}`;
}

function findReportMarker(text: string): number {
  let at = text.indexOf(REPORT_MARKER);
  while (at !== -1) {
    const lineStart = at === 0 || text.charCodeAt(at - 1) === 10;
    const after = text.charCodeAt(at + REPORT_MARKER.length);
    if (lineStart && (Number.isNaN(after) || after === 10 || after === 13)) return at;
    at = text.indexOf(REPORT_MARKER, at + 1);
  }
  return -1;
}

function lineEndAt(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  if (newline === -1) return text.length;
  return text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
}

/** Where a badge for a mark ending at `end` goes: after a link destination or autolink it ends inside. */
function insertionPoint(text: string, end: number, limit: number): number {
  const lineStart = text.lastIndexOf('\n', end - 1) + 1;
  const before = text.slice(lineStart, end);
  const lineEnd = Math.min(lineEndAt(text, end), limit);
  const destination = before.lastIndexOf('](');
  if (destination !== -1 && !before.slice(destination).includes(')')) {
    const close = text.indexOf(')', end);
    if (close !== -1 && close < lineEnd) return close + 1;
  }
  const angle = before.lastIndexOf('<');
  if (angle !== -1 && !before.slice(angle).includes('>')) {
    const close = text.indexOf('>', end);
    if (close !== -1 && close < lineEnd) return close + 1;
  }
  return Math.min(end, limit);
}

/**
 * Where no badge may go: code blocks and `>` quotes (any overlap), front matter, and HTML blocks
 * or comments (the insertion point inside). Code, front matter and HTML come from the markdown
 * model; offsets include a leading BOM.
 */
function skipRanges(text: string): {
  blocks: { start: number; end: number }[];
  inline: { start: number; end: number }[];
} {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const model = scanMarkdown(text);
  const blocks: { start: number; end: number }[] = [];
  const inline: { start: number; end: number }[] = [];
  for (const region of model.regions) {
    const range = { start: region.start + bom, end: region.end + bom };
    if (region.kind === 'frontmatter' || region.kind === 'fenced-code' || region.kind === 'indented-code') blocks.push(range);
    else if (isHtmlKind(region.kind)) inline.push(range);
  }
  // Quotes: runs of lines whose first non-blank character is `>`, outside code blocks.
  const code = blocks.slice();
  let quoteStart = -1;
  let codeIndex = 0;
  for (let at = 0; at < text.length; ) {
    const newline = text.indexOf('\n', at);
    const next = newline === -1 ? text.length : newline + 1;
    while (codeIndex < code.length && (code[codeIndex] as { end: number }).end <= at) codeIndex += 1;
    const inCode = codeIndex < code.length && (code[codeIndex] as { start: number }).start <= at;
    let first = at === 0 ? bom : at;
    while (text.charCodeAt(first) === 32 || text.charCodeAt(first) === 9) first += 1;
    if (!inCode && text.charCodeAt(first) === 62) {
      if (quoteStart === -1) quoteStart = at;
    } else if (quoteStart !== -1) {
      blocks.push({ start: quoteStart, end: at });
      quoteStart = -1;
    }
    at = next;
  }
  if (quoteStart !== -1) blocks.push({ start: quoteStart, end: text.length });
  return { blocks, inline };
}
