import { describe, expect, it } from 'vitest';
import { applyEdits } from '../edits.ts';
import { scanMarkdown } from '../markdown/scan.ts';
import { extractRlm } from '../rlm/extract.ts';
import { parseLineRange } from '../rlm/grammar.ts';
import { classifyDrift } from './classify.ts';
import { diffLines, mapRange, splitLines, unifiedHunks } from './line-diff.ts';
import { planStampEdit, stampedText, unifiedDiff } from './stamp-plan.ts';

const lines = (...items: string[]) => `${items.join('\n')}\n`;

/** Rebuilds both sides from a diff, proving the runs cover them exactly. */
function replay(oldLines: string[], newLines: string[]) {
  const ops = diffLines(oldLines, newLines);
  const a: string[] = [];
  const b: string[] = [];
  for (const op of ops) {
    for (let at = 0; at < op.count; at += 1) {
      if (op.type !== 'insert') a.push(oldLines[op.oldStart + at] as string);
      if (op.type !== 'delete') b.push(newLines[op.newStart + at] as string);
      if (op.type === 'equal') expect(oldLines[op.oldStart + at]).toBe(newLines[op.newStart + at]);
    }
  }
  return { a, b, ops };
}

/** Applies unified hunks (GNU patch semantics, exact context) to old lines. */
function patch(oldLines: readonly string[], hunks: readonly string[]): string[] {
  const out: string[] = [];
  let cursor = 0;
  for (const line of hunks) {
    const header = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$/.exec(line);
    if (header !== null) {
      const oldCount = header[2] === undefined ? 1 : Number(header[2]);
      const start = oldCount === 0 ? Number(header[1]) : Number(header[1]) - 1;
      expect(start).toBeGreaterThanOrEqual(cursor);
      out.push(...oldLines.slice(cursor, start));
      cursor = start;
      expect(out.length).toBe(Number(header[4]) === 0 ? Number(header[3]) : Number(header[3]) - 1);
      continue;
    }
    const body = line.slice(1);
    if (line.startsWith('+')) out.push(body);
    else {
      expect(oldLines[cursor]).toBe(body);
      if (line.startsWith(' ')) out.push(body);
      cursor += 1;
    }
  }
  return [...out, ...oldLines.slice(cursor)];
}

