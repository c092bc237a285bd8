/**
 * Sorts footnotes into the certificate's categories (SPEC §7.2) and reports their structural
 * problems as findings (kinds `footnote` and `statute`).
 */
import type { Finding } from '../report.ts';
import { findArxivIds, findDois, type IdentifierMatch, type YearMonth } from '../scholarly/identifiers.ts';
import { footnoteMessages } from './messages.ts';
import type { FootnoteDefinition, ParsedFootnotes } from './parse.ts';
import { findStatutes, type StatuteCitation } from './statutes.ts';
import { type FootnoteTag, findPlaceholder, findTags, type TagKind } from './tags.ts';

/** The five checked categories of SPEC §7.2. */
export type FootnoteCategory = 'statutory' | 'url-verified' | 'url-inferred' | 'text-verified' | 'text-inferred';

/** Every category, in certificate order. */
export const FOOTNOTE_CATEGORIES: readonly FootnoteCategory[] = [
  'statutory',
  'url-verified',
  'url-inferred',
  'text-verified',
  'text-inferred',
];

/** What the gate does with a footnote. */
export type FootnoteDisposition =
  /** VERIFIED or INFERRED: checked and counted. */
  | 'checked'
  /** ASSUMED or METHODOLOGY: skipped, outside the denominator. */
  | 'skipped'
  /** UNVERIFIED or UNVERIFIABLE: reported, not counted. */
  | 'unverifiable'
  /** No tag (an `Id.` footnote included): reported, not counted. */
  | 'untagged';

/** A footnote with its tag, category and the identifiers it carries. */
export interface ClassifiedFootnote {
  readonly definition: FootnoteDefinition;
  readonly tags: readonly FootnoteTag[];
  /** The tag that decides: VERIFIED, then INFERRED, then UNVERIFIED/UNVERIFIABLE, then ASSUMED/METHODOLOGY. */
  readonly tag: TagKind | null;
  readonly disposition: FootnoteDisposition;
  readonly category: FootnoteCategory | null;
  readonly urls: readonly string[];
  readonly dois: readonly IdentifierMatch[];
  readonly arxiv: readonly IdentifierMatch[];
  readonly statutes: readonly StatuteCitation[];
  readonly placeholder: string | null;
  /** The citation without its tags, whitespace collapsed. */
  readonly citation: string;
}

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>()[\]"'`]+/gi;
const TAG_PRIORITY: readonly TagKind[] = ['VERIFIED', 'INFERRED', 'UNVERIFIED', 'UNVERIFIABLE', 'ASSUMED', 'METHODOLOGY'];

/** Extracts the http(s) URLs of a text, trailing punctuation trimmed. */
export function findUrls(text: string): string[] {
  return [...text.matchAll(URL_IN_TEXT)].map((match) => match[0].replace(/[.,;:!?]+$/, ''));
}

