import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The user's cache directory: `XDG_CACHE_HOME`, `LOCALAPPDATA` on Windows, `~/Library/Caches` on macOS, else `~/.cache`. */
export function userCacheDir(env: Readonly<Record<string, string | undefined>>): string {
  if (env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== '') return env.XDG_CACHE_HOME;
  if (process.platform === 'win32' && env.LOCALAPPDATA) return env.LOCALAPPDATA;
  const home = env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir();
  return process.platform === 'darwin' ? join(home, 'Library', 'Caches') : join(home, '.cache');
}

/**
 * The key that signs every cache entry aiwg-cite writes (the result cache's and the online
 * cache's): `<user cache>/aiwg-cite/cache-key`, 32 random bytes, mode 0600, created on first use.
 * It never lives in a repository, so no committed or copied file can forge an entry. Of first runs
 * at once, every one takes the key the first of them put in place: it is put there with a hard
 * link, which never replaces a file (a rename would, and a run that had read its own key back
 * before another's replaced it would sign files no later run can read).
 */
export function loadUserCacheKey(env: Readonly<Record<string, string | undefined>>): Uint8Array {
  const directory = join(userCacheDir(env), 'aiwg-cite');
  const path = join(directory, 'cache-key');
  try {
    const existing = readFileSync(path);
    if (existing.length >= 32) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    // `wx`: never written through something planted at the temporary name; `mode` is narrowed by
    // the umask, so it is set again.
    writeFileSync(temporary, randomBytes(32), { mode: 0o600, flag: 'wx' });
    chmodSync(temporary, 0o600);
    try {
      linkSync(temporary, path);
    } catch (error) {
      // Another run's key is there (taken below), unless it is one too short to be a key; or the
      // file system has no hard links, and the last rename wins as it did before.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || readFileSync(path).length < 32) renameSync(temporary, path);
    }
  } finally {
    rmSync(temporary, { force: true });
  }
  return readFileSync(path);
}
