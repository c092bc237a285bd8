import { execFileSync } from 'node:child_process';
import { appendFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { createRunFileSystem, readRegularFile } from '../src/index.ts';

describe('createRunFileSystem: a file read right after its path was resolved', () => {
  it('reads it whole, a file of no bytes included', async () => {
    const dir = realpathSync(tempDir());
    const fs = createRunFileSystem();
    const text = 'line\n'.repeat(40_000);
    writeFileSync(join(dir, 'big.ts'), text);
    writeFileSync(join(dir, 'empty.ts'), '');
    for (const name of ['big.ts', 'empty.ts']) {
      const real = (await fs.realpath(join(dir, name))) as string;
      expect(real).toBe(join(dir, name));
      expect(Buffer.from(await fs.readFile(real)).toString('utf8')).toBe(name === 'big.ts' ? text : '');
    }
    // Read again after it grew, by a path not resolved just before: the bytes it has now.
    appendFileSync(join(dir, 'big.ts'), 'more\n');
    expect(readRegularFile(join(dir, 'big.ts')).toString('utf8')).toBe(`${text}more\n`);
  });

  it('refuses a FIFO put where the resolved file stood, without hanging: it is opened non-blocking and looked at again', async () => {
    const dir = realpathSync(tempDir());
    const fs = createRunFileSystem();
    const path = join(dir, 'swapped.ts');
    writeFileSync(path, 'export {};\n');
    const real = (await fs.realpath(path)) as string;
    rmSync(path);
    execFileSync('mkfifo', [path]);
    await expect(async () => fs.readFile(real)).rejects.toThrow(/swapped\.ts: .*FIFO/);
    // And asked again (no `lstat` just before), it is refused before it is opened.
    await expect(async () => fs.readFile(real)).rejects.toThrow(/swapped\.ts: .*FIFO/);
  });
});