/** Classifies every footnote definition and returns the structural findings of the document. */
export function classifyFootnotes(
  file: string,
  parsed: ParsedFootnotes,
  now: YearMonth,
): { footnotes: ClassifiedFootnote[]; findings: Finding[] } {
  const footnotes: ClassifiedFootnote[] = [];
  const findings: Finding[] = [];
  const at = (line: number, column: number, text: string) => ({ file, line, column, text });

  for (const marker of parsed.markers) {
    if (marker.definition !== null) continue;
    findings.push({
      ...at(marker.line, marker.column, marker.text),
      kind: 'footnote',
      status: 'undefined',
      severity: 'error',
      rule: 'footnote/undefined',
      message: footnoteMessages.undefined(marker.text),
      fix: footnoteMessages.undefinedFix(marker.text),
      section: marker.section,
    });
  }

  for (const definition of parsed.definitions) {
    const tags = findTags(definition.text);
    const tag = TAG_PRIORITY.find((kind) => tags.some((candidate) => candidate.kind === kind)) ?? null;
    const withoutTags = stripTags(definition.text, tags);
    const evidenceUrls = tags.flatMap((found) => (found.kind === 'VERIFIED' || found.kind === 'INFERRED' ? findUrls(found.payload) : []));
    const urls = [...new Set([...findUrls(withoutTags), ...evidenceUrls])];
    const statutes = findStatutes(withoutTags);
    const dois = findDois(withoutTags);
    const arxiv = findArxivIds(withoutTags, now);
    const placeholder = findPlaceholder(definition.text);
    const disposition = dispositionOf(tag);
    const category = disposition === 'checked' ? categoryOf(tag as 'VERIFIED' | 'INFERRED', statutes, urls) : null;
    const label = definition.style === 'gfm' ? `[^${definition.label}]` : definition.label;
    const base = {
      ...at(definition.line, definition.column, shorten(definition.text, 120)),
      section: definition.section,
      footnote: definition.label,
    };

    if (tag === null && !/^Id\./.test(withoutTags)) {
      findings.push({
        ...base,
        kind: 'footnote',
        status: 'missing-tag',
        severity: 'warning',
        rule: 'footnote/missing-tag',
        message: footnoteMessages.missingTag(label),
        fix: footnoteMessages.missingTagFix(),
      });
    }
    if (tags.length > 1) {
      findings.push({
        ...base,
        kind: 'footnote',
        status: 'multiple-tags',
        severity: 'info',
        rule: 'footnote/multiple-tags',
        message: footnoteMessages.multipleTags(
          label,
          tags.map((found) => found.kind),
        ),
        fix: null,
      });
    }
    if (placeholder !== null) {
      findings.push({
        ...base,
        kind: 'footnote',
        status: 'placeholder',
        severity: 'error',
        rule: 'footnote/placeholder',
        message: footnoteMessages.placeholder(label, placeholder),
        fix: footnoteMessages.placeholderFix(),
      });
    }
    if (disposition === 'unverifiable') {
      findings.push({
        ...base,
        kind: 'footnote',
        status: 'unverified',
        severity: 'warning',
        rule: 'footnote/unverified',
        message: footnoteMessages.unverified(label, tag as string),
        fix: footnoteMessages.unverifiedFix(),
      });
    }
    const verified = tags.find((found) => found.kind === 'VERIFIED');
    if (tag === 'VERIFIED' && verified !== undefined && verified.evidence === 'none') {
      findings.push({
        ...base,
        kind: 'footnote',
        status: 'tag-without-evidence',
        severity: 'warning',
        rule: 'footnote/tag-without-evidence',
        message: footnoteMessages.noEvidence(label, verified.payload),
        fix: footnoteMessages.noEvidenceFix(),
      });
    }
    for (const statute of statutes) {
      if (statute.problem === null) continue;
      findings.push({
        ...base,
        text: statute.raw,
        kind: 'statute',
        status: statute.problem.rule === 'statute/malformed' ? 'malformed' : 'title-range',
        severity: statute.problem.severity,
        rule: statute.problem.rule,
        message: statute.problem.message,
        fix: footnoteMessages.statuteFix(),
      });
    }
    footnotes.push({
      definition,
      tags,
      tag,
      disposition,
      category,
      urls,
      dois,
      arxiv,
      statutes,
      placeholder,
      citation: shorten(withoutTags, 160),
    });
  }
  return { footnotes, findings };
}

function dispositionOf(tag: TagKind | null): FootnoteDisposition {
  switch (tag) {
    case 'VERIFIED':
    case 'INFERRED':
      return 'checked';
    case 'ASSUMED':
    case 'METHODOLOGY':
      return 'skipped';
    case 'UNVERIFIED':
    case 'UNVERIFIABLE':
      return 'unverifiable';
    default:
      return 'untagged';
  }
}

function categoryOf(tag: 'VERIFIED' | 'INFERRED', statutes: readonly StatuteCitation[], urls: readonly string[]): FootnoteCategory {
  if (statutes.length > 0) return 'statutory';
  if (urls.length > 0) return tag === 'VERIFIED' ? 'url-verified' : 'url-inferred';
  return tag === 'VERIFIED' ? 'text-verified' : 'text-inferred';
}

function stripTags(text: string, tags: readonly FootnoteTag[]): string {
  let out = text;
  for (const tag of [...tags].reverse()) out = `${out.slice(0, tag.start)}${out.slice(tag.end)}`;
  return out.replace(/\s+/g, ' ').trim();
}

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
