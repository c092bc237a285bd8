/**
 * The git adapter's sentences about git itself (STYLE §3, "Messages live in one place"): plain
 * text, the offending value in backticks. The staged check's sentences are in staged-messages.ts.
 */
export const gitMessages = {
  cannotRun: (reason: string) => `git cannot be run (${reason}); install git or pass --no-history`,
  catFileUnavailable: (reason: string) => `git cat-file: ${reason}`,
  catFileExited: (code: number | null, stderr: string) => `git cat-file exited with ${code}: ${stderr}`,
  catFileClosed: () => 'git cat-file is closed',
  objectNameNewline: () => 'cannot read an object name containing a newline',
  catFileHeader: (header: string) => `git cat-file: unexpected header \`${header}\``,
  lsFilesEntry: (entry: string) => `git ls-files: unexpected entry \`${entry}\``,
  diffRecord: (header: string) => `git diff: unexpected record \`${header}\``,
  diffRecordNoPath: (header: string) => `git diff: record \`${header}\` has no path`,
  notACommit: (since: string) => `check: --since \`${since}\` names no commit of this repository`,
  notACommitShallow: (since: string) =>
    `check: --since \`${since}\` names no commit of this shallow clone: fetch it first (\`git fetch --depth=100 origin <branch>\`, or actions/checkout with fetch-depth: 0)`,
} as const;

/** Why an artifact of the index or a submodule could not be read; shown inside the RLM sentences. */
export const readReasons = {
  blobMissing: (oid: string) => `blob ${oid} is not in the object store`,
  unsupportedMode: (mode: string) => `unsupported index mode ${mode}`,
  tooManySymlinkHops: (max: number) => `more than ${max} symlink hops`,
  insideSubmodule: (name: string) => `inside submodule \`${name}\``,
  submoduleNotCheckedOut: (name: string) => `inside submodule \`${name}\`, which is not checked out`,
  submoduleCommitNotFetched: (name: string, commit: string) =>
    `inside submodule \`${name}\`, whose recorded commit ${commit.slice(0, 12)} is not fetched`,
} as const;
