import { type ChildProcessByStdio, execFile, spawn, spawnSync } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { AiwgCiteError } from '@aiwg-cite/core';
import { gitMessages } from './messages.ts';

/** The environment of a git process. */
export type GitEnv = Readonly<Record<string, string | undefined>>;

/** Options of every way aiwg-cite runs git. */
export interface GitRunOptions {
  /** @default process.env (so `GIT_INDEX_FILE`, set by `git commit`, is honoured) */
  readonly env?: GitEnv;
  /** Bytes written to git's standard input. */
  readonly input?: string | Uint8Array;
  /** Receives git's standard error of a command that succeeded: its warnings. */
  readonly onStderr?: (text: string) => void;
}

/** The most output one git command may return (`git log --raw` over a large history). */
const MAX_BUFFER = 1024 * 1024 * 1024;

/**
 * The one git runner of aiwg-cite. Every git process is started here, in one of three shapes:
 * {@link gitSync} (short queries on the start-up path), {@link gitAsync} (reads that run in
 * parallel) and {@link gitProcess} (long-lived `cat-file --batch`). They share the environment,
 * the buffer limit and the errors: a missing git binary is `GIT_UNAVAILABLE`, a failing command
 * `GIT_FAILED` with git's first stderr line.
 */
export function gitSync(cwd: string, args: readonly string[], options: GitRunOptions = {}): Buffer {
  const result = spawnSync('git', [...args], {
    cwd,
    env: environment(options.env),
    maxBuffer: MAX_BUFFER,
    ...(options.input === undefined ? {} : { input: options.input }),
  });
  if (result.error !== undefined) throw failure(cwd, args, result.error, result.stderr);
  if (result.status !== 0) throw failure(cwd, args, null, result.stderr);
  if (options.onStderr !== undefined && result.stderr.length > 0) options.onStderr(result.stderr.toString('utf8'));
  return result.stdout;
}

/** {@link gitSync} as text, or `null` when git fails or is absent (for probes: "is this a repository?"). */
export function gitProbe(cwd: string, args: readonly string[], options: GitRunOptions = {}): string | null {
  try {
    return gitSync(cwd, args, options).toString('utf8');
  } catch {
    return null;
  }
}

/** Runs one git command without blocking and resolves with its raw stdout. */
export function gitAsync(cwd: string, args: readonly string[], options: GitRunOptions = {}): Promise<Buffer> {
  const env = environment(options.env);
  const early = options.input === undefined ? takeEarlyRead(cwd, args, env) : undefined;
  return new Promise((resolve, reject) => {
    const settle = (error: Error | null, stdout: Buffer, stderr: Buffer) => {
      if (error !== null) reject(failure(cwd, args, error, stderr));
      else {
        if (options.onStderr !== undefined && stderr.length > 0) options.onStderr(stderr.toString('utf8'));
        resolve(stdout);
      }
    };
    if (early !== undefined) {
      early.then((result) => settle(result.error, result.stdout, result.stderr));
      return;
    }
    const child = execFile('git', [...args], { cwd, env, encoding: 'buffer', maxBuffer: MAX_BUFFER }, settle);
    if (options.input !== undefined) {
      child.stdin?.on('error', () => {});
      child.stdin?.end(options.input);
    }
  });
}

/** Starts a long-lived git process with piped standard streams (`git cat-file --batch`). */
export function gitProcess(cwd: string, args: readonly string[], env?: GitEnv): ChildProcessByStdio<Writable, Readable, Readable> {
  return spawn('git', [...args], { cwd, env: environment(env), stdio: ['pipe', 'pipe', 'pipe'] });
}

/** The error of a git process that could not start (`GIT_UNAVAILABLE`) or failed (`GIT_FAILED`). */
export function gitFailure(cwd: string, args: readonly string[], detail: string, cause?: unknown): AiwgCiteError {
  return new AiwgCiteError('GIT_FAILED', gitMessages.failed(args[0] ?? '', cwd, detail), {
    ...(cause === undefined ? {} : { cause }),
    data: { cwd, args: [...args] },
  });
}

function failure(cwd: string, args: readonly string[], error: Error | null, stderr: Buffer | string | null | undefined): AiwgCiteError {
  if (error !== null && (error as NodeJS.ErrnoException).code === 'ENOENT') {
    return new AiwgCiteError('GIT_UNAVAILABLE', gitMessages.unavailable(), { cause: error });
  }
  const text = stderr === null || stderr === undefined ? '' : typeof stderr === 'string' ? stderr : stderr.toString('utf8');
  const detail = text.trim().split('\n')[0] ?? '';
  return gitFailure(cwd, args, detail === '' && error !== null ? error.message : detail, error ?? undefined);
}

/**
 * A git read that the bin started before the bundle loaded (cli/src/bin.ts): the commit hook's
 * `git diff --cached` and bibliography listing run while Node compiles the bundle, instead of one
 * after another on the main path. The result is the raw outcome of `execFile`, judged by the
 * caller exactly as its own process's would be.
 */
export interface EarlyGitRead {
  readonly cwd: string;
  readonly args: readonly string[];
  /** The environment the process was started with: a read is used only under an equal one. */
  readonly env: GitEnv;
  readonly maxBuffer: number;
  readonly outcome: Promise<{ readonly error: Error | null; readonly stdout: Buffer; readonly stderr: Buffer }>;
}

/**
 * The global under which the bin leaves its {@link EarlyGitRead}s (an array). A global, because the
 * bin runs before the bundle that holds this module is loaded, and must not load it to start them.
 */
const EARLY_GIT_READS = Symbol.for('aiwg-cite.early-git-reads');

/**
 * The early read of exactly this command (same directory, arguments, environment and buffer
 * limit), taken so that it answers once; `undefined` when there is none.
 */
function takeEarlyRead(cwd: string, args: readonly string[], env: GitEnv): EarlyGitRead['outcome'] | undefined {
  const reads = (globalThis as { [EARLY_GIT_READS]?: EarlyGitRead[] })[EARLY_GIT_READS];
  if (reads === undefined) return undefined;
  const index = reads.findIndex(
    (read) =>
      read.cwd === cwd &&
      read.maxBuffer === MAX_BUFFER &&
      read.args.length === args.length &&
      read.args.every((arg, at) => arg === args[at]) &&
      sameEnvironment(read.env, env),
  );
  if (index < 0) return undefined;
  return reads.splice(index, 1)[0]?.outcome;
}

function sameEnvironment(a: GitEnv, b: GitEnv): boolean {
  const names = Object.keys(a);
  return names.length === Object.keys(b).length && names.every((name) => Object.hasOwn(b, name) && a[name] === b[name]);
}

function environment(env: GitEnv | undefined): NodeJS.ProcessEnv {
  return env === undefined ? process.env : { ...env };
}
