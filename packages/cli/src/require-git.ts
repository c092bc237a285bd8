import { AiwgCiteError } from '@aiwg-cite/core';
import { type GitEnv, isGitInstalled } from '@aiwg-cite/node';
import { usageMessages } from './messages.ts';

/**
 * For a command that needs git and found no repository: throws `GIT_UNAVAILABLE` when no git
 * binary answers at all, so the one line says git is missing rather than that `directory` is no
 * repository. Returns when git is there (the caller then says there is no repository).
 */
export function assertGitInstalled(directory: string, what: string, env?: GitEnv): void {
  if (!isGitInstalled(env)) throw new AiwgCiteError('GIT_UNAVAILABLE', usageMessages.gitMissing(directory, what));
}
