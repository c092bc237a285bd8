import { describe, expect, it } from 'vitest';
import { formatGithub } from './github.ts';
import { keptAndCountedReports } from './sample-report.ts';
import { formatSarif } from './sarif.ts';

describe('the SARIF and GitHub reports of a run that counts the citations that checked out', () => {
  it('are the reports of a run that keeps them', () => {
    const { kept, counted, ok } = keptAndCountedReports();
    expect(ok.size).toBeGreaterThan(0);
    expect(counted.citations.length).toBeLessThan(kept.citations.length);
    expect(formatSarif(counted, { version: '1.0.0' })).toBe(formatSarif(kept, { version: '1.0.0' }));
    expect(formatGithub(counted)).toBe(formatGithub(kept));
  });
});
