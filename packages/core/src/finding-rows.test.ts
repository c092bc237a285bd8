import { describe, expect, it } from 'vitest';
import { decodeFindingRows, encodeFindingRows, findingRowsDecoder, TextTemplates } from './finding-rows.ts';
import type { Finding } from './report.ts';

const file = 'docs/report.md';

/** A finding as the code-citation rule writes one: its message and fix name its artifact and hashes again. */
function unknownHash(artifact: string, line: number, current: string): Finding {
  const text = `[${artifact}@0123456789abcdef, L${line}-${line + 2}]`;
  return {
    file,
    line,
    column: 3,
    kind: 'rlm',
    text,
    status: 'unknown-hash',
    severity: 'error',
    rule: 'rlm/unknown-hash',
    message: `hash \`0123456789abcdef\` matches no version of \`${artifact}\` in the repository's history`,
    fix: `re-read \`${artifact}\` and cite it as it is now (\`@${current}\`)`,
    artifact,
    hash: '0123456789abcdef',
    currentHash: current,
    lines: `L${line}-${line + 2}`,
  };
}

describe('finding rows', () => {
  const findings: Finding[] = [
    unknownHash('src/a.ts', 4, '7d1bdb02ec65b33d'),
    unknownHash('src/deeper/b.ts', 9, 'b5ea950c3f2bb0be'),
    // A message that names the document itself, one with a value twice, and texts with nothing to refer to.
    { ...unknownHash('src/c.ts', 1, 'aaaaaaaaaaaaaaaa'), message: `${file} cites src/c.ts, and src/c.ts is gone`, fix: null },
    { ...unknownHash('src/d.ts', 2, 'bbbbbbbbbbbbbbbb'), message: 'a message of its own, long enough to be kept', fix: 'x' },
    // A value that holds what a template would mark, and a property left out (undefined).
    { ...unknownHash('src/~e.ts', 3, 'cccccccccccccccc'), hash: undefined, currentHash: '~1~' } as unknown as Finding,
  ];

  it('gives every finding back, property by property in its order, with and without templates', () => {
    const plain: string[][] = [];
    expect(decodeFindingRows(plain, encodeFindingRows(findings, plain), file)).toEqual(findings);
    const shapes: string[][] = [];
    const templates = new TextTemplates();
    const rows = encodeFindingRows(findings, shapes, templates);
    const decoded = findingRowsDecoder(shapes, templates.list)?.(rows, file);
    expect(decoded).toEqual(findings);
    // The same bytes as the findings themselves, their properties in the same order.
    expect(JSON.stringify(decoded)).toBe(JSON.stringify(findings));
  });

  it('keeps a long text that names the finding’s own values as one template shared by findings of that form', () => {
    const shapes: string[][] = [];
    const templates = new TextTemplates();
    const rows = encodeFindingRows(findings.slice(0, 2), shapes, templates);
    // Text, message and fix of both findings: three templates, the artifacts and hashes referred to.
    expect(templates.list.filter((template) => template.length > 1)).toHaveLength(3);
    // Every other text kept once (the kind, status, severity and rule shared by both), so that a row holds numbers alone.
    const once = templates.list.filter((template) => template.length === 1).map(([text]) => text as string);
    expect(once.sort()).toEqual(
      ['rlm', 'unknown-hash', 'error', 'rlm/unknown-hash', 'src/a.ts', '0123456789abcdef', '7d1bdb02ec65b33d', 'L4-6']
        .concat(['src/deeper/b.ts', 'b5ea950c3f2bb0be', 'L9-11'])
        .sort(),
    );
    expect(rows.flat().every((value) => typeof value === 'number')).toBe(true);
    expect(JSON.stringify(rows).length).toBeLessThan(JSON.stringify(encodeFindingRows(findings.slice(0, 2), [])).length * 0.4);
    expect(shapes).toEqual([
      [
        'file',
        'line',
        'column',
        '~kind',
        '~text',
        '~status',
        '~severity',
        '~rule',
        '~message',
        '~fix',
        '~artifact',
        '~hash',
        '~currentHash',
        '~lines',
      ],
    ]);
    expect(templates.list).toContainEqual(['re-read `', 10, '` and cite it as it is now (`@', 12, '`)']);
    // The document's own path is referred to as place 0.
    encodeFindingRows(findings.slice(2, 3), shapes, templates);
    expect(templates.list).toContainEqual(['', 0, ' cites ', 10, ', and ', 10, ' is gone']);
  });

  it('goes on from kept templates: rows encoded before still decode, new forms are added after them', () => {
    const shapes: string[][] = [];
    const first = new TextTemplates();
    const kept = encodeFindingRows(findings.slice(0, 2), shapes, first);
    const templates = TextTemplates.from(first.list);
    expect(templates.list).toEqual(first.list);
    // A form met before takes its kept index; a new one comes after.
    const again = encodeFindingRows(findings.slice(1, 3), shapes, templates);
    expect(templates.list.slice(0, first.list.length)).toEqual(first.list);
    expect(templates.list.length).toBeGreaterThan(first.list.length);
    expect(again[0]).toEqual(kept[1]);
    const decode = findingRowsDecoder(shapes, templates.list);
    expect(decode?.(kept, file)).toEqual(findings.slice(0, 2));
    expect(decode?.(again, file)).toEqual(findings.slice(1, 3));
  });

  it('refuses rows and templates laid out otherwise', () => {
    const shapes: string[][] = [];
    const templates = new TextTemplates();
    const rows = encodeFindingRows(findings.slice(0, 1), shapes, templates) as unknown[][];
    const decode = findingRowsDecoder(shapes, templates.list);
    const row = rows[0] as unknown[];
    const changed = (at: number, value: unknown) => decode?.([row.map((old, place) => (place === at ? value : old))], file);
    expect(decode?.(rows, file)).toEqual(findings.slice(0, 1));
    // A value of another type, no template where one is named.
    expect(changed(5, 99)).toBeNull();
    expect(changed(4, 99)).toBeNull();
    expect(changed(4, 'text')).toBeNull();
    // A template that refers to a templated place (the message), or past the row.
    expect(
      findingRowsDecoder(
        shapes,
        templates.list.map(() => ['a', 8, 'b']),
      )?.(rows, file),
    ).toBeNull();
    expect(
      findingRowsDecoder(
        shapes,
        templates.list.map(() => ['a', 40, 'b']),
      )?.(rows, file),
    ).toBeNull();
    expect(findingRowsDecoder(shapes, [['a', 1]])).toBeNull();
    expect(findingRowsDecoder(shapes, [['a', -1, 'b']])).toBeNull();
    expect(findingRowsDecoder(shapes, {})).toBeNull();
    expect(findingRowsDecoder([['file', 3]], [])).toBeNull();
    // Templated rows need their templates.
    expect(decodeFindingRows(shapes, rows, file)).toBeNull();
    expect(decode?.([[7, ...row.slice(1)]], file)).toBeNull();
    expect(decode?.([[...row, 'extra']], file)).toBeNull();
  });
});
