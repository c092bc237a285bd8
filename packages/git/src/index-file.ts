import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IndexEntry, IndexSnapshot } from './index-entries.ts';

/** SHA-1's digest length: the oid and trailing checksum size of a SHA-1 repository's index. */
const SHA1_LENGTH = 20;
/** ctime, mtime (8 bytes each), dev, ino, mode, uid, gid, size (4 bytes each). */
const STAT_LENGTH = 40;
const EXTENDED_FLAG = 0x4000;
const NAME_MASK = 0x0fff;
const STAGE_MASK = 0x3000;
const NON_ASCII = /[\x80-\xff]/;
const NON_ASCII_TEXT = /[\u0080-\uffff]/;

/** The octal text of an index mode, as git prints it (`100644`); a handful of values, so kept. */
const modeTexts = new Map<number, string>();
function modeText(mode: number): string {
  let text = modeTexts.get(mode);
  if (text === undefined) {
    text = mode.toString(8).padStart(6, '0');
    modeTexts.set(mode, text);
  }
  return text;
}

/**
 * Reads the stage-0 entries straight from an index file (gitformat-index(5), "The Git index
 * file has the following format"), as `git ls-files -s -z` lists them, without starting git:
 * the commit hook reads a 10,000-entry index on every commit. Versions 2, 3 and 4 (path prefix
 * compression) are read. Returns `null` for anything this reader does not know to be exactly what
 * git would list, and the caller asks git instead: a missing or unreadable file, another version,
 * a checksum that does not match SHA-1 of the contents (a SHA-256 repository, a torn file) or is
 * not written (`index.skipHash`), a split index (`link`) or a sparse one (`sdir`).
 */
export function readIndexFile(path: string): IndexSnapshot | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return null;
  }
  return parseIndexFile(bytes);
}

