import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { runGitAsync, splitNul } from './run-git.ts';

/**
 * What git says of the working tree against its index, from the stat data the index keeps (the
 * checks git itself trusts), without aiwg-cite reading or `lstat`ing a file: which tracked files
 * no longer match their entry, and which untracked markdown files it does not ignore. While the
 * index stays the same, a tracked file git lists in neither answer has the stat, and so the bytes,
 * it had when an earlier state was taken (`check` trusts this for a kept answer over a large tree).
 */
export interface WorktreeState {
  /** The index file's size and trailing checksum (which covers every entry and its stat data). */
  readonly index: string;
  /** Tracked paths whose stat no longer matches their entry (`git diff-files`): edited, deleted or only touched. */
  readonly modified: readonly string[];
  /** Untracked `*.md` and `*.markdown` files git does not ignore, as discovery lists them. */
  readonly untracked: readonly string[];
}

/**
 * The stat checks {@link readWorktreeState} has git make, whatever the repository configures: every
 * field compared (`core.checkStat`, `core.trustctime`), no file system monitor answering for them.
 */
const STAT_CHECKS = ['-c', 'core.checkStat=default', '-c', 'core.trustctime=true', '-c', 'core.fsmonitor=false'];

/**
 * The working tree's {@link WorktreeState} (two git processes, run at once), or `null` when it
 * cannot be trusted: no index file (or one `GIT_INDEX_FILE` moves), an index that changed while git
 * looked, a warning from git (a directory it could not read), or git failing.
 */
export async function readWorktreeState(root: string, gitDir: string, env: NodeJS.ProcessEnv): Promise<WorktreeState | null> {
  if (env.GIT_INDEX_FILE !== undefined) return null;
  const indexFile = join(gitDir, 'index');
  const before = indexIdentity(indexFile);
  if (before === null) return null;
  let warned = false;
  const options = { env: { ...env, GIT_OPTIONAL_LOCKS: '0' } };
  try {
    const [modified, untracked] = await Promise.all([
      runGitAsync(root, [...STAT_CHECKS, 'diff-files', '--name-only', '-z', '--ignore-submodules=all', '--no-ext-diff'], options),
      runGitAsync(root, ['ls-files', '-z', '--others', '--exclude-standard', '--', '*.md', '*.markdown'], {
        ...options,
        onStderr: () => {
          warned = true;
        },
      }),
    ]);
    if (warned || indexIdentity(indexFile) !== before) return null;
    return { index: before, modified: splitNul(modified), untracked: splitNul(untracked) };
  } catch {
    return null;
  }
}

/** The index's entries as {@link indexEntries} sorts them. */
export interface IndexEntries {
  /**
   * The tracked paths git checks by their stat alone: regular files (mode 100644 or 100755) at stage
   * 0, neither assumed unchanged nor skip-worktree (tag `H`). A symbolic link, a submodule or a
   * flagged entry can change what a reader gets while git reports nothing.
   */
  readonly plain: ReadonlySet<string>;
  /** The entries git may not look at in the working tree (assumed unchanged, skip-worktree, unmerged: any tag but `H`). */
  readonly flagged: readonly string[];
}

/** The index's entries (`git ls-files -s -v`), sorted as {@link IndexEntries} says; `null` when git fails. */
export async function indexEntries(root: string, env: NodeJS.ProcessEnv): Promise<IndexEntries | null> {
  let out: Buffer;
  try {
    out = await runGitAsync(root, ['ls-files', '-z', '-s', '-v'], { env });
  } catch {
    return null;
  }
  const plain = new Set<string>();
  const flagged: string[] = [];
  for (const entry of splitNul(out)) {
    // `H 100644 <oid> 0\t<path>`
    const tab = entry.indexOf('\t');
    if (tab < 0) continue;
    const path = entry.slice(tab + 1);
    if (entry[0] !== 'H') flagged.push(path);
    else if (entry[tab - 1] === '0' && entry[tab - 2] === ' ' && (entry.startsWith('H 100644 ') || entry.startsWith('H 100755 '))) {
      plain.add(path);
    }
  }
  return { plain, flagged };
}

/** The index file's size and its last 32 bytes (the checksum, SHA-1 or SHA-256, and what precedes a short one), or `null` without one. */
export function indexIdentity(file: string): string | null {
  let descriptor: number;
  try {
    descriptor = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const { size } = fstatSync(descriptor);
    if (size < 32) return null;
    const tail = Buffer.alloc(32);
    if (readSync(descriptor, tail, 0, 32, size - 32) !== 32) return null;
    return `${size}:${tail.toString('hex')}`;
  } catch {
    return null;
  } finally {
    closeSync(descriptor);
  }
}
