import type { Coverage, Finding, FindingCore, Report, RlmSummary } from './report-types.ts';

export type { Coverage, Finding, FindingCore, Report, RlmSummary, Severity, Summary } from './report-types.ts';

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
