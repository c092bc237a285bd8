export { AnswerFile, type AnswerOutput, type AnswerSides, type KeptAnswer } from './answer-file.ts';
export type { AiwgCiteConfig, ConfigFileChoice } from './config.ts';
export { CONFIG_FILE, compileGlobs, filterByGlobs, loadConfig, validateConfig } from './config.ts';
export type { Placement } from './confine.ts';
export { assertWriteConfined, confineExplicitFile, isInside, placePath, realLocation } from './confine.ts';
export type { AiwgDirectory, LoadCorpusOptions } from './corpus.ts';
export {
  createMentionResolver,
  DEFAULT_AIWG_CORPUS_DIRS,
  isDirectory,
  loadBibliographies,
  loadCorpus,
  locateAiwgDir,
  resolveAiwgDir,
} from './corpus.ts';
export type { DiscoveryNote, DiscoveryOptions, Workspace } from './discover.ts';
export { discoverDocuments, isMarkdownPath, listDirectories, resolveWorkspace, toPosix, unreadableNote } from './discover.ts';
export { FileStamps, type StampChanges } from './file-stamps.ts';
export { createRunFileSystem, describeFileType, nodeFileSystem, nodeSha256, notRegularFile, readRegularFile } from './fs.ts';
export { gitListFiles, gitTopLevel, isGitInstalled, knownGitDirectory, runGit } from './git-files.ts';
export type { EarlyGitRead, GitEnv, GitRunOptions } from './git-runner.ts';
export { gitAsync, gitFailure, gitProbe, gitProcess, gitSync } from './git-runner.ts';
export type { NodeReaderOptions } from './reader.ts';
export { createNodeReader } from './reader.ts';
export { PackResultStorage, resultCacheDir, type SignedBody, SignedFile } from './result-store.ts';
export { loadUserCacheKey, userCacheDir } from './user-cache.ts';
export { removeOwnFile, writeFileAtomic, writeOwnFile } from './write.ts';
