import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { AiwgCiteError } from '@aiwg-cite/core';
import { gitListFiles, gitTopLevel } from './git-files.ts';

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
    throw new AiwgCiteError('INPUT_UNREADABLE', `${start}: the root directory does not exist`, { data: { path: start } });
  }
  if (!stats.isDirectory()) {
    throw new AiwgCiteError('INPUT_UNREADABLE', `${start}: the root is not a directory`, { data: { path: start } });
  }
  const top = gitTopLevel(start);
  if (rootOption !== undefined) return { root: toPosix(realpath(start)), isGit: top !== null };
  return top === null ? { root: toPosix(realpath(start)), isGit: false } : { root: toPosix(realpath(top)), isGit: true };
}

/**
 * The markdown documents to check, as root-relative POSIX paths. With no paths: every markdown
 * file under the root that git does not ignore (outside git, every one outside `node_modules`).
 * Explicit files are taken as they are, whatever their style (relative to `cwd`, or absolute),
 * and never widen the run; directories expand to the markdown files below them.
 */
export function discoverDocuments(workspace: Workspace, cwd: string, paths: readonly string[]): string[] {
  if (paths.length === 0) return listMarkdown(workspace, workspace.root);
  const found = new Set<string>();
  for (const path of paths) {
    const absolute = isAbsolute(path) ? path : resolve(cwd, path);
    let stats: ReturnType<typeof statSync>;
    try {
      stats = statSync(absolute);
    } catch {
      throw new AiwgCiteError('INPUT_UNREADABLE', `${path}: no such file or directory`, { data: { path } });
    }
    const canonical = toPosix(realpath(absolute));
    const relativePath = toPosix(relative(workspace.root, canonical));
    if (relativePath.startsWith('..') || isAbsolute(relativePath)) {
      throw new AiwgCiteError('INPUT_OUTSIDE_ROOT', `${path}: outside the root ${workspace.root}`, { data: { path } });
    }
    if (stats.isDirectory()) {
      for (const file of listMarkdown(workspace, canonical)) found.add(file);
    } else {
      found.add(relativePath);
    }
  }
  return [...found].sort();
}

function listMarkdown(workspace: Workspace, directory: string): string[] {
  const prefix = toPosix(relative(workspace.root, directory));
  const under = prefix === '' ? '' : `${prefix}/`;
  if (workspace.isGit) {
    return gitListFiles(directory, ['*.md', '*.markdown'])
      .filter((path) => isMarkdownPath(path) && !path.split('/').includes('node_modules'))
      .map((path) => under + path)
      .filter((path) => existsSync(join(workspace.root, path)))
      .sort();
  }
  const out: string[] = [];
  walk(directory, under, out);
  return out.sort();
}

function walk(directory: string, prefix: string, out: string[]): void {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (SKIPPED_DIRECTORIES.has(entry.name)) continue;
      walk(join(directory, entry.name), `${prefix}${entry.name}/`, out);
    } else if (entry.isFile() && isMarkdownPath(entry.name)) {
      out.push(prefix + entry.name);
    }
  }
}

function realpath(path: string): string {
  return realpathSync.native(path);
}
