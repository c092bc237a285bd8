import { describe, expect, it } from 'vitest';
import { parseLsFilesStage, parseRawDiff } from './index-entries.ts';

const oid = (digit: string) => digit.repeat(40);

describe('parseLsFilesStage', () => {
  it('keeps stage-0 entries by path and lists unmerged paths once', () => {
    const output = Buffer.from(
      [
        `100644 ${oid('a')} 0\tdocs/a b.md`,
        `120000 ${oid('b')} 0\tlink\twith tab`,
        `100644 ${oid('c')} 1\tconflict.md`,
        `100644 ${oid('d')} 2\tconflict.md`,
        `100644 ${oid('e')} 3\tconflict.md`,
        '',
      ].join('\0'),
    );
    const snapshot = parseLsFilesStage(output);
    expect([...snapshot.entries]).toEqual([
      ['docs/a b.md', { mode: '100644', oid: oid('a') }],
      ['link\twith tab', { mode: '120000', oid: oid('b') }],
    ]);
    expect(snapshot.unmerged).toEqual(['conflict.md']);
  });

  it('refuses output it does not understand', () => {
    expect(() => parseLsFilesStage(Buffer.from('garbage\0'))).toThrow(/unexpected entry `garbage`/);
  });
});

describe('parseRawDiff', () => {
  it('reads -z raw records, including two-path renames and copies', () => {
    const zero = '0'.repeat(40);
    const output = Buffer.from(
      [
        `:000000 100644 ${zero} ${oid('1')} A`,
        'new.md',
        `:100644 100644 ${oid('2')} ${oid('3')} M`,
        'src/a.ts',
        `:100644 000000 ${oid('4')} ${zero} D`,
        'gone.ts',
        `:100644 100644 ${oid('5')} ${oid('5')} R100`,
        'old name.md',
        'new name.md',
        '',
      ].join('\0'),
    );
    expect(parseRawDiff(output).map((change) => `${change.status} ${change.path} ${change.newMode}`)).toEqual([
      'A new.md 100644',
      'M src/a.ts 100644',
      'D gone.ts 000000',
      'R new name.md 100644',
    ]);
    expect(parseRawDiff(output)[1]).toMatchObject({ oldOid: oid('2'), newOid: oid('3') });
  });
});
