/**
 * The node adapter's sentences (STYLE §3, "Messages live in one place"): plain text, the
 * offending value in backticks, the next step where there is one. Callers prefix the file.
 */

/** Problems of a configuration file; the caller puts `<file>: ` in front. */
export const configMessages = {
  noSuchFile: () => 'no such file (named by --config)',
  noPackageKey: () => 'has no "aiwg-cite" key to read the configuration from',
  notJson: (reason: string) => `not valid JSON (${reason})`,
  unreadable: (reason: string) => `cannot read it (${reason})`,
  danglingLink: (target: string) => `a symbolic link to \`${target}\`, which does not exist`,
  directory: () => 'a directory, not a file',
  notRegular: () => 'not a regular file',
} as const;

/** Problems of files read or written for a run; the caller puts `<path>: ` in front. */
export const fileMessages = {
  rootMissing: () => 'the root directory does not exist',
  rootNotDirectory: () => 'the root is not a directory',
  noSuchPath: () => 'no such file or directory',
  unreadable: (reason: string) => `cannot be read (${reason})`,
  outsideRoot: (root: string) => `outside the root ${root}`,
  notRegular: (type: string) => `${type}, not a regular file; not read`,
  notWritable: () => 'not a regular file; not written',
  readOnly: () => 'read-only; not written (make it writable first)',
  changedSinceRead: () => 'changed on disk since it was read; not written (run again)',
  cannotWrite: (reason: string) => `cannot write (${reason})`,
  bibliographyUnreadable: () => 'cannot read the bibliography file',
  bibliographySkipped: (path: string, problem: string) =>
    `the bibliography ${path}, found in the tree, was skipped: ${problem} (name bibliographies in the configuration to make this an error)`,
} as const;

/** Problems running git. */
export const gitMessages = {
  failed: (command: string, cwd: string, detail: string) => `\`git ${command}\` failed in ${cwd}${detail === '' ? '' : `: ${detail}`}`,
  unavailable: () => 'git is not installed or not on PATH',
  lsFilesFailed: () => 'git ls-files failed',
} as const;
