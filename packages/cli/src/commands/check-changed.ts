import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { AiwgCiteError } from '@aiwg-cite/core';
import { knownGitDirectory, runGit, type Workspace, writeOwnFile } from '@aiwg-cite/node';
import type { CliContext } from '../context.ts';
import { checkMessages, usageMessages } from '../messages.ts';
import { assertGitInstalled } from '../require-git.ts';

/** The documents `check --changed` checks, and the note that says why those. */
export interface ChangedScope {
  /** Root-relative markdown documents: changed since the commit, and citing a changed file. */
  readonly documents: readonly string[];
  readonly note: string;
}

/**
 * Starts git's part of `check --changed` (or `--since REF`): the paths that differ between `since`
 * and the working tree, untracked ones included (`null`: the branch has no commit yet). Started
 * before the run loads its configuration and corpus, so that git walks the tree meanwhile.
 */
export function readChanges(workspace: Workspace, since: string, context: CliContext): Promise<string[] | null> {
  if (!workspace.isGit) {
    try {
      assertGitInstalled(context.cwd, '--changed', context.env);
    } catch (error) {
      return Promise.reject(error);
    }
    return Promise.reject(new AiwgCiteError('NOT_A_REPOSITORY', usageMessages.changedNeedsGit(context.cwd)));
  }
  // The git adapter is loaded only for this question, as for --staged.
  const changes = import('@aiwg-cite/git').then((git) => git.readWorktreeChanges(workspace.root, since, { ...context.env }));
  // Awaited later; a run that fails before then must not also report an unhandled rejection.
  changes.catch(() => undefined);
  return changes;
}

/**
 * What `check --changed` checks, from the {@link readChanges} of `since`: the markdown documents
 * that changed, and the documents whose code citations name a changed path, found through the
 * citation index the commit hook keeps under the git directory. `documents` is `null`, with a note,
 * when every document must be checked instead: the branch has no commit yet, or a changed file is
 * one every document depends on (the configuration, a corpus or bibliography file, as
 * `changesEveryDocument` says).
 */
export async function changedScope(
  workspace: Workspace,
  changes: readonly string[] | null,
  since: string,
  changesEveryDocument: (path: string) => boolean,
  includeCode: boolean,
  context: CliContext,
): Promise<ChangedScope | { readonly documents: null; readonly note: string }> {
  if (changes === null) return { documents: null, note: checkMessages.changedNoCommit() };
  const everywhere = changes.find(changesEveryDocument);
  if (everywhere !== undefined) return { documents: null, note: checkMessages.changedEverywhere(everywhere, since) };
  const git = await import('@aiwg-cite/git');
  const env = { ...context.env };
  const present = (path: string) => isRegularFile(join(workspace.root, path));
  const changed = changes.filter((path) => git.isMarkdownName(path) && present(path));
  const gitDir = knownGitDirectory(workspace.root, context.env) ?? runGit(workspace.root, ['rev-parse', '--absolute-git-dir'], env)?.trim();
  if (gitDir === undefined) throw new AiwgCiteError('GIT_FAILED', checkMessages.changedNoGitDir(workspace.root));
  const snapshot = await git.readIndex(workspace.root, env, async () => gitDir);
  const batch = new git.CatFileBatch(workspace.root, env);
  let citing: string[];
  try {
    const entries = await git.findCitingEntries(
      { file: git.citationIndexPath(gitDir), snapshot, batch, includeCode, writeFile: writeOwnFile },
      new Set(changes),
      new Set(changed),
      // A bare `[path]` can name a file that came or went from its document's folder.
      new Set(changes),
    );
    // A citing document deleted from the working tree (but still in the index) cites nothing any more.
    citing = [...new Set(entries.map((entry) => entry.document))].filter(present);
  } finally {
    await batch.close();
  }
  const documents = [...new Set([...changed, ...citing])].sort();
  return { documents, note: checkMessages.changedScope(since, changed.length, documents.length - changed.length) };
}

function isRegularFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}
