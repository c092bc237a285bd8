/**
 * The result cache (SPEC §6.5): one `{key, status, code, checked_at, resolver, data, mac}` per
 * line, keyed `doi:<lowercase>`, `arxiv:<id>`, `url:<url>` or `retraction:<doi>`. Entries expire
 * by outcome; transient failures are never stored. Saving re-reads the file and merges by key
 * (newest wins), then writes a temporary file and renames it, so concurrent runs (lint-staged
 * chunks) never lose each other's entries or leave half a file.
 *
 * The cache is not an input a pull request controls: it lives outside the working tree (under the
 * git directory, or the user's cache directory), and every entry carries an HMAC under a secret
 * kept in the user's cache directory. An entry this machine did not write (a committed or copied
 * file, a hand edit) fails the check and is ignored, so it can never vouch for a DOI or a URL.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { loadUserCacheKey, userCacheDir } from '@aiwg-cite/node';

/** One cached result. Field names follow SPEC §6.5. */
export interface CacheEntry {
  readonly key: string;
  /** `exists`, `not-found`, `retracted`, `clean`, `alive`, `dead`. */
  readonly status: string;
  /** The HTTP status that decided it, when one did. */
  readonly code: number | null;
  /** ISO date-time of the check. */
  readonly checked_at: string;
  /** Which source answered: `doi.org`, `crossref`, `datacite`, `openalex`, `arxiv`, `http`. */
  readonly resolver: string;
  readonly data: unknown;
}

const DAY = 24 * 60 * 60 * 1000;

/** How long an entry stays fresh: exists 30 d, not found 1 d, retraction status 7 d, URL results 1 d. */
export function ttlFor(entry: Pick<CacheEntry, 'key' | 'status'>): number {
  if (entry.key.startsWith('retraction:')) return 7 * DAY;
  if (entry.key.startsWith('url:')) return DAY;
  return entry.status === 'exists' ? 30 * DAY : DAY;
}

/** Options of {@link ResultCache.load}. */
export interface CacheLoadOptions {
  /** Receives one line when the file is corrupt and was discarded, or held entries this machine did not write. */
  readonly warn: (message: string) => void;
  /** The key of the entries' HMAC ({@link loadCacheSecret}); an entry that does not verify is ignored. */
  readonly secret: Uint8Array;
}

/**
 * The default cache file of a project: `<git dir>/aiwg-cite/online-cache.jsonl` in a repository,
 * else `<user cache>/aiwg-cite/online/<hash of the root>.jsonl`. Never inside the working tree.
 */
export function defaultCachePath(root: string, env: Readonly<Record<string, string | undefined>>): string {
  const gitDir = findGitDir(root);
  if (gitDir !== null) return join(gitDir, 'aiwg-cite', 'online-cache.jsonl');
  const id = createHash('sha256').update(root).digest('hex').slice(0, 16);
  return join(userCacheDir(env), 'aiwg-cite', 'online', `${id}.jsonl`);
}

/** `<root>/.git` as a directory, or the directory a `.git` file (worktree, submodule) points at. */
function findGitDir(root: string): string | null {
  const dotGit = join(root, '.git');
  const stats = lstatSync(dotGit, { throwIfNoEntry: false });
  if (stats === undefined) return null;
  if (stats.isDirectory()) return dotGit;
  if (!stats.isFile()) return null;
  const match = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'));
  if (match === null) return null;
  const target = (match[1] as string).trim();
  const absolute = target.startsWith('/') || /^[A-Za-z]:[\\/]/.test(target) ? target : join(root, target);
  return statSync(absolute, { throwIfNoEntry: false })?.isDirectory() === true ? absolute : null;
}

/**
 * The secret that signs cache entries: the user's key shared with the result cache
 * (`@aiwg-cite/node`'s {@link loadUserCacheKey}, `<user cache>/aiwg-cite/cache-key`). It never
 * lives in a repository, so no committed file can forge an entry.
 */
export const loadCacheSecret: (env: Readonly<Record<string, string | undefined>>) => Uint8Array = loadUserCacheKey;

/** The HMAC of an entry's fields, hex. */
function macOf(secret: Uint8Array, entry: CacheEntry): string {
  const fields = JSON.stringify([entry.key, entry.status, entry.code, entry.checked_at, entry.resolver, entry.data]);
  return createHmac('sha256', secret).update(fields).digest('hex');
}

function verifies(secret: Uint8Array, entry: CacheEntry & { mac?: unknown }): boolean {
  if (typeof entry.mac !== 'string' || !/^[0-9a-f]{64}$/.test(entry.mac)) return false;
  return timingSafeEqual(Buffer.from(entry.mac, 'hex'), Buffer.from(macOf(secret, entry), 'hex'));
}

