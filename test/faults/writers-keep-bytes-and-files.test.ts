/**
 * Issue 15 item 21: writers change only the bytes they change and keep the file: a Latin-1 `é`
 * elsewhere survives, the mode and hard links are kept, a read-only file is
 * refused, the temporary file is removed on failure, and a concurrent edit right before the rename
 * is not overwritten.
 */
import { chmodSync, linkSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '@aiwg-cite/node';
import { tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

describe('writers-keep-bytes-and-files', () => {
  it('a writer working on decoded text keeps a Latin-1 byte on a line it does not change', () => {
    // What --fix, annotate and the other writers do: decode (invalid bytes become U+FFFD), edit
    // one line of the text, write the text back with the bytes they read as `expected`.
    const dir = tempDir();
    const path = join(dir, 'doc.md');
    const latin1 = Buffer.from('Caf\xe9 cr\xe8me is not UTF-8.\n', 'latin1');
    const original = Buffer.concat([Buffer.from('# Notes\n\nSee [lib.ts, L1].\n\n'), latin1]);
    writeFileSync(path, original);
    const edited = new TextDecoder().decode(original).replace('[lib.ts, L1]', '[lib.ts@0123456789abcdef, L1]');
    expect(writeFileAtomic(path, edited, original, 'doc.md')).toBe(true);
    const after = readFileSync(path);
    expect(after.toString('latin1')).toContain('[lib.ts@0123456789abcdef, L1]');
    expect(after.subarray(after.length - latin1.length).equals(latin1)).toBe(true);
    expect(after.length).toBe(original.length + 17);
  });

  it('keeps the mode and hard links, and leaves no temporary file', () => {
    const dir = tempDir();
    const path = join(dir, 'doc.md');
    writeFileSync(path, 'old\n');
    chmodSync(path, 0o640);
    linkSync(path, join(dir, 'link.md'));
    expect(writeFileAtomic(path, 'new\n')).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o640);
    expect(readFileSync(join(dir, 'link.md'), 'utf8')).toBe('new\n');
    expect(statSync(path).nlink).toBe(2);
    expect(readdirSync(dir).sort()).toEqual(['doc.md', 'link.md']);
  });

  it('refuses a read-only file in one line and leaves it alone', () => {
    const dir = tempDir();
    const path = join(dir, 'doc.md');
    writeFileSync(path, 'old\n');
    chmodSync(path, 0o444);
    expect(() => writeFileAtomic(path, 'new\n', undefined, 'doc.md')).toThrow(/^doc\.md: read-only; not written/);
    expect(readFileSync(path, 'utf8')).toBe('old\n');
    expect(readdirSync(dir)).toEqual(['doc.md']);
  });

  it('a file edited since it was read is not overwritten', () => {
    const dir = tempDir();
    const path = join(dir, 'doc.md');
    writeFileSync(path, 'theirs\n');
    expect(() => writeFileAtomic(path, 'mine\n', Buffer.from('original\n'), 'doc.md')).toThrow(/changed on disk/);
    expect(readFileSync(path, 'utf8')).toBe('theirs\n');
    expect(readdirSync(dir)).toEqual(['doc.md']);
  });
});
