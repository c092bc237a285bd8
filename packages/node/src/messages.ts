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