/** The cache of one run. */
export class ResultCache {
  readonly path: string;
  readonly #secret: Uint8Array;
  readonly #entries = new Map<string, CacheEntry>();
  readonly #dirty = new Map<string, CacheEntry>();
  hits = 0;

  private constructor(path: string, secret: Uint8Array) {
    this.path = path;
    this.#secret = secret;
  }

  /**
   * Reads the cache file; a missing file is an empty cache, a corrupt one is discarded with a
   * warning, and entries whose HMAC does not verify are ignored with a warning.
   */
  static load(path: string, options: CacheLoadOptions): ResultCache {
    const cache = new ResultCache(path, options.secret);
    const parsed = readEntries(path, options.secret);
    if (parsed.kind === 'corrupt') options.warn(`cache \`${path}\` is corrupt (${parsed.reason}); it was discarded and will be rewritten`);
    if (parsed.kind === 'ok') {
      for (const entry of parsed.entries) cache.#entries.set(entry.key, entry);
      if (parsed.unsigned > 0) {
        options.warn(
          `cache \`${path}\`: ${parsed.unsigned} ${parsed.unsigned === 1 ? 'entry was' : 'entries were'} not written by aiwg-cite on this machine and ${parsed.unsigned === 1 ? 'was' : 'were'} ignored`,
        );
      }
    }
    return cache;
  }

  /** The entry for `key` when it is still fresh at `now`. */
  get(key: string, now: number): CacheEntry | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    const checked = Date.parse(entry.checked_at);
    if (Number.isNaN(checked) || now - checked > ttlFor(entry) || checked > now + DAY) return undefined;
    this.hits += 1;
    return entry;
  }

  /** Records a definitive result. */
  set(entry: CacheEntry): void {
    this.#entries.set(entry.key, entry);
    this.#dirty.set(entry.key, entry);
  }

  /** Number of entries written this run. */
  get written(): number {
    return this.#dirty.size;
  }

  /**
   * Merges this run's entries into the file on disk (newest `checked_at` wins), drops entries that
   * expired by `now`, and writes it atomically.
   */
  save(now: number = Date.now()): void {
    if (this.#dirty.size === 0) return;
    const onDisk = readEntries(this.path, this.#secret);
    const merged = new Map<string, CacheEntry>();
    if (onDisk.kind === 'ok') {
      for (const entry of onDisk.entries) if (now - Date.parse(entry.checked_at) <= ttlFor(entry)) merged.set(entry.key, entry);
    }
    for (const entry of this.#dirty.values()) {
      const other = merged.get(entry.key);
      if (other === undefined || Date.parse(other.checked_at) <= Date.parse(entry.checked_at)) merged.set(entry.key, entry);
    }
    const directory = dirname(this.path);
    if (!existsSync(directory)) {
      mkdirSync(directory, { recursive: true });
      if (basename(directory) === '.aiwg-cite') writeFileSync(join(directory, '.gitignore'), '*\n');
    }
    const text = [...merged.values()].map((entry) => JSON.stringify({ ...entry, mac: macOf(this.#secret, entry) })).join('\n');
    const temporary = join(directory, `.${basename(this.path)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      writeFileSync(temporary, `${text}\n`);
      renameSync(temporary, this.path);
    } finally {
      rmSync(temporary, { force: true });
    }
    this.#dirty.clear();
  }
}

type ReadOutcome = { kind: 'ok'; entries: CacheEntry[]; unsigned: number } | { kind: 'missing' } | { kind: 'corrupt'; reason: string };

function readEntries(path: string, secret: Uint8Array): ReadOutcome {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'corrupt', reason: (error as Error).message };
  }
  const entries: CacheEntry[] = [];
  let unsigned = 0;
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const line = (lines[index] as string).trim();
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return { kind: 'corrupt', reason: `line ${index + 1} is not JSON` };
    }
    if (!isEntry(value)) return { kind: 'corrupt', reason: `line ${index + 1} is not a cache entry` };
    if (!verifies(secret, value)) {
      unsigned += 1;
      continue;
    }
    const { mac: _mac, ...entry } = value as CacheEntry & { mac?: unknown };
    entries.push(entry);
  }
  return { kind: 'ok', entries, unsigned };
}

function isEntry(value: unknown): value is CacheEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.key === 'string' &&
    typeof entry.status === 'string' &&
    typeof entry.checked_at === 'string' &&
    typeof entry.resolver === 'string' &&
    (entry.code === null || typeof entry.code === 'number') &&
    'data' in entry
  );
}
