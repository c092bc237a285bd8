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

  const count = bytes.readUInt32BE(8);
  const entries = new Map<string, IndexEntry>();
  const unmerged = new Set<string>();
  // Whole-file strings, sliced per entry: one Buffer call per entry costs microseconds in a
  // process that runs this loop once, and the hook reads 10,000 entries on every commit.
  const hex = bytes.toString('hex', 0, end);
  const latin1 = bytes.toString('latin1', 0, end);
  let at = 12;
  let previous = '';
  for (let index = 0; index < count; index += 1) {
    const start = at;
    if (at + STAT_LENGTH + SHA1_LENGTH + 2 > end) return null;
    // The 32-bit mode: the object type in bits 12-15 and the permission bits below; no higher bits.
    if (bytes[at + 24] !== 0 || bytes[at + 25] !== 0) return null;
    const mode = ((bytes[at + 26] as number) << 8) | (bytes[at + 27] as number);
    const oidAt = at + STAT_LENGTH;
    const flags = ((bytes[oidAt + SHA1_LENGTH] as number) << 8) | (bytes[oidAt + SHA1_LENGTH + 1] as number);
    at = oidAt + SHA1_LENGTH + 2;
    if ((flags & EXTENDED_FLAG) !== 0) {
      if (version < 3) return null;
      at += 2;
    }
    let strip = 0;
    if (version === 4) {
      // The number of bytes to drop from the previous path (git's offset varint), then the rest.
      if (at >= end) return null;
      let byte = bytes[at++] as number;
      strip = byte & 0x7f;
      while ((byte & 0x80) !== 0) {
        if (at >= end) return null;
        byte = bytes[at++] as number;
        strip = ((strip + 1) << 7) | (byte & 0x7f);
      }
      if (strip > previous.length) return null;
    }
    const nul = latin1.indexOf('\0', at);
    if (nul === -1) return null;
    const rest = latin1.slice(at, nul);
    // The path's bytes as a latin1 string (one character a byte), so that v4's prefix is cut in bytes.
    const name = version === 4 ? previous.slice(0, previous.length - strip) + rest : rest;
    if (version === 4) {
      at = nul + 1;
    } else {
      if ((flags & NAME_MASK) !== NAME_MASK && nul - at !== (flags & NAME_MASK)) return null;
      // One to eight NULs pad the entry to a multiple of eight bytes.
      at = start + ((nul - start + 8) & ~7);
      if (at > end) return null;
    }
    previous = name;
    // Sparse-directory entries (mode 040000) exist only with the `sdir` extension, refused below.
    const type = mode >>> 12;
    if (type !== 0o10 && type !== 0o12 && type !== 0o16) return null;
    const path = NON_ASCII.test(name) ? Buffer.from(name, 'latin1').toString('utf8') : name;
    if ((flags & STAGE_MASK) === 0) entries.set(path, { mode: modeText(mode), oid: hex.slice(2 * oidAt, 2 * (oidAt + SHA1_LENGTH)) });
    else unmerged.add(path);
  }
  // Extensions: a four-byte signature and a four-byte length each, up to the checksum.
  while (at < end) {
    if (at + 8 > end) return null;
    const signature = bytes.toString('latin1', at, at + 4);
    if (signature === 'link' || signature === 'sdir') return null;
    at += 8 + bytes.readUInt32BE(at + 4);
  }
  if (at !== end) return null;
  return { entries, unmerged: [...unmerged].sort() };
}
