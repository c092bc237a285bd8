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
  noGlobMatch: () => 'no markdown file matches this pattern',
  unreadable: (reason: string) => `cannot be read (${reason})`,
  outsideRoot: (root: string) => `outside the root ${root}`,
  notRegular: (type: string) => `${type}, not a regular file; not read`,
  notWritable: () => 'not a regular file; not written',
  readOnly: () => 'read-only; not written (make it writable first)',
  changedSinceRead: () => 'changed on disk since it was read; not written (run again)',
  cannotWrite: (reason: string) => `cannot write (${reason})`,
  cannotRead: (reason: string) => `cannot read (${reason})`,
  noSuchFile: () => 'no such file',
  outsideRootNotRead: (root: string, throughSymlink: boolean) =>
    `outside the root ${root}${throughSymlink ? ' (a symlink leads there)' : ''}; not read`,
  writeEscapes: (what: string, real: string) => `the ${what} leads outside the root through a symlink (to ${real}); not written`,
  bibliographyUnreadable: () => 'cannot read the bibliography file',
  bibliographySkipped: (path: string, problem: string) =>
    `the bibliography ${path}, found in the tree, was skipped: ${problem} (name bibliographies in the configuration to make this an error)`,
} as const;

/** Why a directory could not be listed: the system's words for the common error codes. */
export const listReasons = {
  permissionDenied: () => 'permission denied',
  vanished: () => 'vanished while listing',
  tooManySymlinks: () => 'too many symlinks',
  ioError: () => 'input/output error',
} as const;

/** Notes of a discovery or a corpus load: what was skipped, refused or read from outside the root. */
export const noteMessages = {
  unreadableDirectories: (shown: readonly string[], total: number) => {
    const more = total > shown.length ? `, and ${total - shown.length} more` : '';
    const count = total === 1 ? '1 directory' : `${total} directories`;
    return `${count} could not be read and ${total === 1 ? 'was' : 'were'} skipped: ${shown.join(', ')}${more}`;
  },
  /** `what` names the thing (`the corpus root docs/refs`); `shown` is its root-relative path, added when `what` lacks it. */
  escapesRoot: (what: string, shown: string, real: string) =>
    `${what.endsWith(shown) ? what : `${what} (${shown})`} leads outside the root through a symlink (to ${real}); not read`,
  aiwgDirectory: () => 'the aiwg directory',
  aiwgDirOutside: (path: string, variable: string) => `the aiwg directory ${path} is outside the root (named by ${variable})`,
  aiwgLocationEscapes: (value: string, real: string) =>
    `.aiwg-location names ${value}, which leads outside the root (to ${real}); not read (AIWG_PROJECT_AIWG_DIR may name an outside directory)`,
  corpusRoot: (path: string) => `the corpus root ${path}`,
  corpusRootOutside: (path: string) => `the corpus root ${path} is outside the root (named in the configuration)`,
  bibliography: (path: string) => `the bibliography ${path}`,
  bibliographyOutside: (path: string) => `the bibliography ${path} is outside the root (named in the configuration)`,
  corpusFilesEscape: (count: number) =>
    `${count} corpus ${count === 1 ? 'file leads' : 'files lead'} outside ${count === 1 ? 'its' : 'their'} corpus root through a symlink; not read`,
} as const;

/** Problems running git. */
export const gitMessages = {
  failed: (command: string, cwd: string, detail: string) => `\`git ${command}\` failed in ${cwd}${detail === '' ? '' : `: ${detail}`}`,
  unavailable: () => 'git is not installed or not on PATH',
  lsFilesFailed: () => 'git ls-files failed',
} as const;
