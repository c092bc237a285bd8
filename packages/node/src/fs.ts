import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import type { EntryKind, FileSystem, Sha256 } from '@aiwg-cite/core';

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
    return readFileSync(path);
  },
  readdir(path) {
    return readdirSync(path);
  },
};

/** SHA-256 through node:crypto, synchronous and native. */
export const nodeSha256: Sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP';
}
