/**
 * Attribution (SPEC §6.6): what the sentence around an identifier says about the work (cited
 * surnames, year, a quoted title) and how that compares with the metadata a resolver returned.
 */
import { titleSimilarity } from '@aiwg-cite/core';

export { titleSimilarity };

/** What the prose claims about a cited work. */
export interface CitedAttribution {
  /** Surnames in citation order (`Lewis et al.` → `['Lewis']`). */
  readonly surnames: readonly string[];
  readonly year: number | null;
  /** A quoted or italic title of at least three words, or `null`. */
  readonly title: string | null;
}

/** The metadata of a work as a resolver reports it. */
export interface WorkMetadata {
  readonly title: string | null;
  /** Family names in author order. */
  readonly authors: readonly string[];
  readonly year: number | null;
}

/** The result of comparing a citation with the metadata. */
export type AttributionVerdict =
  | { readonly kind: 'ok' }
  | { readonly kind: 'author-mismatch'; readonly firstAuthor: string }
  | { readonly kind: 'different-work'; readonly similarity: number }
  | { readonly kind: 'author-overlap'; readonly overlap: number; readonly firstAuthor: string }
  | { readonly kind: 'year'; readonly cited: number; readonly actual: number }
  | { readonly kind: 'title'; readonly similarity: number };

