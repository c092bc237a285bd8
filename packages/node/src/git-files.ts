import { AiwgCiteError } from '@aiwg-cite/core';
import { type GitEnv, gitProbe } from './git-runner.ts';
import { gitMessages } from './messages.ts';

/** Runs git synchronously and returns stdout, or `null` when git fails or is absent. */
export function runGit(cwd: string, args: readonly string[], env?: GitEnv): string | null {
  return gitProbe(cwd, args, env === undefined ? {} : { env });
}

/** The git top level that contains `directory`, or `null` outside a repository. */
export function gitTopLevel(directory: string, env?: GitEnv): string | null {
  const out = runGit(directory, ['rev-parse', '--show-toplevel'], env);
  return out === null ? null : out.trim();
}

/**
 * Files under `directory` that git tracks or would track (untracked and not ignored), as paths
 * relative to `directory`, from one `git ls-files -z` call (git-ls-files(1)).
 */
export function gitListFiles(
  directory: string,
  pathspecs: readonly string[],
  env?: GitEnv,
  onUnreadable?: (path: string, reason: string) => void,
): string[] {
  const args = ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...pathspecs];
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
  for (const path of out.split('\0')) if (path !== '') seen.add(path);
  return [...seen];
}
