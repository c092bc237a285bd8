/**
 * Issue 15 item 17 (the encoding part; a bare CR is the markdown helper's): a UTF-16 document
 * with a byte-order mark is decoded (its citations are checked) with a note, and a binary `.md`
 * is skipped with a note, never read as text that passes.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_ENTRY, tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

const utf16 = (text: string, order: 'le' | 'be'): Buffer => {
  const le = Buffer.from(`\ufeff${text}`, 'utf16le');
  if (order === 'le') return le;
  const be = Buffer.alloc(le.length);
  for (let index = 0; index < le.length; index += 2) {
    be[index] = le[index + 1] as number;
    be[index + 1] = le[index] as number;
  }
  return be;
};

describe('fs-encodings', () => {
  it('UTF-16LE and UTF-16BE with a BOM are decoded and checked, with a note', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'lib.ts'), 'export const a = 1;\n');
    writeFileSync(join(dir, 'le.md'), utf16('See [missing-le.ts, L1].\n', 'le'));
    writeFileSync(join(dir, 'be.md'), utf16('See [missing-be.ts, L1].\n', 'be'));
    const result = spawnSync(process.execPath, [CLI_ENTRY, 'check', 'le.md', 'be.md', '--root', '.', '--format', 'json'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout) as {
      coverage: { notes: string[] };
      citations: { file: string; status: string; text: string }[];
    };
    expect(report.citations.map((finding) => [finding.file, finding.status])).toEqual([
      ['be.md', 'missing'],
      ['le.md', 'missing'],
    ]);
    expect(report.coverage.notes).toEqual(
      expect.arrayContaining(['le.md: UTF-16LE (byte-order mark), decoded', 'be.md: UTF-16BE (byte-order mark), decoded']),
    );
  });

  it('a binary .md is skipped with a note', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'image.md'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x5b, 0x78, 0x5d]));
    const result = spawnSync(process.execPath, [CLI_ENTRY, 'check', 'image.md', '--root', '.', '--format', 'json'], {
      cwd: dir,
      encoding: 'utf8',
    });
    const report = JSON.parse(result.stdout) as { coverage: { notes: string[] } };
    expect(report.coverage.notes).toContain('image.md: skipped (binary content, not markdown)');
  });
});
