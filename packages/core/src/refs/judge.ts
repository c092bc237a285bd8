/**
 * Judges a cited reference against the records scholarly services returned for it. Pure: the
 * lookups are done elsewhere (packages/online), this module only compares fields and decides
 * `valid`, `hallucinated` or `uncertain`. A failed lookup never makes an entry hallucinated.
 */
import type { PersonName } from './bibtex.ts';
import { familyKey, initials, titleSimilarity, words } from './normalize.ts';
import { REF_RULES, type RefRuleId } from './rules.ts';
import { identifyVenue, sameVenue } from './venues.ts';

/** The scholarly services. */
export type ServiceName = 'doi.org' | 'crossref' | 'openalex' | 'arxiv' | 'dblp' | 's2';

/** A reference as cited (from a `.bib` entry or a reference-list line). */
export interface CitedReference {
  readonly key: string;
  readonly title: string | null;
  readonly authors: readonly PersonName[];
  /** The list ends with `and others` / `et al.`. */
  readonly authorsTruncated: boolean;
  readonly year: number | null;
  /** `booktitle`, `journal`, or the venue of a reference-list line. */
  readonly venue: string | null;
  readonly doi: string | null;
  readonly arxiv: { readonly id: string; readonly version: number | null } | null;
}

/** A work as one service describes it. */
export interface ScholarlyRecord {
  readonly service: ServiceName;
  /** The service's id (DOI, OpenAlex W-id, DBLP key, S2 paperId, arXiv id). */
  readonly id: string;
  readonly url: string;
  readonly title: string;
  readonly authors: readonly PersonName[];
  readonly year: number | null;
  /** Year of the arXiv version, when the record knows it. */
  readonly arxivYear: number | null;
  readonly venue: string | null;
  readonly doi: string | null;
  readonly arxiv: string | null;
  /** Latest arXiv version, when the record is arXiv's. */
  readonly arxivVersion: number | null;
  /** The record itself says it is a preprint (type `preprint`, `posted-content`, arXiv). */
  readonly preprint: boolean;
  /** The service truncates long author lists (OpenAlex beyond 100): missing authors prove nothing. */
  readonly authorsComplete: boolean;
}

/** What the lookups for one entry found. */
export interface RefEvidence {
  /** Every record any lookup returned (identifier lookups and title searches). */
  readonly records: readonly ScholarlyRecord[];
  /** Services whose title search answered (with or without hits). */
  readonly searched: readonly ServiceName[];
  /** Services whose lookups failed (network, HTTP 5xx, 429, malformed answers). */
  readonly failed: readonly { readonly service: ServiceName; readonly message: string }[];
  /** The cited DOI: `missing` when doi.org has no handle; `null` when none was cited. */
  readonly doi: { readonly status: 'resolves' | 'missing' | 'unknown'; readonly record: ScholarlyRecord | null } | null;
  /** The cited arXiv id. */
  readonly arxiv: { readonly status: 'found' | 'missing' | 'unknown'; readonly record: ScholarlyRecord | null } | null;
}

/** One reason for a verdict. */
export interface RefFinding {
  readonly rule: RefRuleId;
  readonly severity: 'error' | 'warning';
  readonly field: 'title' | 'author' | 'year' | 'venue' | 'doi' | 'eprint' | 'entry';
  readonly message: string;
  /** The record compared with. */
  readonly record: RecordRef | null;
}

/** A pointer to a record, for reports. */
export interface RecordRef {
  readonly service: ServiceName;
  readonly id: string;
  readonly url: string;
}

/** The verdict on one entry. */
export interface RefJudgement {
  readonly verdict: 'valid' | 'hallucinated' | 'uncertain';
  readonly findings: readonly RefFinding[];
  /** The closest real record (the one the fields were compared with), or `null`. */
  readonly matched: ScholarlyRecord | null;
  /** Every record of the same work, one per service at most. */
  readonly sameWork: readonly ScholarlyRecord[];
  /** Services that agree with the entry on every compared field. */
  readonly agreeing: readonly ServiceName[];
}

