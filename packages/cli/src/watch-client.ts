import { existsSync, readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { watchServeMessages } from './watch-messages.ts';

/**
 * The asking side of a served `check` (commands/watch-serve.ts answers): loaded by the bin before
 * the bundle, so an answered run never loads it. Kept to Node's own modules.
 */

/** The socket a watch answers on, under the git directory (commands/watch-serve.ts listens there). */
export function watchSocketPath(gitDir: string): string {
  return `${gitDir}/aiwg-cite/watch.sock`;
}

/** How long a watch may take to answer before the run checks by itself. */
const ANSWER_TIMEOUT_MS = 60_000;

/**
 * Asks a running `aiwg-cite watch` of this repository to answer `check` (args: the bin's, the
 * command included). Returns the exit code once the watch's output is written to stdout, or
 * `null` when no watch runs here or it declines, and the caller checks by itself.
 * `AIWG_CITE_WATCH=0` never asks; `AIWG_CITE_WATCH=trace` says on stderr who answered, and why not.
 */
export async function askWatch(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number | null> {
  const mode = env.AIWG_CITE_WATCH;
  if (mode === '0' || args.includes('--no-watch') || args.includes('--staged') || args.includes('--help') || args.includes('-h'))
    return null;
  const trace = (line: string) => {
    if (mode === 'trace') process.stderr.write(`aiwg-cite: ${line}\n`);
  };
  const rootAt = args.findIndex((arg) => arg === '--root' || arg.startsWith('--root='));
  const rootArg =
    rootAt === -1 ? undefined : args[rootAt]?.startsWith('--root=') ? args[rootAt]?.slice('--root='.length) : args[rootAt + 1];
  const gitDir = findGitDir(rootArg === undefined ? cwd : resolve(cwd, rootArg));
  const socketPath = gitDir === null ? null : watchSocketPath(gitDir);
  if (socketPath === null || !existsSync(socketPath)) {
    trace(watchServeMessages.noWatch());
    return null;
  }
  const request = {
    v: 1,
    args,
    cwd,
    env: Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && isAsked(entry[0]))),
    tty: process.stdout.isTTY === true,
    ...(process.stdout.columns === undefined ? {} : { columns: process.stdout.columns }),
  };
  const answer = await exchange(socketPath, `${JSON.stringify(request)}\n`);
  if (answer === null) {
    trace(watchServeMessages.noAnswer());
    return null;
  }
  if (answer.head.served !== true) {
    trace(watchServeMessages.declined(String(answer.head.why)));
    return null;
  }
  trace(watchServeMessages.answered());
  return answer.code;
}

interface Exchange {
  readonly head: { readonly served?: unknown; readonly why?: unknown; readonly code?: unknown };
  readonly code: number;
}

/**
 * The variables the watch is told: those that can change the report (aiwg-cite's and git's, which
 * must equal the watch's own) and the colour switches. Nothing else of the environment leaves.
 */
function isAsked(name: string): boolean {
  return name.startsWith('AIWG_CITE_') || name.startsWith('GIT_') || name === 'NO_COLOR' || name === 'FORCE_COLOR';
}

/** Sends the request; on `served`, streams the output after the first line to stdout. */
function exchange(socketPath: string, request: string): Promise<Exchange | null> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    let head: Exchange['head'] | null = null;
    let pending: Buffer = Buffer.alloc(0);
    let writing: Promise<void> = Promise.resolve();
    let settled = false;
    const finish = (value: Exchange | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
    };
    const timer = setTimeout(() => {
      socket.destroy();
      finish(null);
    }, ANSWER_TIMEOUT_MS);
    socket.on('connect', () => socket.write(request));
    socket.on('error', () => {
      // Before the first line nothing was printed: the caller checks by itself. After it, the
      // output is cut: say so, and fail.
      if (head?.served === true) {
        process.stderr.write(`aiwg-cite: ${watchServeMessages.cutShort()}\n`);
        finish({ head, code: 2 });
      } else finish(null);
    });
    socket.on('data', (chunk: Buffer) => {
      if (head !== null) {
        writing = writing.then(() => write(chunk));
        return;
      }
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      const end = pending.indexOf(10);
      if (end === -1) return;
      try {
        head = JSON.parse(pending.subarray(0, end).toString('utf8')) as Exchange['head'];
      } catch {
        socket.destroy();
        finish(null);
        return;
      }
      const rest = pending.subarray(end + 1);
      if (head.served === true && rest.length > 0) writing = writing.then(() => write(rest));
    });
    socket.on('end', () => {
      if (head === null || head.served !== true || typeof head.code !== 'number') {
        finish(head === null ? null : { head, code: 0 });
        return;
      }
      const code = head.code;
      const done = head;
      void writing.then(() => finish({ head: done, code }));
    });
  });
}

/** Writes to stdout, waiting when it is full. */
function write(chunk: Buffer): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdout.write(chunk)) resolve();
    else process.stdout.once('drain', () => resolve());
  });
}

/** The git directory of the repository holding `start`: the first `.git` up the tree (a directory, or a file naming one). */
export function findGitDir(start: string): string | null {
  for (let directory = start; ; directory = dirname(directory)) {
    const dotGit = join(directory, '.git');
    const stats = statSync(dotGit, { throwIfNoEntry: false });
    if (stats?.isDirectory() === true) return dotGit;
    if (stats?.isFile() === true) {
      const named = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
      return named === undefined ? null : resolve(directory, named);
    }
    if (dirname(directory) === directory) return null;
  }
}
