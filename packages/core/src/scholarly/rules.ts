import type { Severity } from '../report.ts';

/** Rule ids of the research-corpus and scholarly checks (SPEC §3-§5), with default severities. Ids are stable. */
export const SCHOLARLY_RULES = {
  'corpus/absent': { severity: 'warning', summary: 'no corpus root exists; corpus findings are reported as info' },
  'mention/found': { severity: 'ok', summary: 'the mentioned file exists' },
  'mention/missing': { severity: 'error', summary: 'the mentioned file does not exist (a warning outside research paths)' },
  'mention/unresolvable': { severity: 'info', summary: 'the mention cannot be resolved here ($AIWG_ROOT unset, .aiwg/ absent)' },
  'ref/found': { severity: 'ok', summary: 'the REF id resolves to a corpus source' },
  'ref/missing': { severity: 'error', summary: 'the REF id is in no corpus root: a fabricated source' },
  'ref/malformed': { severity: 'info', summary: 'the REF number is not one aiwg issues (REF-7, REF-0181)' },
  'ref/duplicate': { severity: 'info', summary: 'several corpus sources answer to one REF id with different titles or years' },
  'doi/verified': { severity: 'ok', summary: 'the DOI is recorded in the corpus or a bibliography' },
  'doi/unverified': { severity: 'warning', summary: 'the DOI is well-formed but recorded nowhere locally' },
  'doi/malformed': { severity: 'error', summary: 'the DOI cannot be a DOI' },
  'doi/placeholder': { severity: 'error', summary: 'the DOI is a known placeholder' },
  'arxiv/verified': { severity: 'ok', summary: 'the arXiv id is recorded in the corpus or a bibliography' },
  'arxiv/unverified': { severity: 'warning', summary: 'the arXiv id is well-formed but recorded nowhere locally' },
  'arxiv/malformed': { severity: 'error', summary: 'the arXiv id breaks the id scheme' },
  'arxiv/future': { severity: 'error', summary: 'the arXiv id is dated after the current month' },
  'author-year/found': { severity: 'ok', summary: 'a corpus entry has this author and year' },
  'author-year/author-not-in-corpus': { severity: 'warning', summary: 'no corpus entry has this author' },
  'author-year/year-mismatch': { severity: 'warning', summary: 'the author is in the corpus with a different year' },
  'author-year/implausible-year': { severity: 'error', summary: 'the year is before 1900 or after next year' },
  'quote/found': { severity: 'ok', summary: 'the quote occurs in the cited source' },
  'quote/not-found': { severity: 'error', summary: 'the quote occurs nowhere in the cited source' },
  'quote/uncheckable': { severity: 'info', summary: 'the cited source has no text to check the quote against' },
  'quote/missing-page': { severity: 'warning', summary: 'a checked quote carries no page locator' },
  'statistic/unsourced': { severity: 'warning', summary: 'a statistic with no citation in its sentence or paragraph' },
  'pages/invalid': { severity: 'error', summary: 'a page locator that cannot exist' },
  'grade/ok': { severity: 'ok', summary: 'the claim strength fits the evidence' },
  'grade/overclaim': { severity: 'error', summary: 'the wording claims more than the GRADE level allows' },
  'grade/absolute': { severity: 'warning', summary: 'absolute wording (proves, conclusively)' },
  'grade/underclaim': { severity: 'info', summary: 'hedged wording over HIGH evidence' },
  'grade/unassessed': { severity: 'info', summary: 'a claim cites a source with no GRADE assessment' },
  'grade/mismatch': { severity: 'warning', summary: 'the GRADE level in the text contradicts the stored assessment' },
} as const satisfies Record<string, { severity: Severity; summary: string }>;

/** A scholarly rule id. */
export type ScholarlyRuleId = keyof typeof SCHOLARLY_RULES;
