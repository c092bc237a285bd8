import { hash } from 'node:crypto';
import { lstatSync, realpathSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { ArtifactReader } from '@aiwg-cite/core';
import { isGone, readRegularFile } from './fs.ts';
import { SignedFile } from './result-store.ts';

/**
 * 3: the stamps as columns (paths, signatures five numbers each, digests, derived values): parsed
 * and written without an object keyed by every path.
 */
const FORMAT = 3;
/**
 * How long before a stat a file must have last changed for its stamp to be trusted. A write in
 * the same timestamp tick as the stat would leave the signature as it was (git's "racy" entries);
 * Linux stamps files from a clock that ticks every 1–10 ms, and a file system that keeps whole
 * seconds (FAT keeps two) needs seconds.
 */
const SLACK_MS = 100;
const COARSE_SLACK_MS = 3000;
/** `lstat`'s options, made once: a missing file is `undefined`, not a throw. */
const NO_THROW = { throwIfNoEntry: false } as const;

/**
 * `[dev, ino, size, mtime, ctime]`, the times in milliseconds with their fraction: numbers as
 * `lstat` gives them, compared as numbers (no string built per file) and stored as JSON numbers,
 * which read back exactly.
 */
type SignatureValue = readonly [number, number, number, number, number];

interface Signature {
  readonly value: SignatureValue;
  readonly trusted: boolean;
}

function sameSignature(a: SignatureValue, b: SignatureValue): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3] && a[4] === b[4];
}

interface Stamp {
  readonly signature: SignatureValue;
  /** The SHA-256 of the bytes a run's reader returns; `null` when they may differ from the bytes on disk. */
  readonly digest: string | null;
  /** Values a run derived from the bytes on disk, by name. */
  readonly derived: Record<string, string>;
}

/**
 * What a run knows of files without reading them (issue 18): for each root-relative path, the stat
 * signature it had when a run read it (device, inode, size, modification and change times), the
 * SHA-256 of the bytes read then, and values derived from them. While the signature is unchanged
 * the bytes are too (the assumption git's index makes), so a warm run reads only what changed.
 *
 * Only what is certain is stamped: a regular file reached without a symbolic link, last changed
 * well before it was looked at (a write in the same clock tick as the stat could keep the
 * signature), whose bytes hold no CR and no UTF-16 byte-order mark (those the worktree reader
 * may hand on changed: git's clean filters, decoding). The stamps live in one file signed with
 * the user's key beside the result cache, and are never trusted when moved to another root.
 */
export class FileStamps {
  readonly #root: string;
  readonly #file: SignedFile;
  readonly #stamps = new Map<string, Stamp>();
  readonly #seen = new Set<string>();
  /** Per root-relative directory (`''` for the root): whether its real path is the path itself. */
  readonly #realDirectories = new Map<string, boolean>();
  readonly #signatures = new Map<string, Signature | null>();
  /** The paths whose signature's `lstat` found nothing there. */
  readonly #gone = new Set<string>();
  /** What {@link digestOf} answered this run, per path. */
  readonly #answers = new Map<string, string | null>();
  readonly #digests = new WeakMap<Uint8Array, string>();
  readonly #now: () => number;
  #changed = false;
  #known = 0;

  /** `now` is the clock a file's change time is compared with (milliseconds, as `Date.now`). */
  constructor(root: string, directory: string, secret: Uint8Array, now: () => number = Date.now) {
    this.#root = root;
    this.#now = now;
    this.#file = new SignedFile(join(directory, 'stamps'), secret);
    this.#load();
  }

  /** The digest of the bytes at a path, when its stamp holds; the path is not read. */
  readonly digestOf = (path: string): string | null => {
    let answer = this.#answers.get(path);
    if (answer === undefined) {
      this.#seen.add(path);
      const stamp = this.#stamps.get(path);
      const signature = stamp?.digest == null ? null : this.#signature(path);
      answer = signature != null && sameSignature(signature.value, (stamp as Stamp).signature) ? (stamp as Stamp).digest : null;
      this.#answers.set(path, answer);
      if (answer !== null) this.#known += 1;
    }
    return answer;
  };