const SURNAME = "(?<!\\p{L})\\p{Lu}[\\p{L}'’-]+";
const PARTICLE = '(?:(?:van|von|de|der|den|da|di|du|le|la|del|della)\\s+)?';
const NAME = `${PARTICLE}${SURNAME}`;
const ET_AL = new RegExp(`(${NAME})\\s+et\\s+al\\.?(?:\\s*\\(?\\s*((?:19|20)\\d{2})[a-z]?)?`, 'gu');
const PAIR = new RegExp(`(${NAME})\\s+(?:and|&)\\s+(${NAME})(?:\\s*\\(?,?\\s*((?:19|20)\\d{2})[a-z]?)?`, 'gu');
const PAREN = new RegExp(`\\((${NAME})(?:\\s+et\\s+al\\.?)?,\\s*((?:19|20)\\d{2})[a-z]?`, 'gu');
const NARRATIVE = new RegExp(`(${NAME})\\s+\\(((?:19|20)\\d{2})[a-z]?\\)`, 'gu');
const YEAR = /\b(19\d{2}|20\d{2})\b/g;
const QUOTED_TITLE = /["“]([^"“”]{8,300})["”]|(?<![*\w])[*_]([^*_\n]{8,300})[*_](?![*\w])/u;

/** Capitalised words that open sentences or name months, never authors. */
const NOT_SURNAMES = new Set(
  [
    'The',
    'This',
    'That',
    'These',
    'Those',
    'In',
    'As',
    'See',
    'A',
    'An',
    'Our',
    'We',
    'It',
    'For',
    'From',
    'On',
    'At',
    'By',
    'With',
    'According',
    'Recent',
    'Prior',
    'Both',
    'However',
    'Also',
    'Then',
    'Table',
    'Figure',
    'Section',
    'Chapter',
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ].map((word) => word.toLowerCase()),
);

/**
 * Reads the attribution of one identifier from its sentence. `window` is the part of the sentence
 * that belongs to this identifier (from the previous identifier to the next one); identifiers and
 * URLs in it should already be blanked so their digits are not read as years.
 */
export function readAttribution(window: string, identifierAt: number): CitedAttribution {
  type Mention = { at: number; end: number; surnames: string[]; year: number | null };
  const mentions: Mention[] = [];
  const keep = (names: (string | undefined)[]) =>
    names.filter((name): name is string => name !== undefined && !NOT_SURNAMES.has(name.toLowerCase()));
  for (const match of window.matchAll(ET_AL)) {
    const surnames = keep([match[1]]);
    if (surnames.length > 0)
      mentions.push({
        at: match.index ?? 0,
        end: (match.index ?? 0) + match[0].length,
        surnames,
        year: match[2] === undefined ? null : Number(match[2]),
      });
  }
  for (const match of window.matchAll(PAIR)) {
    if (match[3] === undefined) continue;
    const surnames = keep([match[1], match[2]]);
    if (surnames.length > 0)
      mentions.push({ at: match.index ?? 0, end: (match.index ?? 0) + match[0].length, surnames, year: Number(match[3]) });
  }
  for (const match of window.matchAll(PAREN)) {
    const surnames = keep([match[1]]);
    if (surnames.length > 0)
      mentions.push({ at: match.index ?? 0, end: (match.index ?? 0) + match[0].length, surnames, year: Number(match[2]) });
  }
  for (const match of window.matchAll(NARRATIVE)) {
    const surnames = keep([match[1]]);
    if (surnames.length > 0)
      mentions.push({ at: match.index ?? 0, end: (match.index ?? 0) + match[0].length, surnames, year: Number(match[2]) });
  }
  // A mention starting inside another (`Jones (2020)` in `Smith and Jones (2020)`) is part of it.
  const whole = mentions.filter(
    (mention) => !mentions.some((other) => other !== mention && other.at < mention.at && other.end > mention.at),
  );
  const before = whole.filter((mention) => mention.at < identifierAt).sort((a, b) => b.at - a.at);
  const after = whole.filter((mention) => mention.at >= identifierAt).sort((a, b) => a.at - b.at);
  const chosen = before[0] ?? after[0];
  let year = chosen?.year ?? null;
  // A lone year elsewhere in the window counts only beside named authors ("Lewis et al. … in 2020");
  // on its own ("In 2019, …") it is more often about something else.
  if (year === null && chosen !== undefined) {
    const years = [...window.matchAll(YEAR)];
    if (years.length === 1) year = Number((years[0] as RegExpMatchArray)[1]);
  }
  const titleMatch = QUOTED_TITLE.exec(window);
  const rawTitle = titleMatch === null ? null : (titleMatch[1] ?? titleMatch[2] ?? null);
  const title = rawTitle !== null && rawTitle.trim().split(/\s+/).length >= 3 ? rawTitle.trim() : null;
  return { surnames: chosen?.surnames ?? [], year, title };
}

/** Lowercases, strips diacritics and punctuation: `Müller-Lüdenscheidt` → `muller-ludenscheidt`. */
export function normaliseName(name: string): string {
  return name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[’']/g, '').trim();
}

/** Compares what the prose claims with the metadata (SPEC §6.6); the first problem found wins. */
export function compareAttribution(cited: CitedAttribution, work: WorkMetadata): AttributionVerdict {
  const authors = work.authors.map(normaliseName);
  const firstAuthor = work.authors[0] ?? 'unknown';
  const similarity = cited.title !== null && work.title !== null ? titleSimilarity(cited.title, work.title) : null;
  if (cited.surnames.length > 0 && authors.length > 0) {
    const matched = cited.surnames.filter((surname) => authors.includes(normaliseName(surname)));
    if (matched.length === 0) {
      if (similarity !== null && similarity < 0.5) return { kind: 'different-work', similarity };
      return { kind: 'author-mismatch', firstAuthor };
    }
    const overlap = matched.length / cited.surnames.length;
    const firstIsAuthor = authors.includes(normaliseName(cited.surnames[0] as string));
    if (!firstIsAuthor || (cited.surnames.length >= 3 && overlap < 0.6)) return { kind: 'author-overlap', overlap, firstAuthor };
  }
  if (similarity !== null && similarity < 0.9) return { kind: 'title', similarity };
  if (cited.year !== null && work.year !== null && Math.abs(cited.year - work.year) > 1) {
    return { kind: 'year', cited: cited.year, actual: work.year };
  }
  return { kind: 'ok' };
}
