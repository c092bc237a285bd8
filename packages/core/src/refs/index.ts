export type { BibEntry, BibFile, PersonName } from './bibtex.ts';
export { displayName, readBibtex } from './bibtex.ts';
export type { ReferenceSite } from './entries.ts';
export { bibSites, citedFromBib, pandocKeys, parseReferenceText, referenceListItems } from './entries.ts';
export type {
  AuthorComparison,
  CitedReference,
  RecordRef,
  RefEvidence,
  RefFinding,
  RefJudgement,
  ScholarlyRecord,
  ServiceName,
} from './judge.ts';
export { compareAuthors, isPlaceholderPerson, judgeReference, NEAR_TITLE, SAME_TITLE } from './judge.ts';
export { foldText, parsePersonName, samePerson, titleKey, titleSimilarity } from './normalize.ts';
export type { RefRule, RefRuleId } from './rules.ts';
export { REF_RULES } from './rules.ts';
export type { VenueIdentity } from './venues.ts';
export { abbreviates, identifyVenue, sameVenue } from './venues.ts';
