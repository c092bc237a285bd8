import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { loadUserCacheKey } from '../src/index.ts';

/** The built package, which a plain `node` process can import (the test script builds it first). */
const BUILT = resolve(import.meta.dirname, '../dist/index.js');

/** The key one `node` process loads from `home`, hex. */
function keyInProcess(home: string): Promise<string> {
  const script = `import { loadUserCacheKey } from ${JSON.stringify(BUILT)};
process.stdout.write(Buffer.from(loadUserCacheKey({ XDG_CACHE_HOME: ${JSON.stringify(home)} })).toString('hex'));`;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script]);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done(out) : fail(new Error(`exit ${code}`))));
  });
}

describe('the user cache key that signs every cache file', () => {
  it('is made once, 32 bytes readable by the user alone, and the same on every later call', () => {
    const home = tempDir();
    const key = loadUserCacheKey({ XDG_CACHE_HOME: home });
    const path = join(home, 'aiwg-cite', 'cache-key');
    expect(key).toHaveLength(32);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(Buffer.from(loadUserCacheKey({ XDG_CACHE_HOME: home })).equals(Buffer.from(key))).toBe(true);
  });

  it('replaces a file too short to be a key', () => {
    const home = tempDir();
    mkdirSync(join(home, 'aiwg-cite'), { recursive: true });
    writeFileSync(join(home, 'aiwg-cite', 'cache-key'), 'short');
    expect(loadUserCacheKey({ XDG_CACHE_HOME: home })).toHaveLength(32);
    expect(readFileSync(join(home, 'aiwg-cite', 'cache-key'))).toHaveLength(32);
  });

  it('is one key for first runs that start at once: none keeps a key another replaced', async () => {
    for (let round = 0; round < 3; round += 1) {
      const home = tempDir();
      const keys = await Promise.all(Array.from({ length: 12 }, () => keyInProcess(home)));
      const onDisk = readFileSync(join(home, 'aiwg-cite', 'cache-key')).toString('hex');
      expect(new Set(keys)).toEqual(new Set([onDisk]));
    }
  });
});
