/**
 * Every user-facing sentence of history checks, `blame` and `stamp`, in one place. The CLI adds
 * only colour and layout.
 */
export const historyMessages = {
  unknownHash: (artifact: string, cited: string, searched: readonly string[] = ['history', 'index', 'working tree']) =>
    `hash \`${cited}\` matches no version of \`${artifact}\` in the repository's ${joinOr(searched)}: it cannot have come from the file`,
  unknownHashFix: (artifact: string, current: string | null) =>
    current === null
      ? `re-read \`${artifact}\` and cite what it says`
      : `re-read \`${artifact}\` and cite it as it is now (\`@${current}\`), or run \`aiwg-cite stamp\` on an un-versioned citation`,
  shallow: () => 'shallow clone: history is incomplete, so fabricated hashes (unknown-hash) were not checked (`git fetch --unshallow`)',
  noCommits: () => 'no commits yet: fabricated hashes (unknown-hash) were not checked',
  untracked: (count: number) =>
    `${count} stale ${count === 1 ? 'citation names a file' : 'citations name files'} whose content git has no history of (untracked, or a symlink): not checked for fabricated hashes`,
} as const;

function joinOr(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** Sentences of `aiwg-cite blame`. */
export const blameMessages = {
  notGit: (root: string) => `${root}: blame needs a git repository (it reads the cited files' history)`,
  lineNeedsOneDocument: () => 'blame: --line needs exactly one document',
  noCitationOnLine: (file: string, line: number) => `${file}:${line}: no versioned RLM citation on this line`,
  freshOnLine: (file: string, line: number) => `${file}:${line}: the citation is fresh; there is nothing to blame`,
  nothingStale: (files: number) => `No stale citations in ${files} ${files === 1 ? 'file' : 'files'}; nothing to blame.`,
  pinnedOnOtherBranch: () => 'the pinned version is not on the current branch; it was found on another ref',
  pinnedInIndex: () => 'the cited hash matches the staged (index) version, which is not committed yet',
  unknownHash: (artifact: string, untracked: boolean) =>
    untracked
      ? `git has never tracked \`${artifact}\`: there is no history to find the cited version in`
      : `no version of \`${artifact}\` in history, the index or the working tree has this hash: it was not taken from the file`,
  shallow: () => 'the cited version is not in this shallow clone; history is incomplete, so it cannot be found (`git fetch --unshallow`)',
  staleInWorktree: () => 'no commit changed the file after the pinned version: the change is in the working tree (uncommitted)',
  regionInWorktree: () => 'no commit changed the cited lines: they changed in the working tree (uncommitted)',
  regionUnchanged: () => 'the cited lines themselves are unchanged',
  diffTruncated: (more: number) => `… ${more} more diff ${more === 1 ? 'line' : 'lines'}`,
  driftLine: (drift: string, oldLines: string | null, newLines: string | null, intact: boolean) => {
    switch (drift) {
      case 'moved':
        return intact
          ? `moved (in place): the cited lines are unchanged at ${newLines ?? oldLines ?? 'the same numbers'}; only other lines changed; \`aiwg-cite stamp\` re-pins them`
          : `moved: the cited lines are unchanged at ${newLines ?? '?'} (were ${oldLines ?? '?'}); \`aiwg-cite stamp\` re-pins them`;
      case 'whitespace':
        return `whitespace: only whitespace changed in the cited lines${newLines === null ? '' : ` (now ${newLines})`}; \`aiwg-cite stamp\` re-pins them`;
      case 'changed':
        if (oldLines === null) return "changed: the file's content changed; review the claim, then `aiwg-cite stamp --accept FILE:LINE`";
        return `changed: the cited lines' content changed${newLines === null ? ' and they no longer map to any lines' : ` (now around ${newLines})`}; review the claim, then \`aiwg-cite stamp --accept FILE:LINE\``;
      case 'uncommitted':
        return `uncommitted${newLines === null ? '' : ` (cited lines now at ${newLines})`}`;
      default:
        return drift;
    }
  },
  deleted: (by: string | null, renamedTo: string | null) =>
    `deleted: the artifact no longer exists${by === null ? ' in the working tree (not committed)' : ` (removed in ${by})`}${
      renamedTo === null ? '' : `; it was renamed to \`${renamedTo}\`: cite that path`
    }`,
} as const;

/** Sentences of `aiwg-cite stamp`. */
export const stampMessages = {
  noChanges: (files: number) =>
    `No changes: every citation in ${files} ${files === 1 ? 'file' : 'files'} is already stamped or needs review.`,
  changed: (files: number, citations: number, dryRun: boolean) =>
    `${dryRun ? 'Would stamp' : 'Stamped'} ${citations} ${citations === 1 ? 'citation' : 'citations'} in ${files} ${files === 1 ? 'file' : 'files'}${
      dryRun ? ' (dry run: nothing written)' : ''
    }.`,
  reasonUnversioned: () => 'un-versioned: pinned to the current hash',
  reasonRepin: (drift: string, oldLines: string | null, newLines: string | null) =>
    oldLines !== null && newLines !== null && oldLines !== newLines
      ? `${drift}: re-pinned, ${oldLines} → ${newLines}`
      : `${drift === 'intact' ? 'unchanged lines' : drift}: re-pinned`,
  reasonAccepted: (drift: string) => `${drift}: re-pinned as accepted`,
  needsReview: (drift: string) => `${drift}: left alone; review it, then \`aiwg-cite stamp --accept FILE:LINE\``,
  needsHistory: () => 'stale, but outside git the change cannot be classified: left alone',
  notUtf8: (file: string) => `${file}: neither UTF-8 nor UTF-16 with a byte-order mark; stamp does not edit it`,
  badAccept: (value: string) => `stamp: --accept takes FILE:LINE (for example docs/guide.md:12), not \`${value}\``,
  acceptUnused: (value: string) => `--accept ${value}: no stale citation there to accept`,
} as const;
