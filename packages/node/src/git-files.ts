import { AiwgCiteError } from '@aiwg-cite/core';
import { type GitEnv, gitProbe, gitSync } from './git-runner.ts';
import { gitMessages } from './messages.ts';

/** Runs git synchronously and returns stdout, or `null` when git fails or is absent. */
export function runGit(cwd: string, args: readonly string[], env?: GitEnv): string | null {
  return gitProbe(cwd, args, env === undefined ? {} : { env });
}

/** The git directories found by {@link gitTopLevel}, by top level and the environment that locates them. */
const gitDirectories = new Map<string, string>();

/** The variables that move a repository's git directory (git(1), "ENVIRONMENT VARIABLES"). */
const LOCATING_VARIABLES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_CEILING_DIRECTORIES', 'GIT_DISCOVERY_ACROSS_FILESYSTEM'];

function directoryKey(top: string, env: GitEnv | undefined): string {
  const source = env ?? process.env;
  return [top, ...LOCATING_VARIABLES.map((name) => source[name] ?? '')].join('\0');
}

/**
 * The git top level that contains `directory`, or `null` outside a repository. The same
 * `git rev-parse` also names the git directory, kept for {@link knownGitDirectory}: the commit
 * hook needs both, and each git process costs it milliseconds.
 */
export function gitTopLevel(directory: string, env?: GitEnv): string | null {
  const out = runGit(directory, ['rev-parse', '--show-toplevel', '--absolute-git-dir'], env);
  if (out === null) return null;
  const lines = out.replace(/\n$/, '').split('\n');
  // A path with a newline in it makes the two lines ambiguous: ask for the top level alone.
  if (lines.length !== 2) return runGit(directory, ['rev-parse', '--show-toplevel'], env)?.trim() ?? null;
  const [top, gitDir] = lines as [string, string];
  gitDirectories.set(directoryKey(top, env), gitDir);
  return top;
}

/**
 * Whether a git binary answers at all. Asked only where a command that needs git found no
 * repository, so that it can say git is missing instead of calling the directory no repository.
 */
export function isGitInstalled(env?: GitEnv): boolean {
  try {
    gitSync(process.cwd(), ['--version'], env === undefined ? {} : { env });
    return true;
  } catch (error) {
    return !(error instanceof AiwgCiteError && error.code === 'GIT_UNAVAILABLE');
  }
}

/**
 * The absolute git directory of the repository whose top level is `top`, as an earlier
 * {@link gitTopLevel} under the same locating environment found it; `undefined` when none did.
 */
export function knownGitDirectory(top: string, env?: GitEnv): string | undefined {
  return gitDirectories.get(directoryKey(top, env));
}

/**
 * Files under `directory` that git tracks or would track (untracked and not ignored), as paths
 * relative to `directory`, from one `git ls-files -z` call (git-ls-files(1)). With `present`, a
 * tracked file deleted from the working tree is left out, by git's own stat of the index
 * (`--deleted`, tagged `-t`), not one stat per file here: only the files git names deleted or
 * skip-worktree (a sparse checkout's) are asked about with `isGone`. With `present.every`, the
 * caller stats every path anyway (the file stamps do), so git stats none: every path is asked
 * about with `isGone` instead.
 */
export function gitListFiles(
  directory: string,
  pathspecs: readonly string[],
  env?: GitEnv,
  onUnreadable?: (path: string, reason: string) => void,
  present?: { readonly isGone: (path: string) => boolean; readonly every?: boolean },
): string[] {
  const tags = present === undefined || present.every === true ? [] : ['-t', '--deleted'];
  const args = ['ls-files', '-z', ...tags, '--cached', '--others', '--exclude-standard', '--', ...pathspecs];
  // git skips an untracked directory it cannot open with a warning and carries on; the warning
  // is the only trace of it, so it is read (in the C locale, whatever the user's language).
  const out =
    onUnreadable === undefined
      ? runGit(directory, args, env)
      : gitProbe(directory, args, {
          env: { ...(env ?? process.env), LC_ALL: 'C', LANGUAGE: 'C' },
          onStderr: (text) => {
            for (const match of text.matchAll(/^warning: could not open directory '(.*)': (.*)$/gm)) {
              onUnreadable((match[1] ?? '').replace(/\/$/, ''), (match[2] ?? '').trim());
            }
          },
        });
  if (out === null) throw new AiwgCiteError('GIT_FAILED', `${directory}: ${gitMessages.lsFilesFailed()}`, { data: { directory } });
  const seen = new Set<string>();
  if (present === undefined || present.every === true) {
    for (const path of out.split('\0')) if (path !== '') seen.add(path);
    return present === undefined ? [...seen] : [...seen].filter((path) => !present.isGone(path));
  }
  const gone = new Set<string>();
  for (const entry of out.split('\0')) {
    if (entry.length < 3) continue;
    const path = entry.slice(2);
    // Confirmed by a stat of each: git tags an unreadable path (no permission) as deleted too.
    if ((entry[0] === 'R' || entry[0] === 'S') && present.isGone(path)) gone.add(path);
    else seen.add(path);
  }
  return [...seen].filter((path) => !gone.has(path));
}
