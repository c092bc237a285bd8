import { AiwgCiteError } from '@aiwg-cite/core';
import { gitMessages } from './messages.ts';
import { runGitAsync, splitNul } from './run-git.ts';

/**
 * The paths, root-relative as git names them, that differ between the commit `since` and the
 * working tree: changed, added, deleted (both sides of a rename), staged or not, and untracked files
 * git does not ignore. Another commit than HEAD is taken where HEAD's history left it (their merge
 * base, as `git diff REF...` does), so that what the branch it names did since does not count as
 * this branch's change. `null` when `since` is `HEAD` and the branch has no commit yet (everything
 * is new). A `since` that names no commit is a usage error.
 */
export async function readWorktreeChanges(root: string, since: string, env?: NodeJS.ProcessEnv): Promise<string[] | null> {
  const options = env === undefined ? {} : { env };
  // A revision that reads as an option would be taken for one by git.
  if (since === '' || since.startsWith('-')) throw new AiwgCiteError('USAGE', gitMessages.notACommit(since));
  try {
    await runGitAsync(root, ['rev-parse', '--verify', '--quiet', `${since}^{commit}`], options);
  } catch {
    if (since === 'HEAD') return null;
    // A CI checkout is often shallow, with the base branch not fetched: say how to get it.
    const shallow = await runGitAsync(root, ['rev-parse', '--is-shallow-repository'], options).then(
      (out) => out.toString('utf8').trim() === 'true',
      () => false,
    );
    throw new AiwgCiteError('USAGE', shallow ? gitMessages.notACommitShallow(since) : gitMessages.notACommit(since));
  }
  // Unrelated histories (or an unborn HEAD) have no merge base: then the commit itself.
  const base = since === 'HEAD' ? since : ((await mergeBase(root, since, options)) ?? since);
  // Both run at once: each has git look at the whole tree (the diff stats every tracked file).
  const [changed, untracked] = await Promise.all([
    runGitAsync(
      root,
      ['diff', '--name-only', '-z', '--no-renames', '--no-relative', '--ignore-submodules=all', '--no-ext-diff', base, '--'],
      options,
    ),
    runGitAsync(root, ['ls-files', '-z', '--others', '--exclude-standard'], options),
  ]);
  return [...new Set([...splitNul(changed), ...splitNul(untracked)])].sort();
}

async function mergeBase(root: string, since: string, options: { readonly env?: NodeJS.ProcessEnv }): Promise<string | null> {
  try {
    const base = (await runGitAsync(root, ['merge-base', since, 'HEAD'], options)).toString('utf8').trim();
    return base === '' ? null : base;
  } catch {
    return null;
  }
}
