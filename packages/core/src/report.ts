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

/**
 * Citations that checked out (severity `ok`), counted instead of kept, by `kind`, `status` and
 * `rule` (the key {@link okKey} makes). A pretty report lists none of them, and at a million
 * citations keeping them costs most of a run's memory and time; the summary still counts them.
 */
export type OkCounts = Map<string, number>;

/** The {@link OkCounts} key of a finding. */
export function okKey(finding: Pick<Finding, 'kind' | 'status' | 'rule'>): string {
  return `${finding.kind}\u0000${finding.status}\u0000${finding.rule}`;
}

/** The kind, status and rule an {@link okKey} stands for. */
export function fromOkKey(key: string): { readonly kind: string; readonly status: string; readonly rule: string } {
  const [kind = '', status = '', rule = ''] = key.split('\u0000');
  return { kind, status, rule };
}

/** Counts one finding that checked out. */
export function countOk(counts: OkCounts, finding: Pick<Finding, 'kind' | 'status' | 'rule'>): void {
  const key = okKey(finding);
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** Adds one set of counts to another. */
export function addOkCounts(into: OkCounts, counts: ReadonlyMap<string, number>): void {
  for (const [key, count] of counts) into.set(key, (into.get(key) ?? 0) + count);
}

/**
 * Builds the summary and verdict of a set of findings; `ok` counts citations that checked out and
 * were not kept (they join the summary, never `citations`).
 */
export function buildReport(
  findings: readonly Finding[],
  files: number,
  coverage: Coverage,
  options: VerdictOptions = {},
  ok: ReadonlyMap<string, number> = new Map(),
): Report {
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
    if (finding.kind === 'rlm') countRlm(rlm, finding.status, 1);
  }
  let counted = 0;
  for (const [key, count] of ok) {
    const { kind, status } = fromOkKey(key);
    const byStatus = kinds[kind] ?? {};
    byStatus[status] = (byStatus[status] ?? 0) + count;
    kinds[kind] = byStatus;
    if (kind === 'rlm') countRlm(rlm, status, count);
    counted += count;
  }
  const failed = errors > 0 || warnings > (options.maxWarnings ?? Number.POSITIVE_INFINITY);
  return {
    version: 1,
    verdict: failed ? 'FAIL' : 'PASS',
    summary: { files, citations: citations.length + counted, errors, warnings, infos, rlm, kinds },
    citations,
    coverage,
  };
}

function countRlm(rlm: RlmSummary, status: string, count: number): void {
  rlm.total += count;
  switch (status) {
    case 'fresh':
      rlm.fresh += count;
      break;
    case 'stale':
    case 'unknown-hash':
    case 'unstaged':
      rlm.stale += count;
      break;
    case 'unversioned':
      rlm.unversioned += count;
      break;
    case 'missing':
    case 'outside-root':
    case 'not-a-file':
      rlm.missing += count;
      break;
    case 'malformed':
      rlm.malformed += count;
      break;
    case 'invalid-range':
      rlm.invalidRange += count;
      break;
  }
}

/** Orders findings by file, then position. */
export function compareFindings(a: FindingCore, b: FindingCore): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.line - b.line || a.column - b.column || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0);
}
