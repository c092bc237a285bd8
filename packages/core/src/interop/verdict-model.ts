/**
 * One verdict model (SPEC §9.1): every finding aiwg-cite emits maps onto a source-check verdict
 * and a citation-auditor label, so deterministic findings and model verdicts sit in one report.
 * Code citations (`rlm`) and @-mentions point into the user's own project, which is source-check's
 * `private` context: they are GROUNDED or not, never VERIFIED.
 */
import { compareInFile, type Finding, fromOkKey, type OkJson, okKey, type Severity } from '../report.ts';
import { labelOfSourceCheck, type SourceCheckClaimType, type SourceCheckVerdict, type VerdictLabel } from './schema.ts';

/** The verdicts of one finding, as carried in `check --format json` (`verdicts`). */
export interface FindingVerdicts {
  readonly sourceCheck: SourceCheckVerdict;
  readonly citationAuditor: VerdictLabel;
  readonly claimType: SourceCheckClaimType;
}

type Factual = 'VERIFIED' | 'CONTRADICTED' | 'PARTIALLY_VERIFIED' | 'INSUFFICIENT_EVIDENCE';

/**
 * The mapping of every status in SPEC §1.1. Statuses not listed here (footnotes, statutes, kinds
 * added later) fall back to their severity (see {@link verdictOfSeverity}).
 */
export const STATUS_VERDICTS: Readonly<Record<string, Readonly<Record<string, Factual>>>> = {
  rlm: {
    fresh: 'VERIFIED',
    stale: 'PARTIALLY_VERIFIED',
    unversioned: 'PARTIALLY_VERIFIED',
    'unknown-hash': 'PARTIALLY_VERIFIED',
    unstaged: 'PARTIALLY_VERIFIED',
    unchecked: 'INSUFFICIENT_EVIDENCE',
    malformed: 'PARTIALLY_VERIFIED',
    missing: 'CONTRADICTED',
    'invalid-range': 'CONTRADICTED',
    'outside-root': 'CONTRADICTED',
    'not-a-file': 'CONTRADICTED',
  },
  mention: { found: 'VERIFIED', missing: 'CONTRADICTED', unresolvable: 'INSUFFICIENT_EVIDENCE' },
  ref: { found: 'VERIFIED', 'not-in-corpus': 'CONTRADICTED' },
  doi: {
    verified: 'VERIFIED',
    unverified: 'INSUFFICIENT_EVIDENCE',
    malformed: 'CONTRADICTED',
    placeholder: 'CONTRADICTED',
    fabricated: 'CONTRADICTED',
    retracted: 'CONTRADICTED',
    misattributed: 'CONTRADICTED',
  },
  arxiv: {
    verified: 'VERIFIED',
    unverified: 'INSUFFICIENT_EVIDENCE',
    malformed: 'CONTRADICTED',
    placeholder: 'CONTRADICTED',
    fabricated: 'CONTRADICTED',
    retracted: 'CONTRADICTED',
    misattributed: 'CONTRADICTED',
  },
  url: { alive: 'VERIFIED', dead: 'CONTRADICTED', unconfirmed: 'INSUFFICIENT_EVIDENCE' },
  'author-year': {
    found: 'VERIFIED',
    'author-not-in-corpus': 'INSUFFICIENT_EVIDENCE',
    'year-mismatch': 'PARTIALLY_VERIFIED',
    'implausible-year': 'CONTRADICTED',
  },
  quote: { found: 'VERIFIED', 'not-found': 'CONTRADICTED', uncheckable: 'INSUFFICIENT_EVIDENCE' },
  statistic: { unsourced: 'INSUFFICIENT_EVIDENCE' },
  pages: { 'invalid-pages': 'CONTRADICTED' },
  grade: { ok: 'VERIFIED', overclaim: 'PARTIALLY_VERIFIED', unassessed: 'INSUFFICIENT_EVIDENCE' },
};

/** Kinds whose citations point into the user's own project: source-check's `private` type. */
const PRIVATE_KINDS: ReadonlySet<string> = new Set(['rlm', 'mention']);
const SCIENTIFIC_KINDS: ReadonlySet<string> = new Set(['grade', 'statistic']);