  /**
   * Whether nothing stands at a path any more, from the `lstat` its signature takes (one per path
   * per run): a discovery that asks this of every document stats none twice. A path whose
   * signature cannot be taken for another reason (not a regular file, reached through a link) is
   * looked at on its own.
   */
  readonly isGone = (path: string): boolean => {
    if (this.#signature(path) !== null) return false;
    return this.#gone.has(path) || isGone(`${this.#root}/${path}`);
  };

  /**
   * A value derived from the bytes on disk (`compute`), from the stamp when it holds; otherwise the
   * file is read and the value stamped (the digest is left to the reader, which hashes what it
   * reads anyway). `null` when the path is not a readable regular file.
   */
  derived(path: string, name: string, compute: (bytes: Buffer) => string): string | null {
    this.#seen.add(path);
    const signature = this.#signature(path);
    const stamp = this.#stamps.get(path);
    const same = signature !== null && stamp !== undefined && sameSignature(stamp.signature, signature.value);
    const known = same ? stamp.derived[name] : undefined;
    if (known !== undefined) return known;
    let bytes: Buffer;
    try {
      bytes = readRegularFile(join(this.#root, path));
    } catch {
      return null;
    }
    const value = compute(bytes);
    if (signature?.trusted === true) {
      const derived = same ? { ...stamp.derived, [name]: value } : { [name]: value };
      this.#stamp(path, { signature: signature.value, digest: same ? stamp.digest : null, derived });
    }
    return value;
  }

  /**
   * A value derived from bytes this run's reader ({@link wrapReader}) returned for `path`: stamped
   * beside them when they are the bytes on disk that the path's stamp vouches for, so a later run
   * knows it unread ({@link derived}).
   */
  deriveFrom(path: string, name: string, bytes: Uint8Array, compute: (bytes: Uint8Array) => string): string {
    const value = compute(bytes);
    const stamp = this.#stamps.get(path);
    const digest = this.#digests.get(bytes);
    if (stamp !== undefined && digest !== undefined && stamp.digest === digest) {
      const signature = this.#signature(path);
      if (signature === null || !sameSignature(signature.value, stamp.signature)) return value;
      if (stamp.derived[name] !== value) this.#stamp(path, { ...stamp, derived: { ...stamp.derived, [name]: value } });
    }
    return value;
  }

  /** How many paths {@link digestOf} knew this run, unread. */
  get known(): number {
    return this.#known;
  }

  /** SHA-256 that answers from the digests stamped this run, so a file read here is hashed once. */
  readonly sha256 = (bytes: Uint8Array): string => this.#digests.get(bytes) ?? hash('sha256', bytes, 'hex');

  /** A reader that stamps what `inner` (the confined working-tree reader) reads. */
  wrapReader(inner: ArtifactReader): ArtifactReader {
    return {
      read: async (path) => {
        this.#seen.add(path);
        const signature = this.#signature(path);
        const result = await inner.read(path);
        if (result.kind === 'file' && signature !== null) {
          const digest = this.#digestIfPlain(result.bytes);
          if (digest !== null) this.#digests.set(result.bytes, digest);
          const stamp = this.#stamps.get(path);
          const same = stamp !== undefined && sameSignature(stamp.signature, signature.value);
          if (signature.trusted && (!same || stamp.digest !== digest)) {
            this.#stamp(path, { signature: signature.value, digest, derived: same ? stamp.derived : {} });
          }
        }
        return result;
      },
    };
  }

  /**
   * Writes the stamps when the run changed them. After a run over every document, the stamps of
   * paths it did not look at (deleted files, renamed ones) are dropped.
   */
  save(fullRun: boolean): void {
    if (fullRun) {
      for (const path of this.#stamps.keys()) {
        if (!this.#seen.has(path)) {
          this.#stamps.delete(path);
          this.#changed = true;
        }
      }
    }
    if (!this.#changed) return;
    const paths: string[] = [];
    const signatures: number[] = [];
    const digests: (string | null)[] = [];
    const derived: Record<string, string>[] = [];
    for (const [path, stamp] of this.#stamps) {
      const signature = stamp.signature;
      paths.push(path);
      signatures.push(signature[0], signature[1], signature[2], signature[3], signature[4]);
      digests.push(stamp.digest);
      derived.push(stamp.derived);
    }
    this.#file.write(JSON.stringify({ format: FORMAT, root: this.#root, paths, signatures, digests, derived }));
    this.#changed = false;
  }

  #stamp(path: string, stamp: Stamp): void {
    this.#stamps.set(path, stamp);
    this.#changed = true;
  }

  #digestIfPlain(bytes: Uint8Array): string | null {
    if (bytes.includes(0x0d)) return null;
    if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) return null;
    return hash('sha256', bytes, 'hex');
  }

  /**
   * The signature of a regular file reached without a symbolic link, and whether it may be stamped
   * now; taken once per path per run, before the file is read (a later change moves it).
   */
  #signature(path: string): Signature | null {
    let signature = this.#signatures.get(path);
    if (signature === undefined) {
      signature = this.#takeSignature(path);
      this.#signatures.set(path, signature);
    }
    return signature;
  }

