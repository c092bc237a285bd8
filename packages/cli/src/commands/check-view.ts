import { AiwgCiteError, isStrings, sameItems, sortedHas } from '@aiwg-cite/core';
import type { WorktreeState } from '@aiwg-cite/git';
import { usageMessages } from '../messages.ts';

/**
 * A kept answer's view of the tree (issue 18): what git said of the working tree, by the stat data
 * its index keeps, when the run that built the answer started. In a large repository the next run
 * asks git the same (`git diff-files`, `git ls-files --others`: C, and the stats spread over
 * threads) instead of listing every document and `lstat`ing each of them and every file they cite:
 * while the index is the same file, a tracked file git lists in neither answer has the stat, and so
 * the bytes, it had then. Only the paths git lists, and the documents and cited files that are no
 * plain index entry (a symbolic link, a submodule, an entry assumed unchanged or skip-worktree, an
 * untracked or ignored file), are looked at as before.
 *
 * The state is taken before the run reads a file: a file changed after that has another stat than
 * its entry, so a later run finds it listed, whatever the run read.
 */

/** The layout of {@link KeptView}; a new layout never reads an old file. */
const VIEW_FORMAT = 1;

/** From this size of git's index (about 10,000 entries) a run asks git instead of `lstat`ing each file. */
const VIEW_FROM_INDEX_BYTES = 1024 * 1024;

/**
 * The size of git's index from which a run keeps and uses a view, as `AIWG_CITE_GIT_VIEW` says:
 * `auto` (or unset) from {@link VIEW_FROM_INDEX_BYTES}, `on` whatever its size (the tests use it),
 * `off` never (`null`).
 */
export function viewFrom(env: Readonly<Record<string, string | undefined>>): number | null {
  const named = env.AIWG_CITE_GIT_VIEW;
  if (named === undefined || named === '' || named === 'auto') return VIEW_FROM_INDEX_BYTES;
  if (named === 'on') return 0;
  if (named === 'off') return null;
  throw new AiwgCiteError('USAGE', usageMessages.badGitView(named));
}

/**
 * The variables that change which paths a pathspec matches: discovery's `*.md` would then list
 * other files than {@link isListedMarkdown} names.
 */
export const PATHSPEC_VARIABLES = ['GIT_ICASE_PATHSPECS', 'GIT_GLOB_PATHSPECS', 'GIT_NOGLOB_PATHSPECS', 'GIT_LITERAL_PATHSPECS'];

export interface KeptView {
  readonly format: typeof VIEW_FORMAT;
  /** The index file it was taken against (`WorktreeState.index`). */
  readonly index: string;
  /** The tracked paths whose stat did not match their entry then. */
  readonly modified: readonly string[];
  /** The untracked markdown files then. */
  readonly untracked: readonly string[];
  /** The answer's documents and inputs that are no plain index entry: git's stat does not vouch for them. */
  readonly unplain: readonly string[];
  /** The markdown files discovery found and the configuration left out. */
  readonly leftOut: readonly string[];
  /** The markdown entries git may not look at in the working tree (`IndexEntries.flagged`): looked at by each run. */
  readonly flagged: readonly string[];
}

/** What a view is made from: git's state taken before the run read a file, and which paths are plain index entries. */
export interface ViewBasis {
  readonly state: WorktreeState;
  readonly isPlain: (path: string) => boolean;
  /** The index entries git may not look at in the working tree (`IndexEntries.flagged`). */
  readonly flagged: readonly string[];
}

/**
 * The view of an answer over `documents` and the paths of its inputs, from the markdown files
 * discovery `found` (before the configuration's filter).
 */
export function makeView(
  basis: ViewBasis,
  documents: readonly string[],
  inputs: readonly string[],
  found: readonly string[],
): KeptView | undefined {
  // An index whose stat data is stale (a copied tree, a touched checkout) vouches for little: no view.
  if (tooManyListed(basis.state, documents)) return undefined;
  const unplain: string[] = [];
  for (const path of documents) if (!basis.isPlain(path)) unplain.push(path);
  for (const path of inputs) if (!basis.isPlain(path)) unplain.push(path);
  const kept = new Set(documents);
  const { index, modified, untracked } = basis.state;
  const leftOut = found.filter((path) => !kept.has(path));
  return { format: VIEW_FORMAT, index, modified, untracked, unplain, leftOut, flagged: basis.flagged.filter(isListedMarkdown) };
}