/** The fallback for a status the table does not know: ok → VERIFIED, error → CONTRADICTED, and so on. */
export function verdictOfSeverity(severity: Severity): Factual {
  switch (severity) {
    case 'ok':
      return 'VERIFIED';
    case 'error':
      return 'CONTRADICTED';
    case 'warning':
      return 'PARTIALLY_VERIFIED';
    default:
      return 'INSUFFICIENT_EVIDENCE';
  }
}

/** The source-check claim type of a finding's kind. */
export function claimTypeOf(kind: string): SourceCheckClaimType {
  if (PRIVATE_KINDS.has(kind)) return 'private';
  if (SCIENTIFIC_KINDS.has(kind)) return 'scientific';
  return 'factual_citation';
}

/**
 * The verdicts of a finding. A finding downgraded to `info` (say, no corpus to look in) is never
 * CONTRADICTED: info never fails a run, so it reads as insufficient evidence.
 */
export function verdictsOf(finding: Pick<Finding, 'kind' | 'status' | 'severity'>): FindingVerdicts {
  let factual = STATUS_VERDICTS[finding.kind]?.[finding.status] ?? verdictOfSeverity(finding.severity);
  if (finding.severity === 'info' && factual === 'CONTRADICTED') factual = 'INSUFFICIENT_EVIDENCE';
  const claimType = claimTypeOf(finding.kind);
  const sourceCheck = claimType === 'private' ? toPrivate(factual) : factual;
  return { sourceCheck, citationAuditor: labelOfSourceCheck(sourceCheck), claimType };
}

function toPrivate(verdict: Factual): SourceCheckVerdict {
  if (verdict === 'VERIFIED') return 'GROUNDED';
  if (verdict === 'CONTRADICTED') return 'UNGROUNDED';
  return 'PARTIALLY_GROUNDED';
}

/** The source-check verdict a bare citation-auditor label stands for. */
export function sourceCheckOfLabel(label: VerdictLabel): SourceCheckVerdict {
  if (label === 'verified') return 'VERIFIED';
  if (label === 'contradicted') return 'CONTRADICTED';
  return 'INSUFFICIENT_EVIDENCE';
}

/** The badge icon of a verdict (seed 001's headline UX; ⚠️ also stands for a partial grounding). */
export const VERDICT_ICONS: Readonly<Record<SourceCheckVerdict, string>> = {
  VERIFIED: '✅',
  PARTIALLY_VERIFIED: '⚠️',
  CONTRADICTED: '❌',
  INSUFFICIENT_EVIDENCE: '🔵',
  GROUNDED: '🔒',
  UNGROUNDED: '🔓',
  PARTIALLY_GROUNDED: '⚠️',
};

/** The short word of seed 001's headline: `verified`, `partial`, `contradicted`, … */
export const VERDICT_WORDS: Readonly<Record<SourceCheckVerdict, string>> = {
  VERIFIED: 'verified',
  PARTIALLY_VERIFIED: 'partial',
  CONTRADICTED: 'contradicted',
  INSUFFICIENT_EVIDENCE: 'insufficient',
  GROUNDED: 'grounded in your context',
  UNGROUNDED: 'not grounded in your context',
  PARTIALLY_GROUNDED: 'partly grounded in your context',
};

/** Adds `verdicts: { sourceCheck, citationAuditor, claimType }` to every finding; nothing is renamed. */
export function withVerdicts<T extends Finding>(findings: readonly T[]): (T & { verdicts: FindingVerdicts })[] {
  // The mapping depends only on kind, status and severity: one frozen object per combination
  // serves every finding, instead of one allocation per citation in a report of thousands.
  const shared = new Map<string, FindingVerdicts>();
  return findings.map((finding) => {
    const key = `${finding.kind}\u0000${finding.status}\u0000${finding.severity}`;
    let verdicts = shared.get(key);
    if (verdicts === undefined) {
      verdicts = Object.freeze(verdictsOf(finding));
      shared.set(key, verdicts);
    }
    return { ...finding, verdicts };
  });
}

