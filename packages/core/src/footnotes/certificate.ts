/**
 * The citation verification certificate (SPEC §7.3): the gate decision over checked footnotes
 * and its Markdown rendering. Every percentage in the certificate can be recomputed from the
 * certificate's own tables.
 */
import type { Finding } from '../report.ts';
import { FOOTNOTE_CATEGORIES, type FootnoteCategory, type FootnoteDisposition } from './classify.ts';
import type { TagKind } from './tags.ts';

/** The outcome of checking one footnote. `fabricated` counts as unconfirmed and forces HARD_FAIL. */
export type ItemOutcome = 'confirmed' | 'unconfirmed' | 'error' | 'fabricated';

/** One checked (VERIFIED or INFERRED) footnote. */
export interface CertificateItem {
  /** The footnote's number or label. */
  readonly number: string;
  readonly section: string;
  readonly tag: 'VERIFIED' | 'INFERRED';
  readonly category: FootnoteCategory;
  readonly citation: string;
  readonly outcome: ItemOutcome;
  readonly reason: string;
  /** Which source answered (`doi.org`, `crossref`, `http`, `structure`…), when one did. */
  readonly source?: string;
}

/** One footnote that is not checked, for the counts. */
export interface UncheckedFootnote {
  readonly section: string;
  readonly tag: TagKind | null;
  readonly disposition: Exclude<FootnoteDisposition, 'checked'>;
}

/** The gate status. */
export type CertificateStatus = 'PASS' | 'PASS_WITH_EXCEPTIONS' | 'HARD_FAIL';

/** The gate decision. */
export interface GateDecision {
  readonly status: CertificateStatus;
  readonly confirmed: number;
  readonly verifiable: number;
  readonly fabricated: number;
  /** Error-severity structural findings, each of which forces HARD_FAIL. */
  readonly structuralErrors: number;
  /** HARD_FAIL because no footnote was verified while some should have been (untagged or UNVERIFIED ones). */
  readonly nothingVerified: boolean;
  /** The rate rounded down to one decimal, as shown: `94.9`. `null` when nothing is verifiable. */
  readonly percent: string | null;
}

/** What besides the checked footnotes decides the gate. */
export interface GateContext {
  /** Error-severity structural findings: a marker with no definition, a placeholder, a statute that cannot exist. */
  readonly structuralErrors?: number;
  /** Footnotes that carry no VERIFIED or INFERRED tag and are not skipped: untagged, UNVERIFIED, UNVERIFIABLE. */
  readonly notCounted?: number;
}

/**
 * Decides the gate: rate = confirmed ÷ verifiable as an exact rational; ≥ 95% PASS, ≥ 85%
 * PASS_WITH_EXCEPTIONS. A likely-fabricated footnote or a structural error (a statute that cannot
 * exist, untagged or not) forces HARD_FAIL, and so does a memo whose footnotes should have been
 * verified and none was: a certificate never passes on 0/0 over untagged footnotes.
 */
export function decideGate(items: readonly CertificateItem[], context: GateContext = {}): GateDecision {
  const verifiable = items.length;
  const confirmed = items.filter((item) => item.outcome === 'confirmed').length;
  const fabricated = items.filter((item) => item.outcome === 'fabricated').length;
  const structuralErrors = context.structuralErrors ?? 0;
  const nothingVerified = verifiable === 0 && (context.notCounted ?? 0) > 0;
  let status: CertificateStatus;
  if (fabricated > 0 || structuralErrors > 0 || nothingVerified) status = 'HARD_FAIL';
  else if (confirmed * 100 >= verifiable * 95) status = 'PASS';
  else if (confirmed * 100 >= verifiable * 85) status = 'PASS_WITH_EXCEPTIONS';
  else status = 'HARD_FAIL';
  const percent = verifiable === 0 ? null : formatPercent(confirmed, verifiable);
  return { status, confirmed, verifiable, fabricated, structuralErrors, nothingVerified, percent };
}

