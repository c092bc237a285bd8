import { execFile } from 'node:child_process';
import { AiwgCiteError } from '@aiwg-cite/core';

/** Options of {@link runGitAsync}. */
export interface RunGitOptions {
  /** The environment of the git process. @default process.env (so `GIT_INDEX_FILE` is inherited) */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Runs one git command and resolves with its raw stdout. A missing git binary is
 * `GIT_UNAVAILABLE`; a non-zero exit is `GIT_FAILED` with git's own stderr in the message.
 * Several calls may run at once: the hook starts its independent git reads in parallel.
 */
export function runGitAsync(cwd: string, args: readonly string[], options: RunGitOptions = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...args],
      { cwd, env: options.env ?? process.env, encoding: 'buffer', maxBuffer: 1024 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error === null) {
          resolve(stdout);
          return;
        }
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          reject(new AiwgCiteError('GIT_UNAVAILABLE', 'git is not installed or not on PATH', { cause: error }));
          return;
        }
        const detail = stderr.toString('utf8').trim().split('\n')[0] ?? '';
        reject(
          new AiwgCiteError('GIT_FAILED', `\`git ${args[0] ?? ''}\` failed in ${cwd}${detail === '' ? '' : `: ${detail}`}`, {
            cause: error,
            data: { cwd, args: [...args] },
          }),
        );
      },
    );
  });
}

/** Splits NUL-terminated `-z` output (git-ls-files(1), git-diff(1) "-z") into fields. */
export function splitNul(output: Buffer): string[] {
  const text = output.toString('utf8');
  const fields = text.split('\0');
  if (fields.length > 0 && fields[fields.length - 1] === '') fields.pop();
  return fields;
}
