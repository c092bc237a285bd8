/**
 * The reference-verification rules (`aiwg-cite refs`): one object per rule with its id, severity,
 * confidence, a one-line description and a help text with a bad and a good example. An `error`
 * makes the entry `hallucinated`; a `warning` does not.
 */

/** One rule of the reference verifier. */
export interface RefRule {
  readonly id: string;
  readonly severity: 'error' | 'warning';
  /** `certain`: decided by an API answer or a fact of the entry; `heuristic`: a judgement of similarity. */
  readonly confidence: 'certain' | 'heuristic';
  readonly description: string;
  readonly help: string;
  readonly bad: string;
  readonly good: string;
  /** `refs --fix` can correct it from the record when every service agrees. */
  readonly fixable: boolean;
}

export const REF_RULES = {
  'refs/not-found': {
    id: 'refs/not-found',
    severity: 'error',
    confidence: 'heuristic',
    description: 'no scholarly service knows a work with this title',
    help: 'Every service that answered was searched by title and none has a work whose title is close to the cited one. A plausible-looking reference that no index knows is the most common fabrication. A lookup that failed never raises this: the entry is then uncertain.',
    bad: '@inproceedings{x, title = {Structured Fast Fourier Attention for Vision Transformers}, ...}',
    good: 'Cite a work you have read, with the title its publisher gives.',
    fixable: false,
  },
  'refs/title': {
    id: 'refs/title',
    severity: 'error',
    confidence: 'heuristic',
    description: 'the title is close to, but not, the title of a real work',
    help: 'The closest record differs in words, not only in case, accents, LaTeX or punctuation (those are normalised away). A near-miss title is how a half-remembered or invented reference usually looks.',
    bad: 'title = {Self-Consistency Improves Chain of Thought Inference in Language Models}',
    good: 'title = {Self-Consistency Improves Chain of Thought Reasoning in Language Models}',
    fixable: false,
  },
  'refs/authors': {
    id: 'refs/authors',
    severity: 'error',
    confidence: 'certain',
    description: 'the authors are not the authors of the work with this title',
    help: 'Authors are compared by family name and first initial (accents, LaTeX, particles and family-first order normalised). Most of the cited authors are missing from the record: the list belongs to another paper, or was invented.',
    bad: 'author = {Petra Silva and Yuki Sato}  % record: Jane Smith and Wei Zhang',
    good: 'author = {Smith, Jane and Zhang, Wei}',
    fixable: true,
  },
  'refs/authors-partial': {
    id: 'refs/authors-partial',
    severity: 'error',
    confidence: 'certain',
    description: 'authors of the record are missing from the entry, without "and others"',
    help: 'The entry lists only some of the authors. BibTeX prints the list as complete, which misattributes the work. Write the full list, or end it with `and others` to say "et al." on purpose.',
    bad: 'author = {Yining Wang and Akshay Krishnamurthy}  % record has four authors',
    good: 'author = {Wang, Yining and Krishnamurthy, Akshay and others}',
    fixable: true,
  },
  'refs/author-order': {
    id: 'refs/author-order',
    severity: 'warning',
    confidence: 'certain',
    description: 'the authors are the record’s, in another order',
    help: 'Author order carries credit (first and last author). The names match the record, the order does not.',
    bad: 'author = {Zhang, Wei and Smith, Jane}',
    good: 'author = {Smith, Jane and Zhang, Wei}',
    fixable: true,
  },
  'refs/placeholder-authors': {
    id: 'refs/placeholder-authors',
    severity: 'error',
    confidence: 'certain',
    description: 'an author is a placeholder (John Doe, A. Author, Anonymous, "et al." only)',
    help: 'Placeholder names are left by templates and generators. An author list that is only "et al." or "others" names nobody.',
    bad: 'author = {John Doe and A. Author}',
    good: 'author = {Vaswani, Ashish and Shazeer, Noam and others}',
    fixable: false,
  },
  'refs/future-date': {
    id: 'refs/future-date',
    severity: 'error',
    confidence: 'certain',
    description: 'the year is after the current year',
    help: 'A work cannot have been published in the future. Checked against the clock (or AIWG_CITE_DATE), without any lookup.',
    bad: 'year = {2033}',
    good: 'year = {2023}',
    fixable: true,
  },
  'refs/year': {
    id: 'refs/year',
    severity: 'error',
    confidence: 'certain',
    description: 'the year differs from every version of the work by two years or more',
    help: 'The year is compared with the published year and the arXiv year of every record of the work; one year off (online-first, preprint) is a warning, two or more an error.',
    bad: 'year = {2019}  % published 2022, arXiv 2021',
    good: 'year = {2022}',
    fixable: true,
  },
  'refs/year-off-by-one': {
    id: 'refs/year-off-by-one',
    severity: 'warning',
    confidence: 'certain',
    description: 'the year is one year off every version of the work',
    help: 'Often the online-first or preprint year against the issue year; check which one your style wants.',
    bad: 'year = {2021}  % published 2022',
    good: 'year = {2022}',
    fixable: true,
  },
  'refs/venue': {
    id: 'refs/venue',
    severity: 'error',
    confidence: 'heuristic',
    description: 'the venue is not where the work appeared',
    help: 'Venues are compared through aliases (NeurIPS = NIPS = Advances in Neural Information Processing Systems), years and ordinals removed, and journal abbreviations (ISO 4) expanded. A venue no record of the work gives, whether real or invented, is reported with the venue the record gives.',
    bad: 'booktitle = {ICML}  % the work appeared at AAAI',
    good: 'booktitle = {Proceedings of the AAAI Conference on Artificial Intelligence}',
    fixable: true,
  },
  'refs/preprint-as-published': {
    id: 'refs/preprint-as-published',
    severity: 'error',
    confidence: 'heuristic',
    description: 'a preprint is cited as published at a venue',
    help: 'Every record of the work is a preprint (arXiv, bioRxiv, …) and none shows the cited venue. Cite the preprint as such until the venue publishes it.',
    bad: '@inproceedings{x, booktitle = {CVPR}, ...}  % only on arXiv',
    good: '@misc{x, howpublished = {arXiv preprint arXiv:2301.01234}, ...}',
    fixable: true,
  },
  'refs/doi-unresolved': {
    id: 'refs/doi-unresolved',
    severity: 'error',
    confidence: 'certain',
    description: 'the DOI does not exist',
    help: 'doi.org has no handle for the DOI (and no metadata service knows it).',
    bad: 'doi = {10.88880/bpr.633067}',
    good: 'doi = {10.1109/CVPR52688.2022.01981}',
    fixable: false,
  },
  'refs/doi-mismatch': {
    id: 'refs/doi-mismatch',
    severity: 'error',
    confidence: 'certain',
    description: 'the DOI belongs to another work',
    help: 'The DOI resolves, but its record has another title: the DOI was copied from a different reference or invented to look real.',
    bad: 'title = {Federated Learning for Medical Imaging}, doi = {10.48550/arXiv.1911.06270}',
    good: 'The DOI of the cited work, or none.',
    fixable: false,
  },
  'refs/arxiv-version': {
    id: 'refs/arxiv-version',
    severity: 'error',
    confidence: 'certain',
    description: 'the cited arXiv version does not exist, or the arXiv id belongs to another work',
    help: 'The arXiv record of the id has fewer versions than cited, or another title.',
    bad: 'eprint = {2210.03629v9}  % latest is v3',
    good: 'eprint = {2210.03629v3}',
    fixable: false,
  },
  'refs/merged-citation': {
    id: 'refs/merged-citation',
    severity: 'error',
    confidence: 'heuristic',
    description: 'the entry mixes fields of two different works',
    help: 'The title belongs to one work and the authors to another one that the services also know: two references were merged into one.',
    bad: 'title of paper A, authors of paper B',
    good: 'Two entries, one per paper.',
    fixable: false,
  },
  'refs/unverified': {
    id: 'refs/unverified',
    severity: 'warning',
    confidence: 'certain',
    description: 'the entry could not be verified (services unreachable, or nothing to look up)',
    help: 'The lookups failed or too few services answered, or the entry has no title. The entry is uncertain: a warning, or an error with --strict. It is never reported as hallucinated on a failed lookup.',
    bad: 'A run with the services unreachable.',
    good: 'Run again online, or add the title and a DOI.',
    fixable: false,
  },
} as const satisfies Record<string, RefRule>;

/** A rule id of the reference verifier. */
export type RefRuleId = keyof typeof REF_RULES;
