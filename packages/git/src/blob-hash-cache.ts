import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeOwnFile } from '@aiwg-cite/node';

/** The content hashes of one blob: raw bytes, and (for invalid UTF-8) the U+FFFD-decoded text. */
export interface BlobHashes {
  readonly raw: string;
  readonly replacement: string | null;
}

const LINE = /^([0-9a-f]{40}|[0-9a-f]{64}) ([0-9a-f]{16}) ([0-9a-f]{16}|-)$/;

/**
 * Blob id → content hash, kept in `<git dir>/aiwg-cite/blob-hashes-v1`, one `<oid> <raw16>
 * <replacement16|->` line per blob. A blob's id fixes its bytes, so entries never go stale. A file
 * with any line that does not parse is discarded whole (and rebuilt), never half-trusted. Saving
 * merges with what another run may have written meanwhile and replaces the file atomically
 * (temporary file, then rename), so concurrent runs never see a torn file.
 */
export class BlobHashCache {
  readonly #path: string;
  readonly #entries = new Map<string, BlobHashes>();
  readonly #added = new Map<string, BlobHashes>();
  #loaded = false;

  constructor(gitDir: string) {
    this.#path = join(gitDir, 'aiwg-cite', 'blob-hashes-v1');
  }

  /** The cache file's path. */
  get path(): string {
    return this.#path;
  }

  /** The cached hashes of a blob, if known. */
  get(oid: string): BlobHashes | undefined {
    this.#load();
    return this.#entries.get(oid);
  }

  /** Records a blob's hashes (saved by {@link save}). */
  set(oid: string, hashes: BlobHashes): void {
    this.#load();
    if (this.#entries.has(oid)) return;
    this.#entries.set(oid, hashes);
    this.#added.set(oid, hashes);
  }

  /** Writes new entries, if any; a cache that cannot be written is skipped, never an error. */
  save(): void {
    if (this.#added.size === 0) return;
    const merged = readEntries(this.#path) ?? new Map<string, BlobHashes>();
    for (const [oid, hashes] of this.#added) merged.set(oid, hashes);
    let text = '';
    for (const [oid, hashes] of merged) text += `${oid} ${hashes.raw} ${hashes.replacement ?? '-'}\n`;
    if (writeOwnFile(this.#path, text)) this.#added.clear();
  }

  #load(): void {
    if (this.#loaded) return;
    this.#loaded = true;
    const entries = readEntries(this.#path);
    if (entries !== null) for (const [oid, hashes] of entries) this.#entries.set(oid, hashes);
  }
}

/** Reads the cache file; `null` when it is absent or corrupt (any line that does not parse). */
function readEntries(path: string): Map<string, BlobHashes> | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  const entries = new Map<string, BlobHashes>();
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) {
    const match = LINE.exec(line);
    if (match === null) return null;
    entries.set(match[1] as string, { raw: match[2] as string, replacement: match[3] === '-' ? null : (match[3] as string) });
  }
  if (text !== '' && !text.endsWith('\n')) return null;
  return entries;
}