/** The gate's context from a run's unchecked footnotes and structural findings. */
export function gateContextOf(unchecked: readonly UncheckedFootnote[], findings: readonly Finding[]): GateContext {
  return {
    structuralErrors: findings.filter((finding) => finding.severity === 'error').length,
    notCounted: unchecked.filter((footnote) => footnote.disposition !== 'skipped').length,
  };
}

/** `confirmed / verifiable` as a percentage rounded down to one decimal, so 94.99% never shows as 95.0%. */
export function formatPercent(numerator: number, denominator: number): string {
  const tenths = Math.floor((numerator * 1000) / denominator);
  return `${Math.floor(tenths / 10)}.${tenths % 10}`;
}

/** Everything the certificate shows. */
export interface CertificateInput {
  /** The document, relative to the root. */
  readonly document: string;
  readonly sha256: string;
  /** ISO date-time of the run. */
  readonly date: string;
  readonly toolVersion: string;
  readonly mode: 'online' | 'offline';
  readonly items: readonly CertificateItem[];
  readonly unchecked: readonly UncheckedFootnote[];
  /** Structural findings (undefined markers, placeholders, statutes…). */
  readonly findings: readonly Finding[];
  /** Section names in document order; sections not listed follow in order of appearance. */
  readonly sections?: readonly string[];
}

const CATEGORY_LABELS: Readonly<Record<FootnoteCategory, string>> = {
  statutory: 'Statutory (structural)',
  'url-verified': 'URL VERIFIED',
  'url-inferred': 'URL INFERRED',
  'text-verified': 'Text VERIFIED',
  'text-inferred': 'Text INFERRED',
};

const OUTCOME_LABELS: Readonly<Record<ItemOutcome, string>> = {
  confirmed: 'CONFIRMED',
  unconfirmed: 'UNCONFIRMED',
  error: 'ERROR',
  fabricated: 'LIKELY-FABRICATED',
};

