import { gitAsync } from '@aiwg-cite/node';

/** Options of {@link runGitAsync}. */
export interface RunGitOptions {
  /** The environment of the git process. @default process.env (so `GIT_INDEX_FILE` is inherited) */
  readonly env?: NodeJS.ProcessEnv;
  /** Receives git's standard error when the command succeeded (its warnings). */
  readonly onStderr?: (text: string) => void;
}

/**
 * Runs one git command through the one git runner (`@aiwg-cite/node`'s `gitAsync`) and resolves
 * with its raw stdout. Several calls may run at once: the hook starts its independent reads in parallel.
 */
export function runGitAsync(cwd: string, args: readonly string[], options: RunGitOptions = {}): Promise<Buffer> {
  return gitAsync(cwd, args, {
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.onStderr === undefined ? {} : { onStderr: options.onStderr }),
  });
}

/** Splits NUL-terminated `-z` output (git-ls-files(1), git-diff(1) "-z") into fields. */
export function splitNul(output: Buffer): string[] {
  const text = output.toString('utf8');
  const fields = text.split('\0');
  if (fields.length > 0 && fields[fields.length - 1] === '') fields.pop();
  return fields;
}
