/**
 * The result cache (SPEC §6.5): `.aiwg-cite/cache.jsonl`, one `{key, status, code, checked_at,
 * resolver, data}` per line, keyed `doi:<lowercase>`, `arxiv:<id>`, `url:<url>` or
 * `retraction:<doi>`. Entries expire by outcome; transient failures are never stored. Saving
 * re-reads the file and merges by key (newest wins), then writes a temporary file and renames it,
 * so concurrent runs (lint-staged chunks) never lose each other's entries or leave half a file.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

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
  /** Receives one line when the file is corrupt and was discarded. */
  readonly warn: (message: string) => void;
}

/** The cache of one run. */
export class ResultCache {
  readonly path: string;
  readonly #entries = new Map<string, CacheEntry>();
  readonly #dirty = new Map<string, CacheEntry>();
  hits = 0;

  private constructor(path: string) {
    this.path = path;
  }

  /** Reads the cache file; a missing file is an empty cache, a corrupt one is discarded with a warning. */
  static load(path: string, options: CacheLoadOptions): ResultCache {
    const cache = new ResultCache(path);
    const parsed = readEntries(path);
    if (parsed.kind === 'corrupt') options.warn(`cache \`${path}\` is corrupt (${parsed.reason}); it was discarded and will be rewritten`);
    if (parsed.kind === 'ok') for (const entry of parsed.entries) cache.#entries.set(entry.key, entry);
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
    const onDisk = readEntries(this.path);
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
    const text = [...merged.values()].map((entry) => JSON.stringify(entry)).join('\n');
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

type ReadOutcome = { kind: 'ok'; entries: CacheEntry[] } | { kind: 'missing' } | { kind: 'corrupt'; reason: string };

function readEntries(path: string): ReadOutcome {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'corrupt', reason: (error as Error).message };
  }
  const entries: CacheEntry[] = [];
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
    entries.push(value);
  }
  return { kind: 'ok', entries };
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
