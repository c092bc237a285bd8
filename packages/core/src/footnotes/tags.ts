/**
 * Footnote verification tags (SPEC §7.1): `[VERIFIED: …]`, `[INFERRED: …]`, `[ASSUMED: …]`,
 * `[METHODOLOGY: …]`, `[UNVERIFIABLE: …]` and `[UNVERIFIED: …]`, case-insensitive, and the
 * placeholders agents leave where a citation should be.
 */

/** The kind of a verification tag, upper-cased. */
export type TagKind = 'VERIFIED' | 'INFERRED' | 'ASSUMED' | 'METHODOLOGY' | 'UNVERIFIABLE' | 'UNVERIFIED';

/** How much evidence a tag's payload carries (SPEC §7.1). */
export type EvidenceQuality = 'full' | 'partial' | 'none';

/** A verification tag found in a footnote. */
export interface FootnoteTag {
  readonly kind: TagKind;
  /** The trimmed free text after the colon. */
  readonly payload: string;
  /** UTF-16 offsets of the whole `[…]` in the footnote text. */
  readonly start: number;
  readonly end: number;
  readonly evidence: EvidenceQuality;
}

const TAG = /\[(VERIFIED|INFERRED|ASSUMED|METHODOLOGY|UNVERIFIABLE|UNVERIFIED)\s*:\s*([^\]]*)\]/gi;
const URL = /\bhttps?:\/\/\S/i;
/**
 * A record id such as `CL-4593878`, a Westlaw cite `2019 WL 123456`, a docket number
 * `No. 21-cv-01234`, or a database id (`CourtListener Opinion IDs 4593878`, seed 003).
 */
const RECORD_ID = [
  /\b[A-Z]+-[\w-]*\d/,
  /\b\d{4} WL \d+/,
  /\bNo\.\s*\d{1,2}[:-]\d{2,}/i,
  /\b\d{1,2}:\d{2}-[a-z]{2,4}-\d+/i,
  /\bIDs?\s*(?:#|:|no\.)?\s*\d{4,}/i,
];
const DASHED = /\S\s+[-–—]\s+\S/;

/** Grades the evidence of a tag payload: a URL or record id is full, a dashed descriptor partial, a bare name none. */
export function evidenceQuality(payload: string): EvidenceQuality {
  if (URL.test(payload) || RECORD_ID.some((pattern) => pattern.test(payload))) return 'full';
  if (DASHED.test(payload)) return 'partial';
  return 'none';
}

/** Finds every verification tag in a footnote's text, in order. */
export function findTags(text: string): FootnoteTag[] {
  const tags: FootnoteTag[] = [];
  for (const match of text.matchAll(TAG)) {
    const payload = (match[2] as string).trim();
    const start = match.index ?? 0;
    tags.push({
      kind: (match[1] as string).toUpperCase() as TagKind,
      payload,
      start,
      end: start + match[0].length,
      evidence: evidenceQuality(payload),
    });
  }
  return tags;
}

const PLACEHOLDER = /\[(?:citation|TBD|XX+|\?|CITE|PLACEHOLDER|CITATION NEEDED)\]/i;
const BARE_SECTION = /(?<!§)§(?![§\s]*\d)/;

/** The placeholder a footnote holds instead of a citation (`[TBD]`, `[citation]`, a bare `§`…), or `null`. */
export function findPlaceholder(text: string): string | null {
  const bracketed = PLACEHOLDER.exec(text);
  if (bracketed !== null) return bracketed[0];
  const withoutTags = text.replace(TAG, '');
  if (BARE_SECTION.test(withoutTags)) return '§';
  return null;
}
