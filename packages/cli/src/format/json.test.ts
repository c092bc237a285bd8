import { buildReport, countOk, type Finding, okJsonOf, type Report, withVerdicts } from '@aiwg-cite/core';
import { describe, expect, it } from 'vitest';
import { chunkedWriter, formatJson, joinPieces, type Piece, writeCheckJson, writeJson } from './json.ts';
import { sampleReport } from './sample-report.ts';

function pieces(report: Report): string[] {
  const out: string[] = [];
  writeJson(report, (piece) => out.push(typeof piece === 'string' ? piece : joinPieces([piece])));
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
    const out: Piece[] = [];
    writeCheckJson(report, (piece) => out.push(piece));
    return joinPieces(out);
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
  /** 120 documents of 12 citations, most of them fresh; `message` is the fresh ones'. */
  function documents(message: string) {
    const fresh = (file: string, line: number): Finding => ({
      file,
      line,
      column: 1,
      kind: 'rlm',
      text: `[src/a.ts@0123456789abcdef, L${line}]`,
      status: 'fresh',
      severity: 'ok',
      rule: 'rlm/fresh',
      message,
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
    return { expected: formatJson({ ...kept, citations: withVerdicts(kept.citations) }), counted, texts };
  }

  it('writes what the report that keeps them writes, across 64 KB pieces and files with texts only', () => {
    const { expected, counted, texts } = documents('`src/a.ts` matches the cited hash: é');
    const out: Piece[] = [];
    writeCheckJson(counted, (piece) => out.push(piece), texts);
    expect(out.length).toBeGreaterThan(3);
    expect(out.every((piece) => typeof piece === 'string')).toBe(true);
    expect(joinPieces(out)).toBe(expected);
  });

  it('writes texts held as ASCII bytes (as the result cache reads them) as they are, gathered in chunks, to the same bytes', () => {
    const { expected, counted, texts } = documents('`src/a.ts` matches the cited hash');
    const encoder = new TextEncoder();
    const asBytes = new Map([...texts].map(([file, held]) => [file, { ...held, json: encoder.encode(held.json as string) }]));
    const pieces: Piece[] = [];
    writeCheckJson(counted, (piece) => pieces.push(piece), asBytes);
    expect(pieces.some((piece) => typeof piece !== 'string')).toBe(true);
    expect(joinPieces(pieces)).toBe(expected);
    const chunks: Uint8Array[] = [];
    const out = chunkedWriter((chunk) => chunks.push(chunk));
    writeCheckJson(counted, out.write, asBytes);
    out.end();
    expect(chunks.length).toBeLessThan(pieces.length / 4);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(expected);
  });
});

describe('chunkedWriter', () => {
  it('keeps the order of short and long pieces, text and bytes, and hands on whole characters', () => {
    const chunks: Uint8Array[] = [];
    const out = chunkedWriter((chunk) => chunks.push(chunk));
    const long = 'é'.repeat(20_000);
    const given: Piece[] = [
      'a',
      new TextEncoder().encode('b'.repeat(40_000)),
      'c€',
      long,
      new Uint8Array([0x64]),
      'x'.repeat(70_000),
      'end',
    ];
    for (const piece of given) out.write(piece);
    out.end();
    expect(Buffer.concat(chunks).toString('utf8')).toBe(joinPieces(given));
    // Each chunk is whole UTF-8 (no character cut between two).
    for (const chunk of chunks) expect(new TextDecoder('utf-8', { fatal: true }).decode(chunk)).toBeTypeOf('string');
    // A second end hands on nothing more.
    out.end();
    expect(Buffer.concat(chunks).toString('utf8')).toBe(joinPieces(given));
  });
});