/** {@link readIndexFile} over the bytes of an index file. */
export function parseIndexFile(bytes: Buffer): IndexSnapshot | null {
  if (bytes.length < 12 + SHA1_LENGTH || bytes.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = bytes.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const end = bytes.length - SHA1_LENGTH;
  const trailer = bytes.subarray(end);
  if (trailer.every((byte) => byte === 0)) return null;
  if (!createHash('sha1').update(bytes.subarray(0, end)).digest().equals(trailer)) return null;
  // One string of the whole file, sliced per name: a Buffer call per entry costs microseconds in a
  // process that runs this loop once, and the hook reads 10,000 entries on every commit.
  const latin1 = bytes.toString('latin1', 0, end);
  const scan = version === 4 ? scanVersion4(bytes, latin1, end) : scanVersion2(bytes, latin1, end, version);
  if (scan === null) return null;
  // Extensions: a four-byte signature and a four-byte length each, up to the checksum.
  let at = scan.end;
  while (at < end) {
    if (at + 8 > end) return null;
    const signature = bytes.toString('latin1', at, at + 4);
    if (signature === 'link' || signature === 'sdir') return null;
    at += 8 + bytes.readUInt32BE(at + 4);
  }
  if (at !== end) return null;
  return { entries: scan.entries, unmerged: [...scan.unmerged].sort() };
}

interface Scan {
  readonly entries: ReadonlyMap<string, IndexEntry>;
  readonly unmerged: ReadonlySet<string>;
  /** Where the entries end (the extensions begin). */
  readonly end: number;
}

/** The fixed part of an entry and its flags; `null` when they are not what git writes. */
function entryHead(bytes: Buffer, at: number, end: number, version: number): { mode: number; flags: number; name: number } | null {
  if (at + STAT_LENGTH + SHA1_LENGTH + 2 > end) return null;
  // The 32-bit mode: the object type in bits 12-15 and the permission bits below; no higher bits.
  if (bytes[at + 24] !== 0 || bytes[at + 25] !== 0) return null;
  const mode = ((bytes[at + 26] as number) << 8) | (bytes[at + 27] as number);
  // Sparse-directory entries (mode 040000) exist only with the `sdir` extension, refused anyway.
  const type = mode >>> 12;
  if (type !== 0o10 && type !== 0o12 && type !== 0o16) return null;
  const flagsAt = at + STAT_LENGTH + SHA1_LENGTH;
  const flags = ((bytes[flagsAt] as number) << 8) | (bytes[flagsAt + 1] as number);
  if ((flags & EXTENDED_FLAG) !== 0 && version < 3) return null;
  return { mode, flags, name: flagsAt + ((flags & EXTENDED_FLAG) !== 0 ? 4 : 2) };
}

/**
 * Versions 2 and 3: each name is whole in the file, so the entries are only located here (three
 * offsets each) and read when asked for; a commit looks up a few dozen of 10,000.
 */
function scanVersion2(bytes: Buffer, latin1: string, end: number, version: number): Scan | null {
  const count = bytes.readUInt32BE(8);
  const starts = new Int32Array(count);
  const names = new Int32Array(count);
  const nameEnds = new Int32Array(count);
  const unmerged = new Set<string>();
  let stageZero = 0;
  let at = 12;
  for (let index = 0; index < count; index += 1) {
    // entryHead's checks, written out: this loop runs over every entry of the index.
    if (at + STAT_LENGTH + SHA1_LENGTH + 2 > end || bytes[at + 24] !== 0 || bytes[at + 25] !== 0) return null;
    const type = (bytes[at + 26] as number) >>> 4;
    if (type !== 0o10 && type !== 0o12 && type !== 0o16) return null;
    const flagsAt = at + STAT_LENGTH + SHA1_LENGTH;
    const flags = ((bytes[flagsAt] as number) << 8) | (bytes[flagsAt + 1] as number);
    const extended = (flags & EXTENDED_FLAG) !== 0;
    if (extended && version < 3) return null;
    const name = flagsAt + (extended ? 4 : 2);
    const length = flags & NAME_MASK;
    // A name of 0xFFF bytes or more runs to its NUL; a shorter one is exactly as long as the flags say.
    const nul = length === NAME_MASK ? latin1.indexOf('\0', name) : name + length;
    if (nul === -1 || nul >= end || bytes[nul] !== 0) return null;
    if ((flags & STAGE_MASK) === 0) {
      starts[stageZero] = at;
      names[stageZero] = name;
      nameEnds[stageZero] = nul;
      stageZero += 1;
    } else {
      unmerged.add(decodeName(latin1.slice(name, nul)));
    }
    // One to eight NULs pad the entry to a multiple of eight bytes.
    at += (nul - at + 8) & ~7;
    if (at > end) return null;
  }
  const entries = new IndexFileEntries(bytes, latin1, starts.subarray(0, stageZero), names, nameEnds);
  return { entries, unmerged, end: at };
}

/** Version 4: each path is cut from the one before (a prefix length, then the rest), so all are read. */
function scanVersion4(bytes: Buffer, latin1: string, end: number): Scan | null {
  const count = bytes.readUInt32BE(8);
  const entries = new Map<string, IndexEntry>();
  const unmerged = new Set<string>();
  let at = 12;
  let previous = '';
  for (let index = 0; index < count; index += 1) {
    const head = entryHead(bytes, at, end, 4);
    if (head === null) return null;
    const oidAt = at + STAT_LENGTH;
    at = head.name;
    // The number of bytes to drop from the previous path (git's offset varint), then the rest.
    if (at >= end) return null;
    let byte = bytes[at++] as number;
    let strip = byte & 0x7f;
    while ((byte & 0x80) !== 0) {
      if (at >= end) return null;
      byte = bytes[at++] as number;
      strip = ((strip + 1) << 7) | (byte & 0x7f);
    }
    if (strip > previous.length) return null;
    const nul = latin1.indexOf('\0', at);
    if (nul === -1) return null;
    // Kept as latin1 (one character a byte), so that the next prefix is cut in bytes.
    const name = previous.slice(0, previous.length - strip) + latin1.slice(at, nul);
    at = nul + 1;
    previous = name;
    if ((head.flags & STAGE_MASK) === 0) {
      entries.set(decodeName(name), { mode: modeText(head.mode), oid: bytes.toString('hex', oidAt, oidAt + SHA1_LENGTH) });
    } else {
      unmerged.add(decodeName(name));
    }
  }
  return { entries, unmerged, end: at };
}

/** A name's bytes, held as latin1, as the UTF-8 text `git ls-files -z` prints. */
function decodeName(latin1: string): string {
  return NON_ASCII.test(latin1) ? Buffer.from(latin1, 'latin1').toString('utf8') : latin1;
}

/** A path as the index's latin1 names hold it: its UTF-8 bytes, one character a byte. */
function encodeName(path: string): string {
  return NON_ASCII_TEXT.test(path) ? Buffer.from(path, 'utf8').toString('latin1') : path;
}

/**
 * The stage-0 entries of a version 2 or 3 index, by path. A lookup is a binary search over the
 * names, which the index keeps sorted by their bytes (gitformat-index(5): "sorted in ascending
 * order on the name field"), as latin1 strings compare; anything that walks every entry builds the
 * whole map once, in index order, as `git ls-files` lists it.
 */
export class IndexFileEntries implements ReadonlyMap<string, IndexEntry> {
  readonly #bytes: Buffer;
  readonly #latin1: string;
  readonly #starts: Int32Array;
  readonly #names: Int32Array;
  readonly #nameEnds: Int32Array;
  #map: Map<string, IndexEntry> | null = null;

  constructor(bytes: Buffer, latin1: string, starts: Int32Array, names: Int32Array, nameEnds: Int32Array) {
    this.#bytes = bytes;
    this.#latin1 = latin1;
    this.#starts = starts;
    this.#names = names;
    this.#nameEnds = nameEnds;
  }

  get size(): number {
    return this.#starts.length;
  }

  get(path: string): IndexEntry | undefined {
    if (this.#map !== null) return this.#map.get(path);
    const key = encodeName(path);
    let low = 0;
    let high = this.#starts.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const name = this.#latin1.slice(this.#names[middle] as number, this.#nameEnds[middle] as number);
      if (name === key) return this.#entry(middle);
      if (name < key) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  has(path: string): boolean {
    return this.get(path) !== undefined;
  }

  /**
   * The regular files whose names pass `test`, as `[path, oid]` in index order, without reading the
   * other entries. `test` sees the name's bytes as latin1: a test of an ASCII suffix is exact.
   * `lastCharacters`, when given, names the characters (ASCII letters, either case) a passing name
   * can end in: the others are passed over without being sliced out of the file. `skip`, when
   * given, is asked first with the file's bytes and where an entry's 20-byte oid starts: an entry
   * it skips costs no string (the commit hook asks this of every document in a large repository,
   * to find the few its citation index does not know).
   */
  regularFilesWhere(
    test: (name: string) => boolean,
    lastCharacters?: string,
    skip?: (bytes: Uint8Array, oidAt: number) => boolean,
  ): [string, string][] {
    const out: [string, string][] = [];
    const last =
      lastCharacters === undefined ? null : new Set([...lastCharacters.toLowerCase()].map((character) => character.charCodeAt(0)));
    const bytes = this.#bytes;
    for (let index = 0; index < this.#starts.length; index += 1) {
      const nameEnd = this.#nameEnds[index] as number;
      if (last !== null && !last.has((bytes[nameEnd - 1] as number) | 0x20)) continue;
      // Regular files only: mode 100644 or 100755, whose high byte is 0x81.
      const start = this.#starts[index] as number;
      if (bytes[start + 26] !== 0x81) continue;
      const low = bytes[start + 27] as number;
      if (low !== 0xa4 && low !== 0xed) continue;
      const oid = start + STAT_LENGTH;
      if (skip?.(bytes, oid) === true) continue;
      const name = this.#latin1.slice(this.#names[index] as number, nameEnd);
      if (!test(name)) continue;
      out.push([decodeName(name), bytes.toString('hex', oid, oid + SHA1_LENGTH)]);
    }
    return out;
  }

  #entry(index: number): IndexEntry {
    const start = this.#starts[index] as number;
    const mode = ((this.#bytes[start + 26] as number) << 8) | (this.#bytes[start + 27] as number);
    return { mode: modeText(mode), oid: this.#bytes.toString('hex', start + STAT_LENGTH, start + STAT_LENGTH + SHA1_LENGTH) };
  }

  #all(): Map<string, IndexEntry> {
    if (this.#map === null) {
      const map = new Map<string, IndexEntry>();
      for (let index = 0; index < this.#starts.length; index += 1) {
        map.set(decodeName(this.#latin1.slice(this.#names[index] as number, this.#nameEnds[index] as number)), this.#entry(index));
      }
      this.#map = map;
    }
    return this.#map;
  }

  forEach(callback: (value: IndexEntry, key: string, map: ReadonlyMap<string, IndexEntry>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.#all()) callback.call(thisArg, value, key, this);
  }

  entries(): MapIterator<[string, IndexEntry]> {
    return this.#all().entries();
  }

  keys(): MapIterator<string> {
    return this.#all().keys();
  }

  values(): MapIterator<IndexEntry> {
    return this.#all().values();
  }

  [Symbol.iterator](): MapIterator<[string, IndexEntry]> {
    return this.#all()[Symbol.iterator]();
  }
}