/** Titles at least this alike are the same work (case, accents, LaTeX, punctuation already ignored). */
export const SAME_TITLE = 0.96;
/** Titles at least this alike (but not the same) are a near miss. */
export const NEAR_TITLE = 0.7;

const PLACEHOLDER_FAMILIES = new Set([
  'doe',
  'author',
  'authors',
  'anonymous',
  'anon',
  'unknown',
  'placeholder',
  'lastname',
  'surname',
  'name',
  'nobody',
  'etal',
  'others',
  'someone',
]);
const PLACEHOLDER_GIVEN = new Set(['john', 'jane', 'a', 'firstname', 'first', 'author']);

/** Whether a person is a placeholder such as `John Doe`, `A. Author`, `Anonymous`, `Firstname Lastname`. */
export function isPlaceholderPerson(person: PersonName): boolean {
  const family = familyKey(person);
  const given = words(person.given).join('');
  if (family === '' || /^(et ?al|others|and others)$/.test(words(person.family).join(' '))) return true;
  if (family === 'doe' && (given === '' || PLACEHOLDER_GIVEN.has(given))) return true;
  if (family === 'author' || family === 'authors' || family === 'lastname' || family === 'surname') return true;
  if (given === '' && PLACEHOLDER_FAMILIES.has(family)) return true;
  return /^(author|name|person)\d*$/.test(family);
}

function ref(record: ScholarlyRecord): RecordRef {
  return { service: record.service, id: record.id, url: record.url };
}

function finding(rule: RefRuleId, field: RefFinding['field'], message: string, record: ScholarlyRecord | null): RefFinding {
  return { rule, severity: REF_RULES[rule].severity, field, message, record: record === null ? null : ref(record) };
}

function describe(record: ScholarlyRecord): string {
  return `${record.service} ${record.id}`;
}

/** How the cited authors relate to a record's. */
export interface AuthorComparison {
  /** Cited authors found in the record. */
  readonly matched: number;
  /** Cited authors the record does not have. */
  readonly extra: readonly PersonName[];
  /** Record authors the entry does not cite. */
  readonly missing: readonly PersonName[];
  /** The matched authors appear in another order. */
  readonly reordered: boolean;
}

/** Compares author lists by family name and first initial. */
export function compareAuthors(cited: readonly PersonName[], recorded: readonly PersonName[]): AuthorComparison {
  const used = new Set<number>();
  const positions: number[] = [];
  const extra: PersonName[] = [];
  for (const person of cited) {
    let found = -1;
    for (let index = 0; index < recorded.length; index += 1) {
      if (!used.has(index) && personMatches(person, recorded[index] as PersonName)) {
        found = index;
        break;
      }
    }
    if (found === -1) extra.push(person);
    else {
      used.add(found);
      positions.push(found);
    }
  }
  const missing = recorded.filter((_, index) => !used.has(index));
  const reordered = positions.some((position, index) => index > 0 && position < (positions[index - 1] as number));
  return { matched: positions.length, extra, missing, reordered };
}

function personMatches(a: PersonName, b: PersonName): boolean {
  const familyA = familyKey(a);
  const familyB = familyKey(b);
  if (familyA === '' || familyB === '') return false;
  const initialsA = initials(a);
  const initialsB = initials(b);
  const initialsAgree = initialsA === '' || initialsB === '' || initialsA[0] === initialsB[0];
  if (familyA === familyB) return initialsAgree;
  // Family-first order (`Zhang Wei`), or a compound family name split differently.
  const fullA = words(`${a.given} ${a.family}`);
  const fullB = words(`${b.given} ${b.family}`);
  if (fullA.join('') === fullB.join('')) return true;
  const sortedA = [...fullA].sort().join(' ');
  const sortedB = [...fullB].sort().join(' ');
  return sortedA === sortedB;
}

/** The field comparison of the entry with one record of the same work. */
interface RecordCheck {
  readonly record: ScholarlyRecord;
  readonly authors: AuthorComparison | null;
  /** `true` agree, `false` disagree, `null` cannot tell. */
  readonly venue: boolean | null;
  /** 0 exact, 1 off by one, 2 two or more, `null` unknown. */
  readonly yearGap: number | null;
}

