import { spawnSync } from 'node:child_process';
import { AiwgCiteError } from '@aiwg-cite/core';

/** Runs git synchronously and returns stdout, or `null` when git fails or is absent. */
export function runGit(cwd: string, args: readonly string[]): string | null {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1024 * 1024 * 512 });
  if (result.error !== undefined || result.status !== 0) return null;
  return result.stdout;
}

/** The git top level that contains `directory`, or `null` outside a repository. */
export function gitTopLevel(directory: string): string | null {
  const out = runGit(directory, ['rev-parse', '--show-toplevel']);
  return out === null ? null : out.trim();
}

/**
 * Files under `directory` that git tracks or would track (untracked and not ignored), as paths
 * relative to `directory`, from one `git ls-files -z` call (git-ls-files(1)).
 */
export function gitListFiles(directory: string, pathspecs: readonly string[]): string[] {
  const out = runGit(directory, ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...pathspecs]);
  if (out === null) throw new AiwgCiteError('GIT_FAILED', `${directory}: git ls-files failed`, { data: { directory } });
  const seen = new Set<string>();
  for (const path of out.split('\0')) if (path !== '') seen.add(path);
  return [...seen];
}
