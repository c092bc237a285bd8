import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IndexEntry, IndexSnapshot } from './index-entries.ts';

/** SHA-1's digest length: the oid and trailing checksum size of a SHA-1 repository's index. */
const SHA1_LENGTH = 20;
/** ctime, mtime (8 bytes each), dev, ino, mode, uid, gid, size (4 bytes each). */
const STAT_LENGTH = 40;
const EXTENDED_FLAG = 0x4000;
const NAME_MASK = 0x0fff;

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
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let index = 0; index < count; index += 1) {
    const start = at;
    if (at + STAT_LENGTH + SHA1_LENGTH + 2 > end) return null;
    const mode = bytes.readUInt32BE(at + 24);
    const oid = bytes.toString('hex', at + STAT_LENGTH, at + STAT_LENGTH + SHA1_LENGTH);
    const flags = bytes.readUInt16BE(at + STAT_LENGTH + SHA1_LENGTH);
    at += STAT_LENGTH + SHA1_LENGTH + 2;
    if ((flags & EXTENDED_FLAG) !== 0) {
      if (version < 3) return null;
      at += 2;
    }
    let name: Buffer;
    if (version === 4) {
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
      const nul = bytes.indexOf(0, at);
      if (nul === -1 || nul >= end) return null;
      name = Buffer.concat([previous.subarray(0, previous.length - strip), bytes.subarray(at, nul)]);
      at = nul + 1;
    } else {
      const nul = bytes.indexOf(0, at);
      if (nul === -1 || nul >= end) return null;
      if ((flags & NAME_MASK) !== NAME_MASK && nul - at !== (flags & NAME_MASK)) return null;
      name = bytes.subarray(at, nul);
      // One to eight NULs pad the entry to a multiple of eight bytes.
      at = start + ((nul - start + 8) & ~7);
      if (at > end) return null;
    }
    previous = name;
    // Sparse-directory entries (mode 040000) exist only with the `sdir` extension, refused below.
    const type = mode >>> 12;
    if (type !== 0o10 && type !== 0o12 && type !== 0o16) return null;
    const path = name.toString('utf8');
    const stage = (flags >> 12) & 3;
    if (stage === 0) entries.set(path, { mode: mode.toString(8), oid });
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