function yearGap(cited: number | null, record: ScholarlyRecord): number | null {
  if (cited === null) return null;
  const years = [record.year, record.arxivYear].filter((year): year is number => year !== null);
  if (years.length === 0) return null;
  const gap = Math.min(...years.map((year) => Math.abs(year - cited)));
  return Math.min(gap, 2);
}

function checkRecord(cited: CitedReference, record: ScholarlyRecord): RecordCheck {
  const authors = cited.authors.length > 0 && record.authors.length > 0 ? compareAuthors(cited.authors, record.authors) : null;
  let venue: boolean | null = null;
  if (cited.venue !== null && record.venue !== null && record.venue !== '') venue = sameVenue(cited.venue, record.venue);
  return { record, authors, venue, yearGap: yearGap(cited.year, record) };
}

/** Whether a cited author list disagrees with a record: most cited authors are not the record's. */
function authorsWrong(comparison: AuthorComparison, citedCount: number): boolean {
  if (comparison.matched === 0) return true;
  return comparison.extra.length / citedCount > 0.34;
}

function authorsPartial(comparison: AuthorComparison, cited: CitedReference, record: ScholarlyRecord): boolean {
  return !cited.authorsTruncated && record.authorsComplete && comparison.missing.length > 0;
}

/** Judges one entry. `now` decides future dates. */
export function judgeReference(cited: CitedReference, evidence: RefEvidence, now: { readonly year: number }): RefJudgement {
  const findings: RefFinding[] = [];

  // Facts of the entry itself: no lookup needed.
  if (cited.year !== null && cited.year > now.year) {
    findings.push(finding('refs/future-date', 'year', `year ${cited.year} is after the current year (${now.year})`, null));
  }
  const placeholders = cited.authors.filter(isPlaceholderPerson);
  if (placeholders.length > 0 || (cited.authors.length === 0 && cited.authorsTruncated)) {
    const names = placeholders.map((person) => `\`${[person.given, person.family].filter(Boolean).join(' ')}\``).join(', ');
    findings.push(
      finding(
        'refs/placeholder-authors',
        'author',
        names === '' ? 'the author list is only "et al."' : `placeholder author ${names}`,
        null,
      ),
    );
  }

  // The cited identifiers.
  if (evidence.doi?.status === 'missing') {
    findings.push(finding('refs/doi-unresolved', 'doi', `doi.org has no handle for DOI \`${cited.doi}\``, null));
  }
  const title = cited.title ?? '';
  const doiRecord = evidence.doi?.record ?? null;
  if (doiRecord !== null && title !== '' && doiRecord.title !== '' && titleSimilarity(title, doiRecord.title) < NEAR_TITLE) {
    findings.push(
      finding(
        'refs/doi-mismatch',
        'doi',
        `DOI \`${cited.doi}\` is “${doiRecord.title}” (${describe(doiRecord)}), not this title`,
        doiRecord,
      ),
    );
  }
  const arxivRecord = evidence.arxiv?.record ?? null;
  if (evidence.arxiv?.status === 'missing') {
    findings.push(finding('refs/arxiv-version', 'eprint', `arXiv has no paper \`${cited.arxiv?.id}\``, null));
  } else if (arxivRecord !== null) {
    if (title !== '' && titleSimilarity(title, arxivRecord.title) < NEAR_TITLE) {
      findings.push(
        finding('refs/arxiv-version', 'eprint', `arXiv ${arxivRecord.id} is “${arxivRecord.title}”, not this title`, arxivRecord),
      );
    } else if (cited.arxiv?.version != null && arxivRecord.arxivVersion !== null && cited.arxiv.version > arxivRecord.arxivVersion) {
      findings.push(
        finding(
          'refs/arxiv-version',
          'eprint',
          `arXiv ${arxivRecord.id} has ${arxivRecord.arxivVersion} version(s); v${cited.arxiv.version} does not exist`,
          arxivRecord,
        ),
      );
    }
  }

  if (title === '') return conclude(findings, null, [], [], evidence, 'the entry has no title to look up');

  // The same work, one record per service (the most similar title of each).
  const scored = evidence.records.map((record) => ({ record, similarity: titleSimilarity(title, record.title) }));
  const bestPerService = new Map<ServiceName, { record: ScholarlyRecord; similarity: number }>();
  for (const item of scored) {
    if (item.similarity < SAME_TITLE) continue;
    const current = bestPerService.get(item.record.service);
    if (current === undefined || item.similarity > current.similarity) bestPerService.set(item.record.service, item);
  }
  const sameWork = [...bestPerService.values()].map((item) => item.record);

  if (sameWork.length === 0) {
    const closest = scored.filter((item) => item.similarity >= NEAR_TITLE).sort((a, b) => b.similarity - a.similarity)[0];
    if (closest !== undefined) {
      findings.push(
        finding(
          'refs/title',
          'title',
          `no work has this title; the closest is “${closest.record.title}” (${describe(closest.record)}, similarity ${closest.similarity.toFixed(2)})`,
          closest.record,
        ),
      );
      return conclude(findings, closest.record, [], [], evidence, null);
    }
    const answered = new Set(evidence.searched);
    if (answered.size >= 2 || (answered.size >= 1 && evidence.failed.length === 0)) {
      findings.push(finding('refs/not-found', 'title', `no work with this title in ${[...answered].sort().join(', ')}`, null));
      return conclude(findings, null, [], [], evidence, null);
    }
    return conclude(findings, null, [], [], evidence, 'too few services answered to say the work does not exist');
  }

  // Field by field: a field agrees when any record of the work agrees (services differ in detail).
  const checks = sameWork.map((record) => checkRecord(cited, record));
  const matched = pickMatched(checks);

  const authorChecks = checks.filter((check) => check.authors !== null);
  if (authorChecks.length > 0 && placeholders.length === 0) {
    const citedCount = cited.authors.length;
    const anyRight = authorChecks.some((check) => !authorsWrong(check.authors as AuthorComparison, citedCount));
    if (!anyRight) {
      const check = authorChecks[0] as RecordCheck;
      const comparison = check.authors as AuthorComparison;
      findings.push(
        finding(
          'refs/authors',
          'author',
          `${comparison.extra.length} of ${citedCount} cited authors are not authors of “${check.record.title}” (${describe(check.record)}: ${check.record.authors
            .slice(0, 4)
            .map((person) => person.family)
            .join(', ')}${check.record.authors.length > 4 ? ', …' : ''})`,
          check.record,
        ),
      );
      const other = mergedSource(cited, evidence.records, sameWork);
      if (other !== null) {
        findings.push(
          finding(
            'refs/merged-citation',
            'entry',
            `the authors are those of “${other.title}” (${describe(other)}): two works merged`,
            other,
          ),
        );
      }
    } else {
      const complete = authorChecks.some(
        (check) => !authorsPartial(check.authors as AuthorComparison, cited, check.record) || !check.record.authorsComplete,
      );
      if (!complete) {
        const check = authorChecks[0] as RecordCheck;
        const missing = (check.authors as AuthorComparison).missing;
        findings.push(
          finding(
            'refs/authors-partial',
            'author',
            `${missing.length} author(s) of the record are missing: ${missing.map((person) => person.family).join(', ')} (${describe(check.record)}); end the list with "and others" if that is on purpose`,
            check.record,
          ),
        );
      } else if (authorChecks.every((check) => (check.authors as AuthorComparison).reordered)) {
        findings.push(
          finding('refs/author-order', 'author', `the authors are in another order than in ${describe(matched.record)}`, matched.record),
        );
      }
    }
  }

  const gaps = checks.map((check) => check.yearGap).filter((gap): gap is number => gap !== null);
  if (gaps.length > 0 && cited.year !== null && cited.year <= now.year) {
    const best = Math.min(...gaps);
    const years = [...new Set(sameWork.flatMap((record) => [record.year, record.arxivYear]).filter((year) => year !== null))].sort();
    if (best >= 2)
      findings.push(
        finding(
          'refs/year',
          'year',
          `year ${cited.year}; the work is from ${years.join(' / ')} (${describe(matched.record)})`,
          matched.record,
        ),
      );
    else if (best === 1) {
      findings.push(finding('refs/year-off-by-one', 'year', `year ${cited.year}; the records say ${years.join(' / ')}`, matched.record));
    }
  }

  if (cited.venue !== null) {
    const citedVenue = identifyVenue(cited.venue);
    const venues = checks.filter((check) => check.venue !== null);
    const allPreprint = sameWork.every((record) => record.preprint || record.venue === null || identifyVenue(record.venue).preprint);
    if (!citedVenue.preprint && allPreprint && sameWork.some((record) => record.preprint)) {
      findings.push(
        finding(
          'refs/preprint-as-published',
          'venue',
          `cited as published in “${cited.venue}”, but every record is a preprint (${sameWork.map(describe).join(', ')})`,
          matched.record,
        ),
      );
    } else if (venues.length > 0 && !venues.some((check) => check.venue === true)) {
      const shown = venues.find((check) => check.record.venue !== null)?.record as ScholarlyRecord;
      findings.push(
        finding('refs/venue', 'venue', `cited venue “${cited.venue}”; the work appeared in “${shown.venue}” (${describe(shown)})`, shown),
      );
    }
  }

  const agreeing = checks
    .filter(
      (check) =>
        (check.authors === null ||
          (!authorsWrong(check.authors, cited.authors.length) && !authorsPartial(check.authors, cited, check.record))) &&
        check.venue !== false &&
        (check.yearGap === null || check.yearGap < 2),
    )
    .map((check) => check.record.service);
  return conclude(findings, matched.record, sameWork, agreeing, evidence, null);
}

