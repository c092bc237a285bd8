import { addOkCounts, buildReport, type OkCounts, okKey } from '@aiwg-cite/core';
import { describe, expect, it } from 'vitest';
import { formatGithub } from './github.ts';
import { sampleFindings } from './sample-report.ts';
import { formatSarif } from './sarif.ts';

describe('the SARIF and GitHub reports of a run that counts the citations that checked out', () => {
  it('are the reports of a run that keeps them', () => {
    const coverage = { skippedInCode: 0, suppressed: 0, notes: [] };
    const findings = [...sampleFindings(), ...sampleFindings().map((finding) => ({ ...finding, line: finding.line + 100 }))];
    const ok: OkCounts = new Map();
    for (const finding of findings) if (finding.severity === 'ok') addOkCounts(ok, new Map([[okKey(finding), 1]]));
    expect(ok.size).toBeGreaterThan(0);
    const kept = buildReport(findings, 2, coverage);
    const counted = buildReport(
      findings.filter((finding) => finding.severity !== 'ok'),
      2,
      coverage,
      {},
      ok,
    );
    expect(counted.citations.length).toBeLessThan(kept.citations.length);
    expect(formatSarif(counted, { version: '1.0.0' })).toBe(formatSarif(kept, { version: '1.0.0' }));
    expect(formatGithub(counted)).toBe(formatGithub(kept));
  });
});