/** What a view gives a run whose index is the view's: the documents as discovery finds them, and which paths kept their bytes. */
export interface ViewedTree {
  /** The markdown files discovery would find now, sorted. */
  readonly found: readonly string[];
  /** The documents discovery would give now (the configuration's filter of `found`): the kept answer's, or a few came or went. */
  readonly documents: readonly string[];
  /** Whether a document or input of the kept answer has the bytes it had (else it is looked at as before). */
  readonly unchanged: (path: string) => boolean;
}

/**
 * What discovery would find now, from the kept answer's `documents`, its view and git's `state`
 * now, with the documents the configuration's `filter` selects from it (those that came or went
 * since, untracked or removed, are a splice's to check or drop); `null` when the index is another
 * or git lists too many files (the run discovers them as before). Only the paths git lists, then
 * or now, can have come or gone: the others are tracked files with the stat they had.
 */
export function viewTree(
  view: KeptView,
  state: WorktreeState,
  documents: readonly string[],
  isGone: (path: string) => boolean,
  filter: (found: readonly string[]) => readonly string[],
): ViewedTree | null {
  if (state.index !== view.index || tooManyListed(state, documents)) return null;
  // Listed by git now: a tracked path (the index is the same) or an untracked one. A flagged entry
  // (skip-worktree, assumed unchanged) is listed by discovery whenever it stands in the tree.
  const listed = new Set([...view.modified, ...state.modified, ...state.untracked, ...view.flagged]);
  // The markdown files git lists whose place among what discovery finds changed (both lists are sorted).
  const found = (path: string) => sortedHas(documents, path) || sortedHas(view.leftOut, path);
  const moved = [...listed, ...view.untracked].filter(
    (path) => isListedMarkdown(path) && found(path) !== (listed.has(path) && !isGone(path)),
  );
  let sorted: readonly string[];
  // Nothing came or went, and the filter left nothing out: what it finds is the documents.
  if (moved.length === 0 && view.leftOut.length === 0) sorted = documents;
  else {
    const now = new Set([...documents, ...view.leftOut]);
    for (const path of moved) {
      if (now.has(path)) now.delete(path);
      else now.add(path);
    }
    sorted = [...now].sort();
  }
  const looked = new Set([...view.unplain, ...view.modified, ...state.modified]);
  // The filter is asked each time, as discovery asks it: it also tells the run which documents are
  // generated copies (check-scholarly.ts), which the report leaves out.
  const now = filter(sorted);
  return { found: sorted, documents: sameItems(now, documents) ? documents : now, unchanged: (path) => !looked.has(path) };
}

/**
 * Whether git lists more than a quarter as many files as there are documents: then the run looks
 * at the files itself (`git update-index --refresh`, or any `git status`, brings the index's stat
 * data up to date).
 */
function tooManyListed(state: WorktreeState, documents: readonly string[]): boolean {
  return (state.modified.length + state.untracked.length) * 4 > documents.length;
}

/** Whether discovery lists a path git lists (pathspecs `*.md` and `*.markdown`, nothing under `node_modules`). */
function isListedMarkdown(path: string): boolean {
  return (path.endsWith('.md') || path.endsWith('.markdown')) && !path.split('/').includes('node_modules');
}

/** Whether a kept view is one of this layout (the signature vouches for the bytes; this refuses other layouts). */
export function isKeptView(value: unknown): value is KeptView {
  const view = value as Partial<KeptView> | null;
  return (
    typeof view === 'object' &&
    view !== null &&
    view.format === VIEW_FORMAT &&
    typeof view.index === 'string' &&
    isStrings(view.modified) &&
    isStrings(view.untracked) &&
    isStrings(view.unplain) &&
    isStrings(view.leftOut) &&
    isStrings(view.flagged)
  );
}
