import { buildReport, countOk, type Finding, okJsonOf, type Report, withVerdicts } from '@aiwg-cite/core';
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

describe('writeCheckJson with texts of citations that checked out (core OkJson)', () => {
  it('writes what the report that keeps them writes, across 64 KB pieces and files with texts only', () => {
    const fresh = (file: string, line: number): Finding => ({
      file,
      line,
      column: 1,
      kind: 'rlm',
      text: `[src/a.ts@0123456789abcdef, L${line}]`,
      status: 'fresh',
      severity: 'ok',
      rule: 'rlm/fresh',
      message: '`src/a.ts` matches the cited hash: é',
      fix: null,
    });
    const stale = (file: string, line: number): Finding => ({
      ...fresh(file, line),
      status: 'stale',
      severity: 'warning',
      rule: 'rlm/stale',
    });
    const all: Finding[] = [];
    for (let document = 0; document < 120; document += 1) {
      const file = `docs/${String(document).padStart(3, '0')}.md`;
      for (let line = 1; line <= 12; line += 1) all.push(document % 3 === 0 || line % 5 !== 0 ? fresh(file, line) : stale(file, line));
    }
    const kept = buildReport(all, 120, { skippedInCode: 0, suppressed: 0, notes: [] });
    const others = all.filter((finding) => finding.severity !== 'ok');
    const ok = new Map<string, number>();
    const texts = new Map<string, ReturnType<typeof okJsonOf>>();
    for (const finding of all) if (finding.severity === 'ok') countOk(ok, finding);
    for (const file of new Set(all.map((finding) => finding.file))) {
      texts.set(file, okJsonOf(all.filter((finding) => finding.file === file && finding.severity === 'ok').reverse()));
    }
    const counted = buildReport(others, 120, { skippedInCode: 0, suppressed: 0, notes: [] }, {}, ok, texts);
    const out: string[] = [];
    writeCheckJson(counted, (piece) => out.push(piece), texts);
    expect(out.length).toBeGreaterThan(3);
    expect(out.join('')).toBe(formatJson({ ...kept, citations: withVerdicts(kept.citations) }));
  });
});
