import { contentHash, webCryptoSha256 } from './hash.ts';
import type { ArtifactReader, ReadResult, Sha256 } from './ports.ts';

/** A cited file, read and hashed once per run. */
export type Artifact =
  | {
      readonly kind: 'file';
      readonly bytes: Uint8Array;
      /** The 16-hex content hash of the raw bytes. */
      readonly hash: string;
      /** Lines, split on `\n`; an unterminated last line counts, a final newline adds none. */
      readonly lineCount: number;
    }
  | Exclude<ReadResult, { kind: 'file' }>;

/** Reads and hashes artifacts, each path at most once, even under concurrent requests. */
export class ArtifactCache {
  readonly #reader: ArtifactReader;
  readonly #sha256: Sha256;
  readonly #entries = new Map<string, Promise<Artifact>>();

  constructor(reader: ArtifactReader, sha256: Sha256 = webCryptoSha256) {
    this.#reader = reader;
    this.#sha256 = sha256;
  }

  /** The artifact at a normalised root-relative path. */
  get(path: string): Promise<Artifact> {
    let entry = this.#entries.get(path);
    if (entry === undefined) {
      entry = this.#load(path);
      this.#entries.set(path, entry);
    }
    return entry;
  }

  /** Forgets a path so the next `get` reads it again (used by the watch daemon). */
  invalidate(path: string): void {
    this.#entries.delete(path);
  }

  /** The hash function in use. */
  get sha256(): Sha256 {
    return this.#sha256;
  }

  async #load(path: string): Promise<Artifact> {
    const read = await this.#reader.read(path);
    if (read.kind !== 'file') return read;
    const hash = await contentHash(read.bytes, this.#sha256);
    return { kind: 'file', bytes: read.bytes, hash, lineCount: countLines(read.bytes) };
  }
}

/** Counts lines the way SPEC §2.4 does: split on `\n`, an unterminated last line counts. */
export function countLines(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  let lines = 0;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) lines += 1;
  return bytes[bytes.length - 1] === 10 ? lines : lines + 1;
}