/** Renders the certificate as Markdown (layout of SPEC §7.3). */
export function renderCertificate(input: CertificateInput): string {
  const gate = decideGate(input.items, gateContextOf(input.unchecked, input.findings));
  const out: string[] = [];
  const rate = gate.percent === null ? '0/0 (no verifiable footnotes)' : `${gate.confirmed}/${gate.verifiable} (${gate.percent}%)`;
  out.push('# Citation Verification Certificate', '');
  out.push(`- **Document:** \`${input.document}\``);
  out.push(`- **SHA-256:** \`${input.sha256}\``);
  out.push(`- **Date:** ${input.date}`);
  out.push(`- **Tool:** aiwg-cite ${input.toolVersion}`);
  out.push(`- **Mode:** ${input.mode}`, '');
  out.push(`**Status:** ${gate.status}`, '');
  out.push(`**Confirmed:** ${rate}`, '');

  out.push('## By category', '');
  out.push('| Category | Items | Confirmed | Unconfirmed | Error |', '| --- | ---: | ---: | ---: | ---: |');
  for (const category of FOOTNOTE_CATEGORIES) {
    const items = input.items.filter((item) => item.category === category);
    out.push(`| ${CATEGORY_LABELS[category]} | ${counts(items).join(' | ')} |`);
  }
  out.push(`| **Total verifiable** | ${counts(input.items).join(' | ')} |`);
  const skipped = input.unchecked.filter((footnote) => footnote.disposition === 'skipped');
  const unverifiable = input.unchecked.filter((footnote) => footnote.disposition === 'unverifiable');
  const untagged = input.unchecked.filter((footnote) => footnote.disposition === 'untagged');
  out.push(`| Skipped (ASSUMED / METHODOLOGY) | ${skipped.length} | - | - | - |`);
  out.push(`| Not counted (UNVERIFIED / UNVERIFIABLE) | ${unverifiable.length} | - | - | - |`);
  out.push(`| Not counted (untagged) | ${untagged.length} | - | - | - |`, '');

  out.push('## By section', '');
  out.push(
    '| Section | Verifiable | Confirmed | Unconfirmed | Error | Skipped | Untagged |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const section of sectionsOf(input)) {
    const items = input.items.filter((item) => item.section === section);
    const [total, confirmed, unconfirmed, error] = counts(items);
    const sectionSkipped = skipped.filter((footnote) => footnote.section === section).length;
    const sectionUntagged = input.unchecked.filter((footnote) => footnote.section === section && footnote.disposition !== 'skipped').length;
    out.push(`| ${cell(section)} | ${total} | ${confirmed} | ${unconfirmed} | ${error} | ${sectionSkipped} | ${sectionUntagged} |`);
  }
  out.push('');

  out.push('## Unconfirmed and error citations', '');
  const failing = input.items.filter((item) => item.outcome !== 'confirmed');
  if (failing.length === 0) out.push('None: every verifiable footnote was confirmed.');
  else {
    out.push('| # | Section | Tag | Category | Outcome | Citation | Reason |', '| --- | --- | --- | --- | --- | --- | --- |');
    for (const item of failing) {
      out.push(
        `| ${cell(item.number)} | ${cell(item.section)} | ${item.tag} | ${CATEGORY_LABELS[item.category]} | ${OUTCOME_LABELS[item.outcome]} | ${cell(item.citation)} | ${cell(item.reason)} |`,
      );
    }
  }
  out.push('');

  if (input.findings.length > 0) {
    out.push('## Structural findings', '');
    out.push('| Line | Severity | Rule | Message |', '| ---: | --- | --- | --- |');
    for (const finding of input.findings)
      out.push(`| ${finding.line} | ${finding.severity} | ${finding.rule} | ${cell(finding.message)} |`);
    out.push('');
  }

  out.push('## Gate determination', '');
  out.push('- PASS needs at least 95% confirmed, PASS_WITH_EXCEPTIONS at least 85%; below that, HARD_FAIL.');
  out.push('- ERROR (could not be checked) counts as unconfirmed. Any LIKELY-FABRICATED footnote forces HARD_FAIL.');
  out.push(
    '- So does a structural error in any footnote, tagged or not (a marker with no definition, a placeholder, a statute that cannot exist), and a memo none of whose untagged or UNVERIFIED footnotes was verified.',
  );
  const nothing = gate.nothingVerified ? ' (no footnote carries a VERIFIED or INFERRED tag)' : '';
  out.push(
    `- Rate: ${rate}; likely fabricated: ${gate.fabricated}; structural errors: ${gate.structuralErrors}. Determination: **${gate.status}**${nothing}.`,
    '',
  );

  out.push('## Limitations', '');
  out.push(
    '- Statutes (U.S.C., C.F.R.) are confirmed by structure only: the title exists and the section is well-formed, not that the text says what the memo claims.',
  );
  out.push('- A URL answering 2xx confirms that the page exists, not that it supports the claim.');
  out.push(
    '- Text footnotes are confirmed through a DOI or arXiv id they contain, or a REF id, author-year citation or quoted title found in the research corpus or a bibliography; the rest need a search provider (none configured) and stay UNCONFIRMED (`needs-search`).',
  );
  if (input.mode === 'offline')
    out.push('- This run was offline: URL, DOI and arXiv footnotes were not fetched and count as ERROR. Run with `--online`.');
  return `${out.join('\n')}\n`;
}

function counts(items: readonly CertificateItem[]): [number, number, number, number] {
  let confirmed = 0;
  let unconfirmed = 0;
  let error = 0;
  for (const item of items) {
    if (item.outcome === 'confirmed') confirmed += 1;
    else if (item.outcome === 'error') error += 1;
    else unconfirmed += 1;
  }
  return [items.length, confirmed, unconfirmed, error];
}

function sectionsOf(input: CertificateInput): string[] {
  const sections: string[] = [...(input.sections ?? [])];
  for (const { section } of [...input.items, ...input.unchecked]) if (!sections.includes(section)) sections.push(section);
  return sections;
}

function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}
