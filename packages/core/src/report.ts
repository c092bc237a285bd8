/** Severity of a finding; `ok` marks a citation that checked out. */
export type Severity = 'error' | 'warning' | 'info' | 'ok';

/** The fields every finding carries (the JSON contract of `check --format json`). */
export interface FindingCore {
  /** The citing document, a POSIX path relative to the root. */
  readonly file: string;
  /** 1-based line of the citation's first character. */
  readonly line: number;
  /** 1-based column in UTF-16 code units. */
  readonly column: number;
  /** What was cited: `rlm`, `mention`, `ref`, `doi`, … */
  readonly kind: string;
  /** The citation exactly as written. */
  readonly text: string;
  /** The lowercase status from the closed enum of its kind. */
  readonly status: string;
  readonly severity: Severity;
  /** A stable rule id such as `rlm/stale`. */
  readonly rule: string;
  readonly message: string;
  /** How to fix it, or `null` when nothing needs fixing. */
  readonly fix: string | null;
}

/** A finding: the core fields plus kind-specific ones (`artifact`, `hash`, `cause`, …). */
export interface Finding extends FindingCore {
  readonly [field: string]: unknown;
}

/** Counts of the RLM summary block. */
export interface RlmSummary {
  total: number;
  fresh: number;
  stale: number;
  unversioned: number;
  missing: number;
  malformed: number;
  invalidRange: number;
}

/** The `summary` object of a report. */
export interface Summary {
  files: number;
  citations: number;
  errors: number;
  warnings: number;
  infos: number;
  rlm: RlmSummary;
  /** Count per kind and status: `{ "rlm": { "fresh": 3, "stale": 1 } }`. */
  kinds: Record<string, Record<string, number>>;
}

/** What was looked at and what was skipped, so a silent skip never reads as a pass. */
export interface Coverage {
  /** Candidates inside code that were not checked (see `--include-code`). */
  skippedInCode: number;
  /** Findings silenced by `aiwg-cite-disable-next-line`. */
  suppressed: number;
  /** Other notes, one line each. */
  notes: string[];
}

/** A complete check result. */
export interface Report {
  readonly version: 1;
  readonly verdict: 'PASS' | 'FAIL';
  readonly summary: Summary;
  readonly citations: readonly Finding[];
  readonly coverage: Coverage;
}

/** Options that decide PASS or FAIL. */
export interface VerdictOptions {
  /** Every warning becomes an error. @default false */
  readonly strict?: boolean;
  /** Fail when there are more warnings than this. @default Infinity */
  readonly maxWarnings?: number;
}

/** Turns warnings into errors under `--strict` (SPEC §1.2). */
export function escalate(findings: readonly Finding[], strict: boolean): Finding[] {
  if (!strict) return [...findings];
  return findings.map((finding) => (finding.severity === 'warning' ? { ...finding, severity: 'error' } : finding));
}

/** Builds the summary and verdict of a set of findings. */
export function buildReport(findings: readonly Finding[], files: number, coverage: Coverage, options: VerdictOptions = {}): Report {
  const citations = escalate(findings, options.strict === true).sort(compareFindings);
  const rlm: RlmSummary = { total: 0, fresh: 0, stale: 0, unversioned: 0, missing: 0, malformed: 0, invalidRange: 0 };
  const kinds: Record<string, Record<string, number>> = {};
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  for (const finding of citations) {
    if (finding.severity === 'error') errors += 1;
    else if (finding.severity === 'warning') warnings += 1;
    else if (finding.severity === 'info') infos += 1;
    const byStatus = kinds[finding.kind] ?? {};
    byStatus[finding.status] = (byStatus[finding.status] ?? 0) + 1;
    kinds[finding.kind] = byStatus;
    if (finding.kind === 'rlm') countRlm(rlm, finding.status);
  }
  const failed = errors > 0 || warnings > (options.maxWarnings ?? Number.POSITIVE_INFINITY);
  return {
    version: 1,
    verdict: failed ? 'FAIL' : 'PASS',
    summary: { files, citations: citations.length, errors, warnings, infos, rlm, kinds },
    citations,
    coverage,
  };
}

function countRlm(rlm: RlmSummary, status: string): void {
  rlm.total += 1;
  switch (status) {
    case 'fresh':
      rlm.fresh += 1;
      break;
    case 'stale':
    case 'unknown-hash':
    case 'unstaged':
      rlm.stale += 1;
      break;
    case 'unversioned':
      rlm.unversioned += 1;
      break;
    case 'missing':
    case 'outside-root':
    case 'not-a-file':
      rlm.missing += 1;
      break;
    case 'malformed':
      rlm.malformed += 1;
      break;
    case 'invalid-range':
      rlm.invalidRange += 1;
      break;
  }
}

/** Orders findings by file, then position. */
export function compareFindings(a: FindingCore, b: FindingCore): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.line - b.line || a.column - b.column || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0);
}
