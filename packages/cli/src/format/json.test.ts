import { type Finding, type Report, withVerdicts } from '@aiwg-cite/core';
import { describe, expect, it } from 'vitest';
import { formatJson, writeCheckJson, writeJson } from './json.ts';
import { sampleReport } from './sample-report.ts';

function pieces(report: Report): string[] {
  const out: string[] = [];
  writeJson(report, (piece) => out.push(piece));
  return out;
}

describe('writeJson', () => {
  it('writes exactly formatJson’s text', () => {
    const report = sampleReport();
    expect(pieces(report).join('')).toBe(formatJson(report));
  });

  it('writes a large report in pieces of about 64 KB, and the same text', () => {
    const base = sampleReport();
    const many = Array.from({ length: 3000 }, (_, index) => ({
      ...(base.citations[index % base.citations.length] as object),
      line: index,
    }));
    // An undefined field is left out and an undefined array element is `null`, as JSON.stringify does.
    const report = { ...base, citations: many, extra: undefined, odd: [1, undefined, 'é\u2028'] } as unknown as Report;
    const written = pieces(report);
    expect(written.length).toBeGreaterThan(3);
    expect(Math.max(...written.slice(0, -1).map((piece) => piece.length))).toBeLessThan(80 * 1024);
    expect(written.join('')).toBe(formatJson(report));
  });
});

describe('writeCheckJson', () => {
  const checkJson = (report: Report): string => {
    const out: string[] = [];
    writeCheckJson(report, (piece) => out.push(piece));
    return out.join('');
  };

  it('writes formatJson’s text of the report with every citation’s verdicts', () => {
    const report = sampleReport();
    expect(checkJson(report)).toBe(formatJson({ ...report, citations: withVerdicts(report.citations) }));
  });

  it('keeps the place of a citation’s own verdicts field and leaves undefined fields out, as the copy does', () => {
    const report = sampleReport();
    const odd = [
      { ...(report.citations[0] as Finding), verdicts: 'old', extra: undefined },
      { ...(report.citations[0] as Finding), hash: undefined },
    ] as unknown as Finding[];
    const withOdd = { ...report, citations: odd };
    expect(checkJson(withOdd)).toBe(formatJson({ ...withOdd, citations: withVerdicts(odd) }));
  });
});
