import { identifyVenue, type ReferenceSite, type RefJudgement, type ScholarlyRecord } from '@aiwg-cite/core';
import type { Palette } from '../color.ts';
import { refsReportMessages } from '../messages.ts';

/** One verified reference, as the formatters see it. */
export interface RefOutcome {
  readonly site: ReferenceSite;
  readonly judgement: RefJudgement;
  readonly lookups: readonly { readonly service: string; readonly ok: boolean; readonly cached: boolean }[];
}

/** Rules whose fields the record can correct: the paper exists, the entry describes it wrongly. */
const CORRECTABLE = new Set([
  'refs/authors-partial',
  'refs/author-order',
  'refs/year',
  'refs/year-off-by-one',
  'refs/venue',
  'refs/preprint-as-published',
  'refs/future-date',
]);
/** Rules that mean the entry is not this paper at all: no correction is offered. */
const NOT_THIS_PAPER = new Set([
  'refs/not-found',
  'refs/title',
  'refs/authors',
  'refs/merged-citation',
  'refs/doi-mismatch',
  'refs/placeholder-authors',
]);

function bibValue(value: string): string {
  return `{${value.replace(/[{}]/g, '')}}`;
}

/** `Family, Given and …` from a record. */
export function bibAuthors(record: ScholarlyRecord): string {
  return record.authors.map((person) => (person.given === '' ? `{${person.family}}` : `${person.family}, ${person.given}`)).join(' and ');
}

/** The corrected fields of an entry, when the paper exists and the disagreements are correctable. */
export function correctionsFor(judgement: RefJudgement): Record<string, string> | null {
  const rules = judgement.findings.map((finding) => finding.rule);
  const record = judgement.matched;
  if (record === null || judgement.sameWork.length === 0) return null;
  if (rules.some((rule) => NOT_THIS_PAPER.has(rule)) || !rules.some((rule) => CORRECTABLE.has(rule))) return null;
  const fields: Record<string, string> = {};
  if (rules.includes('refs/authors-partial') || rules.includes('refs/author-order')) fields.author = bibAuthors(record);
  if (
    (rules.includes('refs/year') || rules.includes('refs/year-off-by-one') || rules.includes('refs/future-date')) &&
    record.year !== null
  ) {
    fields.year = String(record.year);
  }
  if (rules.includes('refs/preprint-as-published')) {
    fields.howpublished = record.arxiv === null ? `${record.venue ?? 'preprint'}` : `arXiv preprint arXiv:${record.arxiv}`;
  } else if (rules.includes('refs/venue') && record.venue !== null) {
    const venue = identifyVenue(record.venue);
    fields.venue = venue.id === null ? record.venue : venue.name;
  }
  return Object.keys(fields).length === 0 ? null : fields;
}

/** A corrected BibTeX entry for a flagged reference whose paper exists, or `null`. */
export function correctedEntry(site: ReferenceSite, judgement: RefJudgement): string | null {
  const corrections = correctionsFor(judgement);
  const record = judgement.matched;
  if (corrections === null || record === null) return null;
  const preprint = corrections.howpublished !== undefined;
  const type = preprint
    ? 'misc'
    : site.bib?.type === 'article' || record.venue === null
      ? (site.bib?.type ?? 'article')
      : (site.bib?.type ?? 'inproceedings');
  const venueField = type === 'article' ? 'journal' : 'booktitle';
  const lines = [`@${type}{${site.cited.key},`, `  title = ${bibValue(site.cited.title ?? record.title)},`];
  lines.push(`  author = ${corrections.author === undefined ? bibValue(bibAuthorsOf(site)) : `{${corrections.author}}`},`);
  if (preprint) lines.push(`  howpublished = ${bibValue(corrections.howpublished as string)},`);
  else {
    const venue = corrections.venue ?? site.cited.venue;
    if (venue !== null) lines.push(`  ${venueField} = ${bibValue(venue)},`);
  }
  const year = corrections.year ?? (site.cited.year === null ? null : String(site.cited.year));
  if (year !== null) lines.push(`  year = {${year}},`);
  const doi = record.doi ?? site.cited.doi;
  if (doi !== null && !preprint) lines.push(`  doi = {${doi}},`);
  lines.push('}');
  return lines.join('\n');
}

function bibAuthorsOf(site: ReferenceSite): string {
  const people = site.cited.authors.map((person) => (person.given === '' ? person.family : `${person.family}, ${person.given}`));
  return [...people, ...(site.cited.authorsTruncated ? ['others'] : [])].join(' and ');
}

function describeRecord(record: ScholarlyRecord): string {
  const authors = record.authors.slice(0, 3).map((person) => person.family);
  const more = record.authors.length > 3 ? ' et al.' : '';
  return `“${record.title}”, ${authors.join(', ')}${more}${record.venue === null ? '' : `, ${record.venue}`}${record.year === null ? '' : ` ${record.year}`} — ${record.service} ${record.url}`;
}

/** The human report: flagged entries with their reasons, closest record and corrected entry; then a summary. */
export function formatRefsPretty(
  outcomes: readonly RefOutcome[],
  options: { strict: boolean; note: string; palette: Palette; listed?: readonly RefOutcome[]; unlisted?: number },
): string {
  const { palette } = options;
  const lines: string[] = [];
  for (const { site, judgement } of options.listed ?? outcomes) {
    if (judgement.verdict === 'valid' && judgement.findings.length === 0) continue;
    const mark =
      judgement.verdict === 'hallucinated'
        ? palette.red(refsReportMessages.hallucinated())
        : judgement.verdict === 'uncertain'
          ? palette.yellow(refsReportMessages.uncertain())
          : palette.yellow(refsReportMessages.validWithWarnings());
    lines.push(`${palette.bold(`${site.file}:${site.line}`)} ${site.cited.key}: ${mark}`);
    for (const finding of judgement.findings) {
      lines.push(
        `  ${finding.severity === 'error' ? palette.red('error') : palette.yellow('warning')} ${finding.message} ${palette.dim(finding.rule)}`,
      );
    }
    if (judgement.matched !== null && judgement.verdict !== 'uncertain')
      lines.push(refsReportMessages.closestRecord(describeRecord(judgement.matched)));
    if (judgement.agreeing.length > 0) lines.push(`  ${palette.dim(refsReportMessages.agreeing(judgement.agreeing))}`);
    const corrected = correctedEntry(site, judgement);
    if (corrected !== null) lines.push(refsReportMessages.correctedEntry(), ...corrected.split('\n').map((line) => `    ${line}`));
    lines.push('');
  }
  const count = (verdict: string) => outcomes.filter((outcome) => outcome.judgement.verdict === verdict).length;
  const hallucinated = count('hallucinated');
  const uncertain = count('uncertain');
  lines.push(
    `${refsReportMessages.entries(outcomes.length)}: ${palette.green(refsReportMessages.valid(count('valid')))}, ${hallucinated > 0 ? palette.red(refsReportMessages.hallucinatedCount(hallucinated)) : refsReportMessages.hallucinatedCount(0)}, ${uncertain > 0 ? palette.yellow(refsReportMessages.uncertainCount(uncertain)) : refsReportMessages.uncertainCount(0)}${options.strict && uncertain > 0 ? refsReportMessages.strictUncertainFails() : ''}.`,
    ...((options.unlisted ?? 0) > 0 ? [`${refsReportMessages.unlisted(options.unlisted as number)}.`] : []),
    `${options.note}.`,
  );
  return `${lines.join('\n')}\n`;
}
