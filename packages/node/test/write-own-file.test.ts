import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { writeOwnFile } from '../src/index.ts';

describe('writeOwnFile (an index of aiwg-cite under the git directory)', () => {
  it('replaces the file whole, makes its directory, and leaves no temporary file beside it', () => {
    const dir = tempDir();
    const path = join(dir, 'cited.json');
    writeFileSync(path, 'old contents, longer than the new ones');
    expect(writeOwnFile(path, '{"new":true}')).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('{"new":true}');
    expect(readdirSync(dir)).toEqual(['cited.json']);
    // Its directory is made when it is not there yet.
    expect(writeOwnFile(join(dir, 'aiwg-cite', 'by-artifact', '00.json'), '{}')).toBe(true);
    expect(readFileSync(join(dir, 'aiwg-cite', 'by-artifact', '00.json'), 'utf8')).toBe('{}');
  });

  it('leaves the file as it was, and nothing else, where it cannot write: no error', () => {
    const dir = tempDir();
    const locked = join(dir, 'locked');
    mkdirSync(locked);
    const path = join(locked, 'cited.json');
    writeFileSync(path, 'kept');
    chmodSync(locked, 0o500);
    try {
      // root may write anyway; what matters is that no call throws and nothing is half written.
      expect(() => writeOwnFile(path, 'next')).not.toThrow();
      expect(['kept', 'next']).toContain(readFileSync(path, 'utf8'));
      expect(readdirSync(locked)).toEqual(['cited.json']);
    } finally {
      chmodSync(locked, 0o700);
    }
    // A file where its directory would be: nothing is written, and the answer says so.
    writeFileSync(join(dir, 'plain'), 'a file');
    expect(writeOwnFile(join(dir, 'plain', 'cited.json'), 'x')).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['locked', 'plain']);
    expect(readFileSync(join(dir, 'plain'), 'utf8')).toBe('a file');
  });
});
