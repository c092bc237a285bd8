import { accessSync, constants, type Dirent, readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { AiwgCiteError } from '@aiwg-cite/core';
import picomatch from 'picomatch/posix.js';
import { isGone } from './fs.ts';
import { gitListFiles, gitTopLevel, runGit } from './git-files.ts';
import { fileMessages, listReasons, noteMessages } from './messages.ts';

/** Where a check runs. */
export interface Workspace {
  /** The canonical absolute root, POSIX separators. */
  readonly root: string;
  /** Whether the root is inside a git work tree. */
  readonly isGit: boolean;
}

const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git']);

/** True when a path names a markdown document. */
export function isMarkdownPath(path: string): boolean {
  return /\.(md|markdown)$/i.test(path);
}

/** Converts a native path to POSIX separators. */
export function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** Finds the root: `--root` when given, otherwise the git top level, otherwise `cwd`. */
export function resolveWorkspace(cwd: string, rootOption: string | undefined): Workspace {
  const start = rootOption === undefined ? cwd : resolve(cwd, rootOption);
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(start);
  } catch {
    throw new AiwgCiteError('INPUT_UNREADABLE', `${start}: ${fileMessages.rootMissing()}`, { data: { path: start } });
  }
  if (!stats.isDirectory()) {
    throw new AiwgCiteError('INPUT_UNREADABLE', `${start}: ${fileMessages.rootNotDirectory()}`, { data: { path: start } });
  }
  const top = gitTopLevel(start);
  if (rootOption !== undefined) return { root: toPosix(realpath(start)), isGit: top !== null };
  return top === null ? { root: toPosix(realpath(start)), isGit: false } : { root: toPosix(realpath(top)), isGit: true };
}

/** Receives the one-line note of a discovery that had to skip directories it could not read. */
export type DiscoveryNote = (note: string) => void;

/**
 * The markdown documents to check, as root-relative POSIX paths. With no paths: every markdown
 * file under the root that git does not ignore (outside git, every one outside `node_modules`).
 * Explicit files are taken as they are, whatever their style (relative to `cwd`, or absolute),
 * and never widen the run; directories expand to the markdown files below them.
 *
 * A directory that cannot be read (no permission, a `/proc` entry that vanished, an I/O error)
 * is skipped and the run carries on; `onNote` then receives one line that counts and names them.
 * A tracked document that cannot be read is kept: the reader makes it a `document/unreadable` finding.
 */
export function discoverDocuments(
  workspace: Workspace,
  cwd: string,
  paths: readonly string[],
  onNote?: DiscoveryNote,
  options: DiscoveryOptions = {},
): string[] {
  const unreadable: Unreadable[] = [];
  const documents = discover(workspace, cwd, paths, unreadable, options);
  unreadable.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (unreadable.length > 0) onNote?.(unreadableNote(unreadable));
  return documents;
}

/**
 * Every directory under the root that a document could be written into, root-relative (`''` for
 * the root), sorted: in git, the directories of every file git tracks or would track and every
 * directory below an untracked one it lists whole (empty ones included), none it ignores;
 * outside git, every directory but `node_modules` and `.git`. A watch watches them all, so that a
 * document saved into a directory that holds none yet is seen. Directories this user cannot list
 * are left out (the discovery says so once); `null` when git cannot list them.
 */
export function listDirectories(workspace: Workspace, env?: NodeJS.ProcessEnv): string[] | null {
  const found = new Set<string>(['']);
  const addWithParents = (directory: string) => {
    for (let at = directory; at !== '' && !found.has(at); at = at.slice(0, Math.max(0, at.lastIndexOf('/')))) found.add(at);
  };
  const walkBelow = (start: string) => {
    const pending = [start];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      let entries: Dirent[];
      try {
        entries = readdirSync(next === '' ? workspace.root : join(workspace.root, next), { withFileTypes: true });
      } catch {
        continue;
      }
      addWithParents(next);
      for (const entry of entries) {
        if (entry.isDirectory() && !SKIPPED_DIRECTORIES.has(entry.name)) pending.push(next === '' ? entry.name : `${next}/${entry.name}`);
      }
    }
  };
  if (!workspace.isGit) walkBelow('');
  else {
    // `--directory` names an untracked directory once (with a slash), empty or not, instead of its files.
    const out = runGit(workspace.root, ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--directory'], env);
    if (out === null) return null;
    for (const path of out.split('\0')) {
      if (path === '' || path.split('/').some((segment) => SKIPPED_DIRECTORIES.has(segment))) continue;
      if (path.endsWith('/')) walkBelow(path.slice(0, -1));
      else addWithParents(path.slice(0, Math.max(0, path.lastIndexOf('/'))));
    }
  }
  return [...found].filter((directory) => directory === '' || isReadableDirectory(join(workspace.root, directory))).sort();
}

