export type { BlobHashes } from './blob-hash-cache.ts';
export { BlobHashCache } from './blob-hash-cache.ts';
export type { GitObject } from './cat-file.ts';
export { CatFileBatch } from './cat-file.ts';
export type { CitationIndexOptions, CitingEntry, IndexedBlob } from './citation-index.ts';
export { extractBlob, findCitingEntries, indexPartPath, isMarkdownName, summaryPath } from './citation-index.ts';
export { type GitStatePaths, GitStateStamp } from './git-state-stamp.ts';
export type { ArtifactVersion, ChangeStatus, CommitInfo, HistoryScope } from './history.ts';
export { GitHistory, hashBytes, parseRawLog } from './history.ts';
export type { BlameDetail, BlameDrift, BlameEntry, BlameInput, CurrentArtifact, PinSource } from './history-blame.ts';
export { blameCitation } from './history-blame.ts';
export type { HistoryFactsOptions } from './history-facts.ts';
export {
  createHistoryFacts,
  HistoryFactsMemo,
  historyState,
  historyStateAgain,
  joinedHistoryState,
  type TakenHistoryState,
} from './history-facts.ts';
export type { UnknownHashOptions } from './history-unknown.ts';
export { markUnknownHashes } from './history-unknown.ts';
export { IgnoreRules } from './ignore-rules.ts';
export type { IndexEntry, IndexSnapshot, StagedChange } from './index-entries.ts';
export { isRegularFileMode, parseLsFilesStage, parseRawDiff, readIndex, readStagedChanges } from './index-entries.ts';
export type { IndexReaderOptions } from './index-reader.ts';
export { createIndexReader, MAX_SYMLINK_HOPS } from './index-reader.ts';
export type { RunGitOptions } from './run-git.ts';
export { runGitAsync, splitNul } from './run-git.ts';
export type { StagedChangeSummary, StagedCheckInput, StagedCheckResult } from './staged-check.ts';
export { checkStaged, citationIndexPath, toRootRelative } from './staged-check.ts';
export { stagedMessages } from './staged-messages.ts';
export { readWorktreeChanges } from './worktree-changes.ts';
export type { WorktreeReaderOptions } from './worktree-reader.ts';
export { createWorktreeReader, readSubmodulePaths, skipWorktreeBlobs } from './worktree-reader.ts';
export type { IndexEntries, WorktreeState } from './worktree-state.ts';
export { indexEntries, indexIdentity, readWorktreeState } from './worktree-state.ts';