describe('line diff', () => {
  it('splits lines as SPEC §2.4 counts them', () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a\nb')).toEqual(['a', 'b']);
    expect(splitLines('a\r\nb\r\n')).toEqual(['a\r', 'b\r']);
  });

  it('covers both sides exactly for many pseudo-random edits', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    for (let round = 0; round < 200; round += 1) {
      const oldLines = Array.from({ length: next() % 30 }, () => `l${next() % 6}`);
      const newLines = oldLines.filter(() => next() % 4 !== 0).flatMap((line) => (next() % 5 === 0 ? [line, `n${next() % 6}`] : [line]));
      const { a, b } = replay(oldLines, newLines);
      expect(a).toEqual(oldLines);
      expect(b).toEqual(newLines);
    }
  });

  it('past the cost bound, reports the middle as one replaced block that still covers both sides', () => {
    const oldLines = Array.from({ length: 1500 }, (_, at) => `old ${at}`);
    const newLines = ['same', ...Array.from({ length: 1500 }, (_, at) => `new ${at}`), 'end'];
    const { a, b, ops } = replay(['same', ...oldLines, 'end'], newLines);
    expect(a).toEqual(['same', ...oldLines, 'end']);
    expect(b).toEqual(newLines);
    expect(ops.map((op) => op.type)).toEqual(['equal', 'delete', 'insert', 'equal']);
  });

  it('finds the minimal edit for a moved block', () => {
    const { ops } = replay(['a', 'b', 'c'], ['x', 'a', 'b', 'c']);
    expect(ops).toEqual([
      { type: 'insert', oldStart: 0, newStart: 0, count: 1 },
      { type: 'equal', oldStart: 0, newStart: 1, count: 3 },
    ]);
  });

  it('maps a range through insertions and widens it over a changed block', () => {
    const oldLines = ['a', 'b', 'c', 'd', 'e'];
    const newLines = ['new', 'a', 'b', 'C1', 'C2', 'd', 'e'];
    const ops = diffLines(oldLines, newLines);
    expect(mapRange(ops, 0, 2)).toEqual({ start: 1, end: 3 });
    expect(mapRange(ops, 2, 3)).toEqual({ start: 3, end: 5 });
    expect(mapRange(ops, 3, 5)).toEqual({ start: 5, end: 7 });
  });

  it('prints unified hunks with real line numbers and no carriage returns', () => {
    const hunks = unifiedHunks(['a\r', 'b\r', 'c\r'], ['a\r', 'B\r', 'c\r']);
    expect(hunks).toEqual(['@@ -1,3 +1,3 @@', ' a', '-b', '+B', ' c']);
  });

  it('prints hunks that patch the old lines into the new ones, for many pseudo-random edits', () => {
    let seed = 11;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    for (let round = 0; round < 200; round += 1) {
      const oldLines = Array.from({ length: next() % 40 }, () => `l${next() % 8}`);
      const newLines = oldLines.filter(() => next() % 5 !== 0).flatMap((line) => (next() % 6 === 0 ? [line, `n${next() % 8}`] : [line]));
      expect(patch(oldLines, unifiedHunks(oldLines, newLines, next() % 4))).toEqual(newLines);
    }
  });

  it('splits distant changes into separate hunks', () => {
    const oldLines = Array.from({ length: 20 }, (_, at) => `l${at}`);
    const newLines = oldLines.map((line, at) => (at === 1 || at === 18 ? `${line}!` : line));
    const hunks = unifiedHunks(oldLines, newLines);
    expect(hunks.filter((line) => line.startsWith('@@'))).toEqual(['@@ -1,5 +1,5 @@', '@@ -16,5 +16,5 @@']);
  });
});

describe('classifyDrift', () => {
  const old = lines('header', 'function f() {', '  return 1;', '}', 'footer');

  it('says intact when the lines stand at the same numbers', () => {
    const result = classifyDrift(old, lines('header', 'function f() {', '  return 1;', '}', 'footer', 'more'), parseLineRange('L2-4'));
    expect(result).toMatchObject({ drift: 'intact', mechanical: true, newRange: { text: 'L2-4' } });
  });

  it('says moved, with the new range, when the lines shifted', () => {
    const result = classifyDrift(old, lines('a', 'b', 'header', 'function f() {', '  return 1;', '}', 'footer'), parseLineRange('L2-4'));
    expect(result).toMatchObject({ drift: 'moved', mechanical: true, newRange: { start: 4, end: 6, text: 'L4-6' } });
  });

  it('uses the diff to pick between several verbatim matches, and calls an unresolved tie changed', () => {
    const repeated = lines('x', '}', 'y', '}', 'z');
    expect(classifyDrift(repeated, lines('new', 'x', '}', 'y', '}', 'z'), parseLineRange('L4'))).toMatchObject({
      drift: 'moved',
      newRange: { text: 'L5' },
    });
    const ambiguous = classifyDrift(
      lines('a1', 'a2', 'a3', 'K', 'b1', 'b2', 'b3'),
      lines('K', 'a1', 'a2', 'a3', 'X', 'b1', 'b2', 'b3', 'K'),
      parseLineRange('L4'),
    );
    expect(ambiguous.drift).toBe('changed');
    expect(ambiguous.mechanical).toBe(false);
  });

  it('says whitespace when only whitespace changed, CRLF included', () => {
    const crlf = old.replace(/\n/g, '\r\n').replace('  return 1;', '    return 1;  ');
    expect(classifyDrift(old, `extra\r\n${crlf}`, parseLineRange('L2-4'))).toMatchObject({
      drift: 'whitespace',
      mechanical: true,
      newRange: { text: 'L3-5' },
    });
  });

  it('says changed and shows the region diff with file line numbers', () => {
    const result = classifyDrift(old, lines('header', 'extra', 'function f() {', '  return 2;', '}', 'footer'), parseLineRange('L2-4'));
    expect(result.drift).toBe('changed');
    expect(result.newRange?.text).toBe('L3-5');
    expect(result.regionDiff).toEqual(['@@ -2,3 +3,3 @@', ' function f() {', '-  return 1;', '+  return 2;', ' }']);
  });

  it('gives no new range when the cited lines were removed outright', () => {
    const result = classifyDrift(old, lines('header', 'footer'), parseLineRange('L2-4'));
    expect(result).toMatchObject({ drift: 'changed', newRange: null, mechanical: false });
  });

  it('treats a citation without lines as the whole file', () => {
    expect(classifyDrift('a\nb\n', 'a  \r\nb\r\n', null)).toMatchObject({ drift: 'whitespace', mechanical: true, newRange: null });
    expect(classifyDrift('a\nb\n', 'a\nc\n', null)).toMatchObject({ drift: 'changed', mechanical: false });
  });
});

