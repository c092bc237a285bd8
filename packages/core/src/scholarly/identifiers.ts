/**
 * DOI and arXiv identifiers in prose (SPEC §5.1). Extraction keeps exact offsets; validation
 * follows Crossref's recommended pattern and arXiv's documented id schemes
 * (https://info.arxiv.org/help/arxiv_identifier.html).
 */

/** An identifier found in text. */
export interface IdentifierMatch {
  readonly kind: 'doi' | 'arxiv';
  /** The identifier as written, trimmed of trailing punctuation and prefixes. */
  readonly raw: string;
  /** The normalised key: a lowercased DOI, or an arXiv id as written (versions kept). */
  readonly key: string;
  /** UTF-16 offsets of `raw` in the text. */
  readonly start: number;
  readonly end: number;
  /** Why the identifier cannot be valid, or `null` when it is well-formed. */
  readonly problem: string | null;
}

const DOI_VALID = /^10\.\d{4,9}\/[-._;()/:A-Z0-9]+$/i;
/** A DOI introduced by `doi:`, `DOI ` or `doi.org/`: anything up to whitespace is the claimed DOI. */
const DOI_MARKED = /(?:\bdoi:\s?|\bDOI\s|doi\.org\/)(10\.[^\s<>"'`\]]*)/gi;
/** A bare DOI: only the characters a DOI may contain. */
const DOI_BARE = /\b10\.\d{4,9}\/[-._;()/:A-Za-z0-9%]+/g;
const ARXIV_DOI_PREFIX = /^10\.48550\/arxiv\./i;

/** Known placeholder DOIs and patterns that agents emit instead of real identifiers. */
const DOI_PLACEHOLDERS = [/^10\.1234\//, /example/i, /x{4,}/i, /^10\.1145\/x+$/i];

/**
 * Trims trailing punctuation from a DOI candidate (SPEC §5.1): `. , ; : - _` always, and a
 * closing `)` while the DOI has more `)` than `(`.
 */
export function trimDoi(candidate: string): string {
  let doi = candidate;
  for (;;) {
    const last = doi.at(-1);
    if (last !== undefined && '.,;:-_'.includes(last)) {
      doi = doi.slice(0, -1);
      continue;
    }
    if (last === ')' && count(doi, ')') > count(doi, '(')) {
      doi = doi.slice(0, -1);
      continue;
    }
    return doi;
  }
}

/** Why a DOI cannot be valid, or `null`. */
export function doiProblem(doi: string): string | null {
  if (DOI_VALID.test(doi)) return null;
  if (!/^10\.\d{4,9}\//.test(doi)) return 'a DOI starts with `10.`, a registrant code of 4 to 9 digits, and `/`';
  if (/\/$/.test(doi)) return 'the DOI has no suffix after `/`';
  return 'the DOI suffix holds characters a DOI cannot contain';
}

/** True when a DOI is a known placeholder (`10.1234/…`, `…example…`, `xxxx`) or listed in `extra`. */
export function isPlaceholderDoi(doi: string, extra: readonly string[] = []): boolean {
  const key = doi.toLowerCase();
  return DOI_PLACEHOLDERS.some((pattern) => pattern.test(key)) || extra.some((entry) => entry.toLowerCase() === key);
}

/** Finds DOIs in text. arXiv DOIs (`10.48550/arXiv.*`) are left to {@link findArxivIds}. */
export function findDois(text: string): IdentifierMatch[] {
  const found = new Map<number, IdentifierMatch>();
  for (const match of text.matchAll(DOI_MARKED)) {
    const raw = withoutPreprintVersion(trimDoi(decodePercent(match[1] as string)));
    const start = (match.index ?? 0) + match[0].length - (match[1] as string).length;
    if (raw === '' || ARXIV_DOI_PREFIX.test(raw)) continue;
    found.set(start, { kind: 'doi', raw, key: raw.toLowerCase(), start, end: start + raw.length, problem: doiProblem(raw) });
  }
  for (const match of text.matchAll(DOI_BARE)) {
    const start = match.index ?? 0;
    if (found.has(start) || [...found.values()].some((doi) => start >= doi.start && start < doi.end)) continue;
    const raw = withoutPreprintVersion(trimDoi(decodePercent(match[0])));
    if (ARXIV_DOI_PREFIX.test(raw)) continue;
    found.set(start, { kind: 'doi', raw, key: raw.toLowerCase(), start, end: start + raw.length, problem: doiProblem(raw) });
  }
  return [...found.values()].sort((a, b) => a.start - b.start);
}

const ARXIV = /(?:\barXiv:\s?|arxiv\.org\/(?:abs|pdf)\/|\b10\.48550\/arXiv\.)([A-Za-z0-9.\-/]+?)(?=\.pdf\b|[)\]}>,;:"'\s]|\.(?:\s|$)|$)/gi;
const ARXIV_NEW = /^(\d{2})(\d{2})\.(\d{4,5})(?:v(\d+))?$/;
const ARXIV_OLD = /^([a-z-]+)(?:\.([A-Z]{2}))?\/(\d{2})(\d{2})(\d{3})(?:v(\d+))?$/;

/** The year and month "now", passed in so the core never reads a clock. */
export interface YearMonth {
  readonly year: number;
  readonly month: number;
}

/** Why an arXiv id cannot be valid (including one from the future), or `null`. */
export function arxivProblem(id: string, now: YearMonth): string | null {
  const modern = ARXIV_NEW.exec(id);
  if (modern !== null) {
    const [, yy, mm, number, version] = modern;
    const year = 2000 + Number(yy);
    const month = Number(mm);
    if (month < 1 || month > 12) return `month \`${mm}\` is not 01-12`;
    if (year < 2007 || (year === 2007 && month < 4)) return 'new-style arXiv ids start in April 2007 (0704)';
    const digits = (number as string).length;
    if (year <= 2014 && digits !== 4) return `ids from ${yy}${mm} have 4 digits after the dot, not ${digits}`;
    if (year >= 2015 && digits !== 5) return `ids from ${yy}${mm} have 5 digits after the dot, not ${digits}`;
    if (version !== undefined && Number(version) < 1) return 'versions start at v1';
    if (year > now.year || (year === now.year && month > now.month)) return `\`${yy}${mm}\` is in the future`;
    return null;
  }
  const legacy = ARXIV_OLD.exec(id);
  if (legacy !== null) {
    const [, , , yy, mm, , version] = legacy;
    const month = Number(mm);
    const year = Number(yy) >= 91 ? 1900 + Number(yy) : 2000 + Number(yy);
    if (month < 1 || month > 12) return `month \`${mm}\` is not 01-12`;
    if (year > 2007 || (year === 2007 && month > 3)) return 'old-style arXiv ids end in March 2007';
    if (version !== undefined && Number(version) < 1) return 'versions start at v1';
    return null;
  }
  return 'not an arXiv id: expected `YYMM.NNNNN` (optionally `vN`) or `archive/YYMMNNN`';
}

/** Finds prefixed arXiv ids (`arXiv:`, `arxiv.org/abs/`, `arxiv.org/pdf/`, `10.48550/arXiv.`). */
export function findArxivIds(text: string, now: YearMonth): IdentifierMatch[] {
  const found: IdentifierMatch[] = [];
  for (const match of text.matchAll(ARXIV)) {
    const raw = (match[1] as string).replace(/\.$/, '');
    if (raw === '') continue;
    const start = (match.index ?? 0) + match[0].length - (match[1] as string).length;
    found.push({ kind: 'arxiv', raw, key: raw, start, end: start + raw.length, problem: arxivProblem(raw, now) });
  }
  return found;
}

/**
 * bioRxiv and medRxiv (prefix `10.1101`) put the version after the DOI in their URLs:
 * `10.1101/2023.09.11.556673v1` is the DOI `10.1101/2023.09.11.556673`, version 1.
 */
export function withoutPreprintVersion(doi: string): string {
  return /^10\.1101\/(?:\d{4}\.\d{2}\.\d{2}\.)?\d{6,}v\d+$/i.test(doi) ? doi.replace(/v\d+$/i, '') : doi;
}

function count(text: string, char: string): number {
  let total = 0;
  for (const c of text) if (c === char) total += 1;
  return total;
}

function decodePercent(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
