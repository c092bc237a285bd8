import { buildReport, countOk, type Finding, type OkCounts, type Report } from '@aiwg-cite/core';

// Test data for the CI formats; not part of the bundle (nothing but tests imports it).

/** Findings with the characters that break naive formatters. */
export function sampleFindings(): Finding[] {
  const base = { kind: 'rlm', fix: null, artifact: 'src/a.ts', hash: null, currentHash: null, lines: null };
  return [
    {
      ...base,
      file: 'docs/a b.md',
      line: 3,
      column: 5,
      text: '[src/x.ts, L1]',
      status: 'missing',
      severity: 'error',
      rule: 'rlm/missing',
      message: '`src/x.ts` does not exist',
      fix: 'cite a file that exists',
    },
    {
      ...base,
      file: 'docs/a b.md',
      line: 9,
      column: 1,
      text: '[src/a.ts@0123456789abcdef]',
      status: 'stale',
      severity: 'warning',
      rule: 'rlm/stale',
      message: '100% changed: a, b\nsecond line <&"\'>',
      cause: 'staged-change',
    },
    {
      ...base,
      file: 'docs/c.md',
      line: 1,
      column: 2,
      text: '[src/a.ts@0123456789abcdef]',
      status: 'fresh',
      severity: 'ok',
      rule: 'rlm/fresh',
      message: 'ok',
    },
    {
      ...base,
      file: 'docs/c.md',
      line: 2,
      column: 2,
      text: 'x',
      status: 'unsourced',
      severity: 'info',
      rule: 'statistic/unsourced',
      kind: 'statistic',
      message: 'no source',
    },
  ];
}

/** A report over {@link sampleFindings}. */
export const sampleReport = (): Report => buildReport(sampleFindings(), 2, { skippedInCode: 0, suppressed: 0, notes: [] });

/**
 * The sample findings twice over, as two reports: one that keeps the citations that checked out,
 * and one that counts them instead (`ok`), as a counting `check` builds it.
 */
export function keptAndCountedReports(): { readonly kept: Report; readonly counted: Report; readonly ok: OkCounts } {
  const coverage = { skippedInCode: 0, suppressed: 0, notes: [] };
  const findings = [...sampleFindings(), ...sampleFindings().map((finding) => ({ ...finding, line: finding.line + 100 }))];
  const ok: OkCounts = new Map();
  for (const finding of findings) if (finding.severity === 'ok') countOk(ok, finding);
  const others = findings.filter((finding) => finding.severity !== 'ok');
  return { kept: buildReport(findings, 2, coverage), counted: buildReport(others, 2, coverage, {}, ok), ok };
}
