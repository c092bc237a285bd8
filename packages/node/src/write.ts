import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { AiwgCiteError } from '@aiwg-cite/core';

/**
 * Writes a file atomically (temporary file in the same directory, then rename), keeping its mode.
 * When `expected` is given, the file must still hold exactly those bytes: a file changed on disk
 * since it was read is not written, and a `WRITE_CONFLICT` error names it. Returns `false`
 * without writing when the contents would not change.
 */
export function writeFileAtomic(path: string, contents: string | Uint8Array, expected?: Uint8Array, label: string = path): boolean {
  const next = typeof contents === 'string' ? Buffer.from(contents, 'utf8') : Buffer.from(contents);
  let current: Buffer | null = null;
  try {
    current = readFileSync(path);
  } catch {
    current = null;
  }
  if (expected !== undefined && (current === null || !current.equals(expected))) {
    throw new AiwgCiteError('WRITE_CONFLICT', `${label}: changed on disk since it was read; not written (run again)`, {
      data: { path: label },
    });
  }
  if (current?.equals(next)) return false;
  const temporary = join(dirname(path), `.${basename(path)}.aiwg-cite-${randomBytes(6).toString('hex')}.tmp`);
  try {
    const mode = current === null ? undefined : statSync(path).mode;
    writeFileSync(temporary, next, mode === undefined ? undefined : { mode });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new AiwgCiteError('INPUT_UNREADABLE', `${label}: cannot write (${(error as Error).message})`, { cause: error });
  }
  return true;
}
