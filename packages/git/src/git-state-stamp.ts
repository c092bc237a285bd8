import { type BigIntStats, lstatSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gitSync } from '@aiwg-cite/node';

/**
 * How recently a path may have changed for a stamp to be trusted: git replaces a ref, HEAD or the
 * index by renaming a lock file into place, and a second rename in the same clock tick as the
 * first could leave the directory's times as a stamp taken between them saw them.
 */
const SLACK_MS = 100;

/** The paths of git's ref storage and index a stamp looks at, as `git rev-parse --git-path` names them. */
const FILES = ['HEAD', 'index', 'packed-refs', 'shallow', 'info/grafts'] as const;
const TREES = ['refs', 'worktrees', 'reftable'] as const;

/** The files and the directories a {@link GitStateStamp} looks at, absolute. */
export interface GitStatePaths {
  readonly files: readonly string[];
  readonly trees: readonly string[];
}

/**
 * What git's refs and index look like on disk, from `lstat` alone (no git process): HEAD, the
 * index, packed-refs, the shallow and grafts files, and every directory under refs/, worktrees/
 * and reftable/. Git writes each of them by renaming a new file into place, which changes the file
 * and its directory, so while a stamp stays the same no ref, HEAD, worktree HEAD or index has
 * moved, and the facts git's history gave about pinned versions still hold. A watch takes one
 * before it answers and now and then, instead of starting git each time.
 */
export class GitStateStamp {
  readonly #files: readonly string[];
  readonly #trees: readonly string[];
  /** Per directory, its subdirectories as last listed, with the stat they were listed under. */
  readonly #listed = new Map<string, { readonly stat: string; readonly children: readonly string[] }>();

  private constructor(files: readonly string[], trees: readonly string[]) {
    this.#files = files;
    this.#trees = trees;
  }

  /** The paths it looks at (as {@link at} takes them). */
  get paths(): GitStatePaths {
    return { files: this.#files, trees: this.#trees };
  }

  /** A stamp of the paths an earlier stamp looked at ({@link paths}), without asking git where they are. */
  static at(paths: GitStatePaths): GitStateStamp {
    return new GitStateStamp(paths.files, paths.trees);
  }

  /** The stamp of the repository at `root`, or `null` outside git (one `git rev-parse`). */
  static open(root: string, env: NodeJS.ProcessEnv): GitStateStamp | null {
    let out: string;
    try {
      const args = ['rev-parse', '--show-toplevel', ...[...FILES, ...TREES].flatMap((path) => ['--git-path', path])];
      out = gitSync(root, args, { env }).toString('utf8');
    } catch {
      return null;
    }
    const [topLevel = '', ...paths] = out.split('\n');
    if (topLevel === '' || paths.length < FILES.length + TREES.length) return null;
    // git names them relative to where it ran (the root) unless they are elsewhere.
    const absolute = paths.map((path) => resolve(root, path));
    const files = absolute.slice(0, FILES.length);
    const grafts = env.GIT_GRAFT_FILE;
    if (grafts !== undefined && grafts !== '') files.push(resolve(topLevel, grafts));
    return new GitStateStamp(files, absolute.slice(FILES.length, FILES.length + TREES.length));
  }

  /** The state now, as one string; `null` when a path changed too recently to be sure of it (see {@link SLACK_MS}). */
  take(now: number = Date.now()): string | null {
    const parts: string[] = [];
    let recent = false;
    const stamp = (path: string): BigIntStats | undefined => {
      let stat: BigIntStats | undefined;
      try {
        stat = lstatSync(path, { bigint: true, throwIfNoEntry: false });
      } catch {
        // Not looked at (no permission, a file on the way): as good as absent, and no less stable.
      }
      if (stat === undefined) {
        parts.push(`${path}\0-`);
        return undefined;
      }
      parts.push(`${path}\0${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`);
      if (Number(stat.mtimeMs) > now - SLACK_MS || Number(stat.ctimeMs) > now - SLACK_MS) recent = true;
      return stat;
    };
    for (const file of this.#files) stamp(file);
    const walk = (directory: string): void => {
      const stat = stamp(directory);
      if (stat === undefined || !stat.isDirectory()) return;
      for (const child of this.#children(directory, parts[parts.length - 1] as string)) walk(join(directory, child));
    };
    for (const tree of this.#trees) walk(tree);
    return recent ? null : parts.join('\n');
  }

  /** A directory's subdirectories, listed again only when its stat changed (a name added or removed changes it). */
  #children(directory: string, stat: string): readonly string[] {
    const listed = this.#listed.get(directory);
    if (listed?.stat === stat) return listed.children;
    let children: string[] = [];
    try {
      children = readdirSync(directory, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort();
    } catch {
      // Gone since its stat: the next stamp differs anyway.
    }
    this.#listed.set(directory, { stat, children });
    return children;
  }
}