/** The record to show: the one agreeing on most fields. */
function pickMatched(checks: readonly RecordCheck[]): RecordCheck {
  const score = (check: RecordCheck) =>
    (check.authors === null ? 0 : check.authors.matched - check.authors.extra.length - check.authors.missing.length) +
    (check.venue === true ? 2 : check.venue === false ? -2 : 0) -
    (check.yearGap ?? 0) +
    (check.record.doi !== null ? 0.5 : 0);
  return [...checks].sort((a, b) => score(b) - score(a))[0] as RecordCheck;
}

/** Another work (not the cited title's) whose authors are the cited ones. */
function mergedSource(
  cited: CitedReference,
  records: readonly ScholarlyRecord[],
  sameWork: readonly ScholarlyRecord[],
): ScholarlyRecord | null {
  if (cited.authors.length === 0) return null;
  const titles = new Set(sameWork.map((record) => words(record.title).join(' ')));
  for (const record of records) {
    if (titles.has(words(record.title).join(' '))) continue;
    const comparison = compareAuthors(cited.authors, record.authors);
    if (comparison.matched >= Math.max(1, Math.ceil(cited.authors.length * 0.7))) return record;
  }
  return null;
}

function conclude(
  findings: readonly RefFinding[],
  matched: ScholarlyRecord | null,
  sameWork: readonly ScholarlyRecord[],
  agreeing: readonly ServiceName[],
  evidence: RefEvidence,
  uncertainReason: string | null,
): RefJudgement {
  if (findings.some((item) => item.severity === 'error')) return { verdict: 'hallucinated', findings, matched, sameWork, agreeing };
  if (matched !== null && sameWork.length > 0) return { verdict: 'valid', findings, matched, sameWork, agreeing };
  const failures = evidence.failed.map((failure) => `${failure.service}: ${failure.message}`);
  const reason = uncertainReason ?? 'the work could not be looked up';
  return {
    verdict: 'uncertain',
    findings: [
      ...findings,
      { rule: 'refs/unverified', severity: 'warning', field: 'entry', message: [reason, ...failures].join('; '), record: null },
    ],
    matched,
    sameWork,
    agreeing,
  };
}