/** Whether a directory can be watched: it exists, and this user may list it. */
function isReadableDirectory(path: string): boolean {
  try {
    accessSync(path, constants.R_OK | constants.X_OK);
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** How {@link discoverDocuments} may learn what it needs without asking the file system itself. */
export interface DiscoveryOptions {
  /**
   * Whether a root-relative path is gone from the working tree, from a stat the caller takes of
   * every document anyway (the file stamps): then git stats none of the files it lists.
   */
  readonly isGone?: (path: string) => boolean;
}

/** A directory the discovery could not read. */
interface Unreadable {
  readonly path: string;
  readonly reason: string;
}

/** The one line for every directory a discovery skipped, naming the first few. */
export function unreadableNote(unreadable: readonly { readonly path: string; readonly reason: string }[]): string {
  const shown = unreadable.slice(0, 3).map((entry) => `${entry.path} (${entry.reason})`);
  return noteMessages.unreadableDirectories(shown, unreadable.length);
}

/** A character that makes an argument naming no file a glob: `*`, `?`, `[` or `{`. */
const GLOB_CHARACTER = /[*?[{]/;

function discover(
  workspace: Workspace,
  cwd: string,
  paths: readonly string[],
  unreadable: Unreadable[],
  options: DiscoveryOptions,
): string[] {
  if (paths.length === 0) return listMarkdown(workspace, workspace.root, unreadable, options);
  const found = new Set<string>();
  let everyDocument: readonly string[] | undefined;
  for (const path of paths) {
    const absolute = isAbsolute(path) ? path : resolve(cwd, path);
    let stats: ReturnType<typeof statSync>;
    let canonical: string;
    try {
      stats = statSync(absolute);
      canonical = toPosix(realpath(absolute));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const absent = code === 'ENOENT' || code === 'ENOTDIR';
      if (absent && GLOB_CHARACTER.test(path)) {
        // A glob the shell left alone (quoted in a package.json script), matched from the cwd as a shell would.
        const pattern = toPosix(relative(workspace.root, absolute));
        if (pattern.startsWith('..') || isAbsolute(pattern)) {
          throw new AiwgCiteError('INPUT_OUTSIDE_ROOT', `${path}: ${fileMessages.outsideRoot(workspace.root)}`, { data: { path } });
        }
        everyDocument ??= listMarkdown(workspace, workspace.root, unreadable, options);
        const isMatch = picomatch(pattern, { dot: true });
        const matches = everyDocument.filter((document) => isMatch(document));
        if (matches.length === 0) throw new AiwgCiteError('INPUT_UNREADABLE', `${path}: ${fileMessages.noGlobMatch()}`, { data: { path } });
        for (const match of matches) found.add(match);
        continue;
      }
      const why = absent ? fileMessages.noSuchPath() : fileMessages.unreadable(reasonOf(error));
      throw new AiwgCiteError('INPUT_UNREADABLE', `${path}: ${why}`, { data: { path } });
    }
    const relativePath = toPosix(relative(workspace.root, canonical));
    if (relativePath.startsWith('..') || isAbsolute(relativePath)) {
      throw new AiwgCiteError('INPUT_OUTSIDE_ROOT', `${path}: ${fileMessages.outsideRoot(workspace.root)}`, { data: { path } });
    }
    if (stats.isDirectory()) {
      for (const file of listMarkdown(workspace, canonical, unreadable, options)) found.add(file);
    } else {
      found.add(relativePath);
    }
  }
  return [...found].sort();
}

function listMarkdown(workspace: Workspace, directory: string, unreadable: Unreadable[], options: DiscoveryOptions): string[] {
  const prefix = toPosix(relative(workspace.root, directory));
  const under = prefix === '' ? '' : `${prefix}/`;
  if (workspace.isGit) {
    const skipped = (path: string, reason: string) => unreadable.push({ path: under + path, reason: reason.toLowerCase() });
    // A path is split only when it holds the name at all (asked twice of each of many paths).
    const wanted = (path: string) => isMarkdownPath(path) && !(path.includes('node_modules') && path.split('/').includes('node_modules'));
    const { isGone: isGoneHere } = options;
    const present =
      isGoneHere === undefined
        ? { isGone: (path: string) => isGone(join(directory, path)) }
        : { isGone: (path: string) => wanted(path) && isGoneHere(under + path), every: true };
    return gitListFiles(directory, ['*.md', '*.markdown'], undefined, skipped, present)
      .filter(wanted)
      .map((path) => under + path)
      .sort();
  }
  const out: string[] = [];
  walk(directory, under, out, unreadable);
  return out.sort();
}

/**
 * Every markdown file below `directory`, depth first. An explicit stack, not recursion: a deep
 * tree (or `--root /`) cannot overflow the call stack.
 */
function walk(start: string, startPrefix: string, out: string[], unreadable: Unreadable[]): void {
  const pending: [string, string][] = [[start, startPrefix]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [directory, prefix] = next;
    let entries: Dirent[];
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch (error) {
      unreadable.push({ path: prefix === '' ? '.' : prefix.slice(0, -1), reason: reasonOf(error) });
      continue;
    }
    for (const entry of entries) {
      if (entry.isDirectory()) {
        if (SKIPPED_DIRECTORIES.has(entry.name)) continue;
        pending.push([join(directory, entry.name), `${prefix}${entry.name}/`]);
      } else if (entry.isFile() && isMarkdownPath(entry.name)) {
        out.push(prefix + entry.name);
      }
    }
  }
}

/** A short reason for a failed read: the system's words for the common codes. */
function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return listReasons.permissionDenied();
    case 'ENOENT':
      return listReasons.vanished();
    case 'ELOOP':
      return listReasons.tooManySymlinks();
    case 'EIO':
      return listReasons.ioError();
    default:
      return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
  }
}

function realpath(path: string): string {
  return realpathSync.native(path);
}
