import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, realpathSync, type Stats, statSync } from 'node:fs';
import { AiwgCiteError, type EntryKind, type FileSystem, type Sha256 } from '@aiwg-cite/core';
import { fileMessages } from './messages.ts';

/**
 * The core's {@link FileSystem} over node:fs. It uses the synchronous calls on purpose: for
 * thousands of small files they are several times faster than the promise API, and a check
 * has nothing else to do while it waits.
 */
export const nodeFileSystem: FileSystem = {
  realpath(path) {
    try {
      return realpathSync.native(path);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  },
  stat(path): EntryKind | null {
    try {
      const stats = statSync(path);
      return stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : 'other';
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  },
  readFile(path) {
    return readRegularFile(path);
  },
  readdir(path) {
    return readdirSync(path);
  },
};

/**
 * A {@link FileSystem} for one short run (a `check`), which remembers the canonical path of each
 * directory it has seen. A file then costs one `lstat` instead of a `realpath` that walks every
 * path component: thousands of cited files share a few dozen directories. Only on Linux, where
 * names are case-sensitive, so the requested name is the real one; elsewhere, and for symlinks,
 * it asks `realpath`. Not for long-running processes: a renamed directory would be missed.
 */
export function createRunFileSystem(): FileSystem {
  // The global, not `import … from 'node:process'`: that module's ES facade reads every property
  // of `process` once, standard streams included, and so builds all three (milliseconds per run).
  if (process.platform !== 'linux') return nodeFileSystem;
  const directories = new Map<string, string | null>();
  const realDirectory = (path: string): string | null => {
    let real = directories.get(path);
    if (real === undefined) {
      real = nodeFileSystem.realpath(path) as string | null;
      directories.set(path, real);
    }
    return real;
  };
  // The paths the last `lstat`s found to be regular files, which a read then opens without a
  // `stat` of its own first (each is read once, right after its path was resolved).
  const regular = new Set<string>();
  return {
    ...nodeFileSystem,
    realpath(path) {
      const slash = path.lastIndexOf('/');
      if (slash <= 0) return nodeFileSystem.realpath(path);
      const directory = realDirectory(path.slice(0, slash));
      if (directory === null) return null;
      const candidate = `${directory}/${path.slice(slash + 1)}`;
      const stats = lstatSync(candidate, { throwIfNoEntry: false });
      if (stats === undefined) return null;
      if (stats.isFile()) regular.add(candidate);
      return stats.isSymbolicLink() ? nodeFileSystem.realpath(candidate) : candidate;
    },
    readFile(path) {
      const checked = regular.delete(path);
      return readRegularFile(path, checked);
    },
  };
}

/** What a non-regular file is, for messages. */
export function describeFileType(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isDirectory()) return 'a directory';
  return 'not a regular file';
}

/** A FIFO, socket or device refused by {@link readRegularFile}: one line naming the file and what it is. */
export function notRegularFile(path: string, type: string): AiwgCiteError {
  return new AiwgCiteError('INPUT_UNREADABLE', `${path}: ${fileMessages.notRegular(type)}`, { data: { path, type } });
}

/**
 * Reads a regular file. A FIFO, socket or device is refused without reading it: it is checked
 * before opening (`checked`: an `lstat` of this path just found a regular file), and opened
 * non-blocking and checked again (the path may change in between), so a FIFO a pull request adds
 * can never hang a commit hook, and a device is never opened.
 */
export function readRegularFile(path: string, checked = false): Buffer {
  if (!checked) {
    const before = statSync(path);
    if (!before.isFile()) throw notRegularFile(path, describeFileType(before));
  }
  const descriptor = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stats = fstatSync(descriptor);
    if (!stats.isFile()) throw notRegularFile(path, describeFileType(stats));
    return readToSize(descriptor, stats.size);
  } finally {
    closeSync(descriptor);
  }
}

/**
 * The bytes of an open regular file of `size` bytes (its `fstat`), as `readFileSync` reads them
 * without a `fstat` of its own: up to that size, or to its end when it says 0 (a file whose size
 * the system does not know).
 */
function readToSize(descriptor: number, size: number): Buffer {
  if (size === 0) {
    const chunks: Buffer[] = [];
    for (;;) {
      const chunk = Buffer.allocUnsafe(64 * 1024);
      const read = readSync(descriptor, chunk, 0, chunk.length, null);
      if (read === 0) return Buffer.concat(chunks);
      chunks.push(chunk.subarray(0, read));
    }
  }
  const bytes = Buffer.allocUnsafe(size);
  let length = 0;
  while (length < size) {
    const read = readSync(descriptor, bytes, length, size - length, null);
    if (read === 0) break;
    length += read;
  }
  return length === size ? bytes : bytes.subarray(0, length);
}

/**
 * True when a listed path no longer exists (deleted in the working tree, or a file where a
 * directory on its way was). Any other failure (no permission on a parent) keeps the document, so
 * it is reported as unreadable rather than silently dropped.
 */
export function isGone(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) === undefined;
  } catch (error) {
    return (error as { code?: unknown }).code === 'ENOTDIR';
  }
}

/** SHA-256 through node:crypto, synchronous and native. */
export const nodeSha256: Sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP';
}
