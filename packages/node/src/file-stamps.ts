import { hash } from 'node:crypto';
import { lstatSync, realpathSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { type ArtifactReader, codeUnitHash } from '@aiwg-cite/core';
import { isGone, readRegularFile } from './fs.ts';
import { SignedFile } from './result-store.ts';
import { removeOwnFile } from './write.ts';

/**
 * 3: the stamps as columns (paths, signatures five numbers each, digests, derived values): parsed
 * and written without an object keyed by every path. 4: one file, or {@link SEGMENTS} by path.
 */
const FORMAT = 4;

/**
 * How many files the stamps of a large tree are split into, by a hash of the path
 * ({@link stampSegmentOf}). A run that looks at a few paths (`check docs/one.md` in a repository of
 * 100,000 documents, whose stamps take 25 MB) reads the few files that hold them, and a run that
 * changed a few stamps writes those files again, not all of them.
 */
const SEGMENTS = 64;

/**
 * Stamps from which a run over every file keeps them in {@link SEGMENTS} files instead of one:
 * reading 64 files made a warm run over 7,000 files 8-10 % slower than reading one.
 */
const SEGMENTED_FROM = 32_768;

/** The segment that holds a path's stamp when they are split, the same in every run. */
export function stampSegmentOf(path: string): number {
  return codeUnitHash(path) % SEGMENTS;
}

/**
 * Where the stamps are kept in the cache directory: `stamps` when they are one file, `stamps-00` …
 * `stamps-3f` when they are split.
 */
export function stampsFile(directory: string, segment: number, split = true): string {
  return join(directory, split ? `stamps-${segment.toString(16).padStart(2, '0')}` : 'stamps');
}
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

/** What a run stamped, and every path it looked at: what another thread's run takes ({@link FileStamps.adopt}). */
export interface StampChanges {
  readonly stamps: readonly (readonly [string, Stamp])[];
  readonly seen: readonly string[];
}

export interface Stamp {
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
 * may hand on changed: git's clean filters, decoding). The stamps live beside the result cache,
 * signed with the user's key, in one file or, from {@link SEGMENTED_FROM} stamps on, in
 * {@link SEGMENTS} files by path, each read when a path it holds is first asked about; they are
 * never trusted when moved to another root, layout or segment.
 */
export class FileStamps {
  readonly #root: string;
  readonly #directory: string;
  readonly #secret: Uint8Array;
  /** Whether the stamps are split into {@link SEGMENTS} files, as the last run over every file left them. */
  #split: boolean;
  /** The segments read so far (one when not split), each when a path it holds was first asked about. */
  #segments: (Map<string, Stamp> | undefined)[];
  /** The segments this run changed. */
  readonly #dirty = new Set<number>();
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
  readonly #splitFrom: number;
  #known = 0;
  /** The stamps made and the paths looked at since {@link trackChanges} or the last {@link changes}; `null` before. */
  #changed: Map<string, Stamp> | null = null;
  #newlySeen: Set<string> | null = null;

  /**
   * `now` is the clock a file's change time is compared with (milliseconds, as `Date.now`);
   * `splitFrom`, how many stamps a run over every file must keep to keep them split.
   */
  constructor(root: string, directory: string, secret: Uint8Array, now: () => number = Date.now, splitFrom = SEGMENTED_FROM) {
    this.#root = root;
    this.#directory = directory;
    this.#secret = secret;
    this.#now = now;
    this.#splitFrom = splitFrom;
    // The one file, when it holds stamps of this format and root, is read now, where the run has
    // other work in flight (git listing the files); otherwise the stamps are split, and each
    // segment is read when a path it holds is first asked about.
    const one = this.#load(0, false);
    this.#split = one === null;
    this.#segments = one === null ? new Array(SEGMENTS) : [one];
  }

  /** The digest of the bytes at a path, when its stamp holds; the path is not read. */
  readonly digestOf = (path: string): string | null => {
    let answer = this.#answers.get(path);
    if (answer === undefined) {
      this.#see(path);
      // The stat first: the stamp of a path with nothing there is not looked up (nor the file of stamps that holds it read).
      const signature = this.#signature(path);
      const stamp = signature === null ? undefined : this.#stampOf(path);
      answer = signature !== null && stamp?.digest != null && sameSignature(signature.value, stamp.signature) ? stamp.digest : null;
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
    this.#see(path);
    const signature = this.#signature(path);
    const stamp = this.#stampOf(path);
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
    const stamp = this.#stampOf(path);
    const digest = this.#digests.get(bytes);
    if (stamp !== undefined && digest !== undefined && stamp.digest === digest) {
      const signature = this.#signature(path);
      if (signature === null || !sameSignature(signature.value, stamp.signature)) return value;
      if (stamp.derived[name] !== value) this.#stamp(path, { ...stamp, derived: { ...stamp.derived, [name]: value } });
    }
    return value;
  }

  /** From now on, keeps the stamps this run makes and the paths it looks at for {@link changes} (a helper thread's run). */
  trackChanges(): void {
    this.#changed ??= new Map();
    this.#newlySeen ??= new Set();
  }

  /**
   * The stamps made and the paths looked at since {@link trackChanges} or the last call, which
   * are then forgotten here: a helper thread hands them on a part at a time.
   */
  changes(): StampChanges {
    const changes = { stamps: [...(this.#changed ?? [])], seen: [...(this.#newlySeen ?? [])] };
    this.#changed?.clear();
    this.#newlySeen?.clear();
    return changes;
  }

  #see(path: string): void {
    this.#seen.add(path);
    this.#newlySeen?.add(path);
  }

  /**
   * Takes what a helper thread's run over the same root stamped ({@link changes}) as this run's
   * own, so the next run knows the files that thread read, and a save keeps what it looked at.
   */
  adopt(changes: StampChanges): void {
    for (const path of changes.seen) this.#see(path);
    for (const [path, stamp] of changes.stamps) this.#stamp(path, stamp);
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
        this.#see(path);
        const signature = this.#signature(path);
        const result = await inner.read(path);
        if (result.kind === 'file' && signature !== null) {
          const digest = this.#digestIfPlain(result.bytes);
          if (digest !== null) this.#digests.set(result.bytes, digest);
          const stamp = this.#stampOf(path);
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
   * Writes the segments of the stamps the run changed. After a run over every document, the
   * stamps of paths it did not look at (deleted files, renamed ones) are dropped.
   */
  save(fullRun: boolean): void {
    const wasSplit = this.#split;
    if (fullRun) {
      const count = this.#segmentCount();
      let stamps = 0;
      for (let index = 0; index < count; index += 1) {
        const segment = this.#segment(index);
        for (const path of segment.keys()) {
          if (!this.#seen.has(path)) {
            segment.delete(path);
            this.#dirty.add(index);
          }
        }
        stamps += segment.size;
      }
      // The layout follows the size: split from `splitFrom` stamps on, one file below.
      if (stamps >= this.#splitFrom !== this.#split) {
        const all = this.#segments.flatMap((segment) => [...(segment ?? [])]);
        this.#split = stamps >= this.#splitFrom;
        this.#segments = Array.from({ length: this.#segmentCount() }, () => new Map());
        // Only segments that hold a stamp are written: a missing one reads as empty.
        this.#dirty.clear();
        for (const [path, stamp] of all) this.#stamp(path, stamp);
      }
    }
    if (this.#dirty.size === 0) return;
    for (const index of this.#dirty) {
      const paths: string[] = [];
      const signatures: number[] = [];
      const digests: (string | null)[] = [];
      const derived: Record<string, string>[] = [];
      for (const [path, stamp] of this.#segment(index)) {
        const signature = stamp.signature;
        paths.push(path);
        signatures.push(signature[0], signature[1], signature[2], signature[3], signature[4]);
        digests.push(stamp.digest);
        derived.push(stamp.derived);
      }
      const split = this.#split;
      const body = { format: FORMAT, root: this.#root, segment: index, split, paths, signatures, digests, derived };
      new SignedFile(stampsFile(this.#directory, index, split), this.#secret).write(JSON.stringify(body));
    }
    this.#dirty.clear();
    // The files of a layout left behind. Split, the one file goes (also the one of format 3 and
    // earlier, which would otherwise be read, and refused, on every run).
    if (this.#split) removeOwnFile(stampsFile(this.#directory, 0, false));
    else if (wasSplit) for (let index = 0; index < SEGMENTS; index += 1) removeOwnFile(stampsFile(this.#directory, index));
  }

  #segmentCount(): number {
    return this.#split ? SEGMENTS : 1;
  }

  #indexOf(path: string): number {
    return this.#split ? stampSegmentOf(path) : 0;
  }

  #stampOf(path: string): Stamp | undefined {
    return this.#segment(this.#indexOf(path)).get(path);
  }

  #stamp(path: string, stamp: Stamp): void {
    this.#changed?.set(path, stamp);
    const index = this.#indexOf(path);
    this.#segment(index).set(path, stamp);
    this.#dirty.add(index);
  }

  /** A segment of the settled layout, read when first needed; empty when there is none to trust. */
  #segment(index: number): Map<string, Stamp> {
    let segment = this.#segments[index];
    if (segment === undefined) {
      segment = this.#load(index, this.#split) ?? new Map();
      this.#segments[index] = segment;
    }
    return segment;
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

  /** A segment as stored; `null` when it is missing, not signed with this key, or of another format, root, layout or segment. */
  #load(index: number, split: boolean): Map<string, Stamp> | null {
    const stamps = new Map<string, Stamp>();
    const body = new SignedFile(stampsFile(this.#directory, index, split), this.#secret).read();
    if (body === null) return null;
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return null;
    }
    const stored = value as {
      format?: unknown;
      root?: unknown;
      segment?: unknown;
      split?: unknown;
      paths?: unknown;
      signatures?: unknown;
      digests?: unknown;
      derived?: unknown;
    } | null;
    if (stored === null || stored.format !== FORMAT || stored.root !== this.#root) return null;
    if (stored.segment !== index || stored.split !== split) return null;
    const { paths, signatures, digests, derived } = stored;
    if (!Array.isArray(paths) || !Array.isArray(signatures) || !Array.isArray(digests) || !Array.isArray(derived)) return null;
    const count = paths.length;
    // Columns of other lengths are no stamps of ours: nothing is trusted from them.
    if (signatures.length !== count * 5 || digests.length !== count || derived.length !== count) return null;
    for (let at = 0; at < count; at += 1) {
      const path: unknown = paths[at];
      const signature: unknown[] = signatures.slice(at * 5, at * 5 + 5);
      if (typeof path !== 'string' || !isSignatureValue(signature) || (split && stampSegmentOf(path) !== index)) continue;
      const digest: unknown = digests[at];
      const values: unknown = derived[at];
      stamps.set(path, {
        signature,
        digest: typeof digest === 'string' ? digest : null,
        derived: typeof values === 'object' && values !== null && !Array.isArray(values) ? (values as Record<string, string>) : {},
      });
    }
    return stamps;
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