describe('stamp edits', () => {
  const citationsOf = (text: string) => extractRlm(scanMarkdown(text)).citations;

  it('keeps each form and edits only the characters that change', () => {
    const text = lines(
      'See [src/a.ts, L1-2], [src/b.ts@0000000000000000, L3] and [src/c.ts].',
      '',
      '## Sources',
      '',
      '- src/d.ts (L4) [un-versioned]',
      '- src/e.ts [un-versioned]',
      '- src/f.ts@1111111111111111 (L5)',
    );
    const hash = 'abcdefabcdefabcd';
    const citations = citationsOf(text);
    expect(citations.map((citation) => stampedText(citation, { hash, lines: null }))).toEqual([
      `[src/a.ts@${hash}, L1-2]`,
      `[src/b.ts@${hash}, L3]`,
      `[src/c.ts@${hash}]`,
      `src/d.ts@${hash} (L4)`,
      `src/e.ts@${hash}`,
      `src/f.ts@${hash} (L5)`,
    ]);
    const moved = citations[1];
    expect(moved).toBeDefined();
    const edit = planStampEdit(moved as (typeof citations)[number], { hash, lines: parseLineRange('L7-8') });
    expect(edit).not.toBeNull();
    expect(text.slice(edit?.start, edit?.end)).toBe('0000000000000000, L3');
    const out = applyEdits(
      text,
      citations.map((citation) => planStampEdit(citation, { hash, lines: null })).filter((edit) => edit !== null),
    ).text;
    expect(out).toBe(
      lines(
        `See [src/a.ts@${hash}, L1-2], [src/b.ts@${hash}, L3] and [src/c.ts@${hash}].`,
        '',
        '## Sources',
        '',
        `- src/d.ts@${hash} (L4)`,
        `- src/e.ts@${hash}`,
        `- src/f.ts@${hash} (L5)`,
      ),
    );
  });

  it('returns no edit when the citation already says the target', () => {
    const [citation] = citationsOf('[a/b.ts@abcdefabcdefabcd, L1]\n');
    expect(planStampEdit(citation as NonNullable<typeof citation>, { hash: 'abcdefabcdefabcd', lines: null })).toBeNull();
  });

  it('shifts offsets past a BOM the scanner dropped', () => {
    const text = '\ufeff[a/b.ts, L1]\r\n';
    const [citation] = citationsOf(text);
    const edit = planStampEdit(citation as NonNullable<typeof citation>, { hash: 'abcdefabcdefabcd', lines: null }, 1);
    expect(applyEdits(text, edit === null ? [] : [edit]).text).toBe('\ufeff[a/b.ts@abcdefabcdefabcd, L1]\r\n');
  });

  it('prints a unified diff of a document, empty when unchanged', () => {
    expect(unifiedDiff('doc.md', 'a\nb\n', 'a\nb\n')).toBe('');
    expect(unifiedDiff('doc.md', 'a\nb\n', 'a\nc\n')).toBe('--- a/doc.md\n+++ b/doc.md\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n');
  });
});
