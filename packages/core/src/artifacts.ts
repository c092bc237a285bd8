import { contentHash, replacementContentHash, webCryptoSha256 } from './hash.ts';
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
  readonly #loaded = new Map<string, Artifact>();
  readonly #replacements = new Map<string, Promise<string | null>>();
  readonly #replacementValues = new Map<string, string | null>();

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

  /** The artifact at a path if it has finished loading, without waiting. */
  peek(path: string): Artifact | undefined {
    return this.#loaded.get(path);
  }

  /** Loads several paths at once; afterwards {@link peek} answers for each. */
  async loadAll(paths: Iterable<string>): Promise<void> {
    const pending: Promise<Artifact>[] = [];
    for (const path of paths) if (!this.#loaded.has(path)) pending.push(this.get(path));
    if (pending.length > 0) await Promise.all(pending);
  }

  /**
   * aiwg's hash of the file's UTF-8-decoded text, or `null` when the file is valid UTF-8 (then
   * both routines agree). Computed at most once per file, and only when a hash did not match.
   */
  replacementHash(path: string): Promise<string | null> {
    let entry = this.#replacements.get(path);
    if (entry === undefined) {
      entry = this.get(path).then(async (artifact) => {
        const hash = artifact.kind === 'file' ? await replacementContentHash(artifact.bytes, this.#sha256) : null;
        if (this.#replacements.get(path) === entry) this.#replacementValues.set(path, hash);
        return hash;
      });
      this.#replacements.set(path, entry);
    }
    return entry;
  }

  /** A replacement hash computed earlier by {@link replacementHash}, or `null`. */
  replacementOf(path: string): string | null {
    return this.#replacementValues.get(path) ?? null;
  }

  /**
   * Says that a check's verdict depends on what stands at a path it does not read through this
   * cache (an `@`-mention's target, looked up by the host's resolver). Nothing is kept here; a
   * cache that records what each document asked for (the watch engine's) records this path too, so
   * that a file created or removed there checks the document again.
   */
  dependsOn(_path: string): void {}

  /** Forgets a path so the next `get` reads it again (used by the watch daemon). */
  invalidate(path: string): void {
    this.#entries.delete(path);
    this.#loaded.delete(path);
    this.#replacements.delete(path);
    this.#replacementValues.delete(path);
  }

  /** The hash function in use. */
  get sha256(): Sha256 {
    return this.#sha256;
  }

  async #load(path: string): Promise<Artifact> {
    const read = await this.#reader.read(path);
    const artifact: Artifact =
      read.kind === 'file'
        ? { kind: 'file', bytes: read.bytes, hash: await contentHash(read.bytes, this.#sha256), lineCount: countLines(read.bytes) }
        : read;
    if (this.#entries.has(path)) this.#loaded.set(path, artifact);
    return artifact;
  }
}

/** Counts lines the way SPEC §2.4 does: split on `\n`, an unterminated last line counts. */
export function countLines(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  let lines = 0;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) lines += 1;
  return bytes[bytes.length - 1] === 10 ? lines : lines + 1;
}
