import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { AiwgCiteError } from '@aiwg-cite/core';
import { toPosix } from './discover.ts';
import { fileMessages } from './messages.ts';

/**
 * Confinement (issue 15 item 20). One rule for every path aiwg-cite reads or writes besides the
 * cited files (which the confined reader handles): a path that names a place inside the root must
 * stay inside it once symlinks are resolved, so nothing a repository commits (a symlinked corpus
 * directory, `.aiwg`, a report or cache directory, `.aiwg-location`) can lead a read or a write
 * outside. A path that names an outside place explicitly (configuration, a flag, the
 * environment) is the user's choice: it is allowed, and the run says so.
 */

/** Whether `path` is `base` or below it; both canonical, POSIX separators. */
export function isInside(base: string, path: string): boolean {
  const inside = toPosix(relative(base, path));
  return inside === '' || (!inside.startsWith('../') && inside !== '..' && !isAbsolute(inside));
}

/**
 * Where a path really leads: its canonical path, or for a path that does not exist (yet), the
 * canonical path of its nearest existing ancestor with the rest appended.
 */
export function realLocation(path: string): string {
  const missing: string[] = [];
  let current = resolve(path);
  // A dangling symlink is followed to where it points (a write would create its target there).
  for (let links = 0; ; ) {
    // A missing path goes up to its parent without asking realpath, whose error would cost a stack
    // trace: a run places every default corpus root, and most are missing.
    const stats = lstatSync(current, { throwIfNoEntry: false });
    if (stats !== undefined) {
      try {
        const real = toPosix(realpathSync.native(current));
        return missing.length === 0 ? real : `${real === '/' ? '' : real}/${missing.reverse().join('/')}`;
      } catch {
        if (links < 40 && stats.isSymbolicLink()) {
          links += 1;
          current = resolve(dirname(current), readlinkSync(current));
          continue;
        }
      }
    }
    const parent = dirname(current);
    if (parent === current) return toPosix(resolve(path));
    missing.push(current.slice(parent.length).replace(/^\/+/, ''));
    current = parent;
  }
}

/** How a path given for reading or writing stands against the root. */
export type Placement =
  /** Inside the root, and it stays there. */
  | { readonly kind: 'inside'; readonly real: string }
  /** Named outside the root on purpose (an absolute or `..` path): allowed. */
  | { readonly kind: 'outside-named'; readonly real: string }
  /** Named inside the root, but a symlink leads it out: refused. */
  | { readonly kind: 'escapes'; readonly real: string };

/** Places `path` (absolute) against `root` (canonical) by the rule above. */
export function placePath(root: string, path: string): Placement {
  const real = realLocation(path);
  if (isInside(root, real)) return { kind: 'inside', real };
  return isInside(root, toPosix(resolve(path))) ? { kind: 'escapes', real } : { kind: 'outside-named', real };
}

/**
 * A file named on the command line of a command that reads one document (`annotate`, `chunk`,
 * `certify`), confined as `check` confines its paths: it must exist and resolve inside the root.
 * Returns its canonical path and its path relative to the root.
 */
export function confineExplicitFile(root: string, cwd: string, path: string): { absolute: string; relative: string } {
  const absolute = resolve(cwd, path);
  let real: string;
  try {
    statSync(absolute);
    real = toPosix(realpathSync.native(absolute));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const why = code === 'ENOENT' || code === 'ENOTDIR' ? fileMessages.noSuchFile() : String(code ?? error);
    throw new AiwgCiteError('INPUT_UNREADABLE', `${path}: ${fileMessages.cannotRead(why)}`, { data: { path } });
  }
  if (!isInside(root, real)) {
    const throughSymlink = isInside(root, toPosix(absolute));
    throw new AiwgCiteError('INPUT_OUTSIDE_ROOT', `${path}: ${fileMessages.outsideRootNotRead(root, throughSymlink)}`, { data: { path } });
  }
  return { absolute: real, relative: toPosix(relative(root, real)) };
}

/**
 * Refuses a write at `path` (absolute) that a symlink inside the root would carry outside it: the
 * file itself, or any directory on the way. A path named outside the root is allowed.
 */
export function assertWriteConfined(root: string, path: string, what: string): void {
  const placement = placePath(root, path);
  if (placement.kind !== 'escapes') return;
  throw new AiwgCiteError(
    'INPUT_OUTSIDE_ROOT',
    `${toPosix(relative(root, resolve(path)))}: ${fileMessages.writeEscapes(what, placement.real)}`,
    { data: { path } },
  );
}
