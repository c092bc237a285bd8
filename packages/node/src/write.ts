import { randomBytes } from 'node:crypto';
import {
  chownSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { AiwgCiteError } from '@aiwg-cite/core';
import { fileMessages } from './messages.ts';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Writes a file atomically (temporary file in the same directory, then rename) and changes only
 * the bytes that change:
 *
 * - a file that is not valid UTF-8 keeps its original bytes on every line whose text the edit did
 *   not change (a Latin-1 `é` elsewhere survives; decoding had turned it into U+FFFD);
 * - the mode and, where the process may set it, the owner are kept; a symlink is followed and the
 *   link kept; a file with other hard links is rewritten in place so the links still share it;
 * - a read-only file (no write bit) is refused, not replaced;
 * - when `expected` is given, the file must still hold exactly those bytes, checked when it is read
 *   and again right before the rename: a file changed on disk meanwhile is not written, and a
 *   `WRITE_CONFLICT` error names it;
 * - the temporary file is removed on every failure.
 *
 * Returns `false` without writing when the contents would not change.
 */
export function writeFileAtomic(
  requested: string,
  contents: string | Uint8Array,
  expected?: Uint8Array,
  label: string = requested,
): boolean {
  const path = lstatSync(requested, { throwIfNoEntry: false })?.isSymbolicLink() === true ? realpathSync(requested) : requested;
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats !== undefined && !stats.isFile()) {
    throw new AiwgCiteError('INPUT_UNREADABLE', `${label}: ${fileMessages.notWritable()}`, { data: { path: label } });
  }
  if (stats !== undefined && (stats.mode & 0o222) === 0) {
    throw new AiwgCiteError('INPUT_UNREADABLE', `${label}: ${fileMessages.readOnly()}`, { data: { path: label } });
  }
  const current = stats === undefined ? null : readFileSync(path);
  const conflict = () => new AiwgCiteError('WRITE_CONFLICT', `${label}: ${fileMessages.changedSinceRead()}`, { data: { path: label } });
  if (expected !== undefined && (current === null || !current.equals(expected))) throw conflict();
  const encoded = typeof contents === 'string' ? Buffer.from(contents, 'utf8') : Buffer.from(contents);
  const next = current === null ? encoded : keepUnchangedBytes(current, encoded);
  if (current?.equals(next)) return false;
  const temporary = join(dirname(path), `.${basename(path)}.aiwg-cite-${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(temporary, next, stats === undefined ? undefined : { mode: stats.mode & 0o7777 });
    if (stats !== undefined) keepOwner(temporary, stats);
    // A concurrent edit between the read above and now must not be overwritten.
    const before = stats === undefined ? null : readFileSync(path, { flag: 'r' });
    if (current !== null && (before === null || !before.equals(current))) throw conflict();
    if (stats !== undefined && stats.nlink > 1) {
      // Renaming would leave the other links on the old contents: write through the shared inode.
      writeFileSync(path, next);
      rmSync(temporary, { force: true });
    } else {
      renameSync(temporary, path);
    }
  } catch (error) {
    rmSync(temporary, { force: true });
    if (error instanceof AiwgCiteError) throw error;
    throw new AiwgCiteError('INPUT_UNREADABLE', `${label}: ${fileMessages.cannotWrite((error as Error).message)}`, { cause: error });
  }
  return true;
}

/** Removes a file of aiwg-cite's own that nothing names any more; one that cannot be removed is left, never an error. */
export function removeOwnFile(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // Left: nothing reads it.
  }
}

/**
 * Writes a file of aiwg-cite's own (a cache or an index under the git directory) atomically: its
 * directory made if need be, a temporary file beside it, then a rename. Unlike
 * {@link writeFileAtomic}, which is for the user's files, it neither reads the old file nor keeps
 * its bytes, mode or owner: nothing else writes these, and the hook's citation index (160 MB at
 * 100,000 documents) written that way held four copies of itself in memory. A file that cannot be
 * written is left as it was, never an error (the next run rebuilds what it lacks): the result
 * says whether it was written.
 */
export function writeOwnFile(path: string, contents: string): boolean {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(temporary, contents);
    renameSync(temporary, path);
    return true;
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Nothing there to remove (its directory is a file, or gone).
    }
    return false;
  }
}

function keepOwner(path: string, stats: Stats): void {
  try {
    chownSync(path, stats.uid, stats.gid);
  } catch {
    // Only root may give a file away; an ordinary user's file is already theirs.
  }
}

/**
 * The new bytes, with every line whose decoded text is unchanged taken from the original bytes.
 * Only matters when the original is not valid UTF-8: its invalid bytes decode to U+FFFD, which a
 * writer working on text would otherwise write back. Lines split at `\n` (never inside a UTF-8
 * sequence), so each original line decodes on its own exactly as in the whole file.
 */
export function keepUnchangedBytes(original: Uint8Array, next: Uint8Array): Buffer {
  const out = Buffer.from(next);
  if (isUtf8(original)) return out;
  let nextText: string;
  try {
    nextText = strictUtf8.decode(next);
  } catch {
    return out;
  }
  // Original lines whose text holds a replacement character, by their decoded text, in order.
  const lossy = new Map<string, Uint8Array[]>();
  for (const line of splitLines(original)) {
    const text = lenientUtf8.decode(line);
    if (!text.includes('\ufffd')) continue;
    const queue = lossy.get(text);
    if (queue === undefined) lossy.set(text, [line]);
    else queue.push(line);
  }
  if (lossy.size === 0) return out;
  const parts: Uint8Array[] = [];
  let start = 0;
  while (start <= nextText.length) {
    const newline = nextText.indexOf('\n', start);
    const end = newline === -1 ? nextText.length : newline + 1;
    const text = nextText.slice(start, end);
    const restored = text.includes('\ufffd') ? lossy.get(text)?.shift() : undefined;
    parts.push(restored ?? Buffer.from(text, 'utf8'));
    if (newline === -1) break;
    start = end;
  }
  return Buffer.concat(parts);
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The lines of `bytes`, each with its `\n`. */
function splitLines(bytes: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let index = 0; index < bytes.length; index += 1) {
    if (bytes[index] === 0x0a) {
      lines.push(bytes.subarray(start, index + 1));
      start = index + 1;
    }
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}