  #takeSignature(path: string): Signature | null {
    const slash = path.lastIndexOf('/');
    if (!this.#isRealDirectory(slash === -1 ? '' : path.slice(0, slash))) return null;
    const now = this.#now();
    let stats: Stats | undefined;
    try {
      stats = lstatSync(`${this.#root}/${path}`, NO_THROW);
    } catch {
      return null;
    }
    if (stats === undefined) this.#gone.add(path);
    if (stats === undefined || !stats.isFile()) return null;
    const slack = stats.ctimeMs % 1000 === 0 ? COARSE_SLACK_MS : SLACK_MS;
    return {
      value: [stats.dev, stats.ino, stats.size, stats.mtimeMs, stats.ctimeMs],
      trusted: stats.ctimeMs + slack < now && stats.mtimeMs + slack < now,
    };
  }

  /** Whether a directory (root-relative, `''` for the root) is reached without a symbolic link; asked once per directory. */
  #isRealDirectory(relative: string): boolean {
    let real = this.#realDirectories.get(relative);
    if (real === undefined) {
      const directory = relative === '' ? this.#root : `${this.#root}/${relative}`;
      try {
        real = realpathSync.native(directory).split('\\').join('/') === directory;
      } catch {
        real = false;
      }
      this.#realDirectories.set(relative, real);
    }
    return real;
  }

  #load(): void {
    const body = this.#file.read();
    if (body === null) return;
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return;
    }
    const stored = value as {
      format?: unknown;
      root?: unknown;
      paths?: unknown;
      signatures?: unknown;
      digests?: unknown;
      derived?: unknown;
    } | null;
    if (stored === null || stored.format !== FORMAT || stored.root !== this.#root) return;
    const { paths, signatures, digests, derived } = stored;
    if (!Array.isArray(paths) || !Array.isArray(signatures) || !Array.isArray(digests) || !Array.isArray(derived)) return;
    const count = paths.length;
    // Columns of other lengths are no stamps of ours: nothing is trusted from them.
    if (signatures.length !== count * 5 || digests.length !== count || derived.length !== count) return;
    for (let at = 0; at < count; at += 1) {
      const path: unknown = paths[at];
      const signature: unknown[] = signatures.slice(at * 5, at * 5 + 5);
      if (typeof path !== 'string' || !isSignatureValue(signature)) continue;
      const digest: unknown = digests[at];
      const values: unknown = derived[at];
      this.#stamps.set(path, {
        signature,
        digest: typeof digest === 'string' ? digest : null,
        derived: typeof values === 'object' && values !== null && !Array.isArray(values) ? (values as Record<string, string>) : {},
      });
    }
  }
}

function isSignatureValue(value: readonly unknown[]): value is SignatureValue {
  return (
    value.length === 5 &&
    typeof value[0] === 'number' &&
    typeof value[1] === 'number' &&
    typeof value[2] === 'number' &&
    typeof value[3] === 'number' &&
    typeof value[4] === 'number'
  );
}
