import { buildReport } from '@aiwg-cite/core';
import { describe, expect, it } from 'vitest';
import { paletteFor } from '../color.ts';
import { formatCoverage, formatPretty } from './pretty.ts';
import { keptAndCountedReports, sampleFindings } from './sample-report.ts';

describe('formatPretty with citations that checked out counted, not kept', () => {
  it('prints what it prints for a report that keeps them', () => {
    const { kept, counted, ok } = keptAndCountedReports();
    expect([...ok.values()]).toEqual([2]);
    expect(counted.summary).toEqual(kept.summary);
    const plain = paletteFor({ isTTY: false, write: () => true }, { NO_COLOR: '1' });
    for (const options of [{}, { verbose: true }, { quiet: true }]) {
      const shown = formatPretty(kept, plain, options);
      expect(formatPretty(counted, plain, { ...options, ok })).toBe(shown);
    }
    expect(formatPretty(kept, plain)).toMatch(/^ok 2: /m);
    // Without the counts, the summary would not know them.
    expect(formatPretty(counted, plain)).not.toMatch(/^ok 2: /m);
  });

  it('lists the kinds of the coverage line most cited first, whatever order the citations came in', () => {
    const coverage = { skippedInCode: 0, suppressed: 0, notes: [] };
    const report = buildReport(sampleFindings(), 2, coverage);
    const kinds = Object.entries(report.summary.kinds);
    expect(kinds.length).toBeGreaterThan(1);
    // The same counts, gathered in the other order (as a run that counts its fresh citations gathers them).
    const reversed = { ...report, summary: { ...report.summary, kinds: Object.fromEntries([...kinds].reverse()) } };
    const lines = [report, reversed].map((one) => formatCoverage(one, false));
    expect(lines[1]).toBe(lines[0]);
    const listed = /: (.*?);/.exec(lines[0] ?? '')?.[1]?.split(', ') ?? [];
    const totals = listed.map((part) => Number(part.split(' ')[1]));
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    expect(listed.length).toBe(kinds.length);
  });
});
