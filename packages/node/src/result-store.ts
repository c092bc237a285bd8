import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { lstatSync, statSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResultStorage } from '@aiwg-cite/core';
import { runGit } from './git-files.ts';

/**
 * Where the result cache of a project lives: `AIWG_CITE_RESULT_CACHE` when set, else
 * `<git dir>/aiwg-cite/results` in a repository, else `<root>/node_modules/.cache/aiwg-cite/results`.
 * Never a tracked path, so no commit carries it.
 */
export function resultCacheDir(root: string, isGit: boolean, env: Readonly<Record<string, string | undefined>>): string {
  const named = env.AIWG_CITE_RESULT_CACHE;
  if (named !== undefined && named !== '') return named;
  if (isGit) {
    const gitDir = gitDirOf(root);
    if (gitDir !== null) return join(gitDir, 'aiwg-cite', 'results');
  }
  return join(root, 'node_modules', '.cache', 'aiwg-cite', 'results');
}

function gitDirOf(root: string): string | null {
  const dotGit = join(root, '.git');
  if (lstatSync(dotGit, { throwIfNoEntry: false })?.isDirectory() === true) return dotGit;
  const out = runGit(root, ['rev-parse', '--absolute-git-dir']);
  return out === null || out.trim() === '' ? null : out.trim();
}

const MAC_LENGTH = 64;

/**
 * Result-cache entries as files, `<dir>/<key[0..2]>/<key>`: a line with the HMAC-SHA256 (under the
 * user's key) of the key and the body, then the body. An entry that is absent, short, corrupt or
 * signed under another key reads as `null`, so it is checked again and rewritten; a file copied
 * from another machine or brought by a pull request is never trusted. Writes go to a temporary
 * file renamed into place, so a reader sees an old entry or a whole new one, never a torn one,
 * however many runs share the directory.
 */
export class FileResultStorage implements ResultStorage {
  readonly #dir: string;
  readonly #secret: Uint8Array;
  readonly #made = new Set<string>();
  readonly #used = new Set<string>();

  constructor(dir: string, secret: Uint8Array) {
    this.#dir = dir;
    this.#secret = secret;
  }

  async read(key: string): Promise<Uint8Array | null> {
    this.#used.add(key);
    let bytes: Buffer;
    try {
      bytes = await readFile(this.#path(key));
    } catch {
      return null;
    }
    if (bytes.length <= MAC_LENGTH + 1 || bytes[MAC_LENGTH] !== 0x0a) return null;
    const body = bytes.subarray(MAC_LENGTH + 1);
    const expected = Buffer.from(this.#mac(key, body), 'latin1');
    const given = bytes.subarray(0, MAC_LENGTH);
    return timingSafeEqual(expected, given) ? body : null;
  }

  async write(key: string, value: Uint8Array): Promise<void> {
    this.#used.add(key);
    const directory = join(this.#dir, key.slice(0, 2));
    if (!this.#made.has(directory)) {
      await mkdir(directory, { recursive: true });
      this.#made.add(directory);
    }
    const path = this.#path(key);
    const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, Buffer.concat([Buffer.from(`${this.#mac(key, value)}\n`, 'latin1'), value]));
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  /**
   * Bounds the cache without a walk over it: after a run that checked every document, one of the
   * 256 key prefixes is swept of entries the run did not use (stale keys of old document versions,
   * deleted files, other configurations). Every prefix comes round in turn over many runs.
   */
  async sweep(): Promise<number> {
    const prefix = randomBytes(1).toString('hex');
    const directory = join(this.#dir, prefix);
    let names: string[];
    try {
      names = await readdir(directory);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      if (this.#used.has(name)) continue;
      if (name.endsWith('.tmp') && Date.now() - (statSync(join(directory, name), { throwIfNoEntry: false })?.mtimeMs ?? 0) < 60_000) {
        continue; // another run's write in flight
      }
      await rm(join(directory, name), { force: true });
      removed += 1;
    }
    return removed;
  }

  #path(key: string): string {
    return join(this.#dir, key.slice(0, 2), key);
  }

  #mac(key: string, body: Uint8Array): string {
    return createHmac('sha256', this.#secret).update(key).update('\u0000').update(body).digest('hex');
  }
}