/** A finding's own JSON text with its verdicts' written after its last property. */
function withVerdictsJson(own: string, verdicts: string): string {
  return own === '{}' ? `{"verdicts":${verdicts}}` : `${own.slice(0, -1)},"verdicts":${verdicts}}`;
}

/**
 * One finding's JSON exactly as `JSON.stringify` writes {@link withVerdicts}'s copy of it, built
 * without the copy (a 50,000-citation report made 50,000 copies to serialise each once): the
 * finding's own text with the verdicts written after its last property. One writer per report:
 * it keeps one text per verdict.
 */
export function verdictJsonWriter(): (finding: Finding) => string {
  const shared = new Map<string, string>();
  return (finding) => {
    // A finding with its own `verdicts` keeps that property's place in the copy: serialise the copy.
    if (Object.hasOwn(finding, 'verdicts')) return JSON.stringify({ ...finding, verdicts: verdictsOf(finding) });
    const key = `${finding.kind}\u0000${finding.status}\u0000${finding.severity}`;
    let verdicts = shared.get(key);
    if (verdicts === undefined) {
      verdicts = JSON.stringify(verdictsOf(finding));
      shared.set(key, verdicts);
    }
    return withVerdictsJson(JSON.stringify(finding), verdicts);
  };
}

/** The verdicts' JSON text of citations that checked out, by counted key ({@link okKey}). */
const okVerdicts = new Map<string, string>();

function okVerdictsJson(key: string): string {
  let verdicts = okVerdicts.get(key);
  if (verdicts === undefined) {
    const { kind, status } = fromOkKey(key);
    verdicts = JSON.stringify(verdictsOf({ kind, status, severity: 'ok' }));
    okVerdicts.set(key, verdicts);
  }
  return verdicts;
}

/**
 * The JSON text of a citation that checked out as `check --format json` writes it: its own text
 * with its verdicts after its last property (the verdicts follow from its counted key,
 * {@link okKey}, passed by a caller that has it). What {@link OkJson} holds and the result cache
 * stores, so a JSON report copies a document's texts as they are.
 */
export function okReportJson(finding: Finding, key: string = okKey(finding)): string {
  return withVerdictsJson(JSON.stringify(finding), okVerdictsJson(key));
}

/** The finding's own text of an {@link okReportJson} text counted under `key`; `null` when it is not one. */
export function okOwnJson(text: string, key: string): string | null {
  const suffix = `,"verdicts":${okVerdictsJson(key)}}`;
  return text.endsWith(suffix) && text.length > suffix.length ? `${text.slice(0, -suffix.length)}}` : null;
}

/**
 * What `check --format json` writes for texts `from` to `to` (past the last) of a document's
 * citations that checked out: their report texts, written as the one slice of `json` they are
 * (a view of its bytes when it holds bytes).
 */
export function writeOkJson(texts: OkJson, from: number, to: number, write: (text: string | Uint8Array) => void): void {
  if (to <= from) return;
  const start = from === 0 ? 0 : (texts.ends[from - 1] as number) + 1;
  const end = texts.ends[to - 1] as number;
  write(typeof texts.json === 'string' ? texts.json.slice(start, end) : texts.json.subarray(start, end));
}

/**
 * A document's citations that checked out (none with its own `verdicts`, {@link okJsonHolds}) as
 * {@link OkJson}: their report texts ({@link okReportJson}) in report order.
 */
export function okJsonOf(findings: readonly Finding[]): OkJson {
  // Array.prototype.sort is stable: citations at one place keep the order the checks gave them.
  const sorted = [...findings].sort(compareInFile);
  const keys = sorted.map(okKey);
  const ends: number[] = [];
  const texts: string[] = [];
  let end = -1;
  for (const [at, finding] of sorted.entries()) {
    const text = okReportJson(finding, keys[at]);
    texts.push(text);
    end += text.length + 1;
    ends.push(end);
  }
  return {
    lines: sorted.map((finding) => finding.line),
    columns: sorted.map((finding) => finding.column),
    kinds: sorted.map((finding) => finding.kind),
    keys,
    json: texts.join(','),
    ends,
  };
}
