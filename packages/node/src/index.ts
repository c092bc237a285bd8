export type { Workspace } from './discover.ts';
export { discoverDocuments, isMarkdownPath, resolveWorkspace, toPosix } from './discover.ts';
export { nodeFileSystem, nodeSha256 } from './fs.ts';
export { gitListFiles, gitTopLevel, runGit } from './git-files.ts';
export { createNodeReader } from './reader.ts';
export { writeFileAtomic } from './write.ts';
