import type { ArtifactReader, HistoryFacts } from '@aiwg-cite/core';
import { createNodeReader, type FileStamps, type Workspace } from '@aiwg-cite/node';
import type { CliContext } from './context.ts';

/**
 * The ports the CLI's commands plug into the core pipeline (`runPipeline`): which reader of the
 * working tree, which history. Commands choose among these; none builds its own.
 */

/**
 * The working tree as the checks read it: confined to the root, and in a git repository as git
 * would store it (clean filters such as `core.autocrlf`; submodule paths that are not checked
 * out read as unchecked). With `stamps`, what is read is stamped for the next run. The git adapter is loaded only inside a repository.
 */
export async function worktreeReader(
  workspace: Workspace,
  context: CliContext,
  options: { cacheDirectories?: boolean; stamps?: FileStamps | null } = {},
): Promise<ArtifactReader> {
  const confined = createNodeReader(workspace.root, options.cacheDirectories === true ? { cacheDirectories: true } : {});
  // The stamps see the bytes on disk, before git's clean filters: they stamp only files those leave alone.
  const reader = options.stamps == null ? confined : options.stamps.wrapReader(confined);
  if (!workspace.isGit) return reader;
  const git = await import('@aiwg-cite/git');
  return git.createWorktreeReader(reader, { root: workspace.root, env: context.env });
}

/**
 * The history stage's port over git. The git history module is loaded on the first lookup, which
 * happens only when some citation is stale, so a clean check pays nothing for it.
 */
export function historyPort(
  workspace: Workspace,
  context: CliContext,
  workingTree?: ArtifactReader,
  options: {
    keep?: boolean;
    tellState?: import('@aiwg-cite/git').HistoryFactsOptions['tellState'];
    stateStamp?: () => string | null;
  } = {},
): HistoryFacts | undefined {
  if (!workspace.isGit) return undefined;
  // With `keep` (a long-running watch): the facts of pins looked up before, while git's state stays.
  // With `tellState` (a check that may keep its answer): what each lookup's answer depends on.
  // With `stateStamp` too (the watch's): kept facts while git's refs and index stay, without starting git.
  let memo: import('@aiwg-cite/git').HistoryFactsMemo | undefined;
  return {
    async lookup(pins) {
      const git = await import('@aiwg-cite/git');
      if (options.keep === true) memo ??= new git.HistoryFactsMemo();
      return git
        .createHistoryFacts({
          root: workspace.root,
          env: { ...context.env },
          ...(workingTree === undefined ? {} : { workingTree }),
          ...(memo === undefined ? {} : { memo }),
          ...(options.tellState === undefined ? {} : { tellState: options.tellState }),
          ...(options.stateStamp === undefined ? {} : { stateStamp: options.stateStamp }),
        })
        .lookup(pins);
    },
  };
}
