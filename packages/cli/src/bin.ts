import module from 'node:module';
import type { EarlyGitRead } from '@aiwg-cite/node';

/** `EARLY_GIT_READS` of node/src/git-runner.ts (a registered symbol, so the bin need not load that module). */
const EARLY_GIT_READS = Symbol.for('aiwg-cite.early-git-reads');

/** The git runner's buffer limit (node/src/git-runner.ts): a read is taken only under the same one. */
const EARLY_MAX_BUFFER = 1024 * 1024 * 1024;

/**
 * The commands started early: `readStagedChanges` (git/src/index-entries.ts) and the bibliography
 * listing (node/src/corpus.ts), argument for argument. A test counts the git processes of the hook.
 */
const EARLY_COMMANDS: readonly (readonly string[])[] = [
  ['diff', '--cached', '--raw', '-z', '--no-abbrev', '--no-renames', '--ignore-submodules=all', '--no-ext-diff'],
  ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', '*.bib', '*.csl.json'],
];

// `process` is the global: `import process from 'node:process'` builds that module's ES facade,
// which reads every property of `process` once, so all three standard streams would be made here.

// Node 22.1+ keeps the compiled bundle on disk between runs (the commit hook starts a process per
// commit); Node 20 has no such API, and there this does nothing. Called before the bundle loads,
// so it is imported after.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await startEarlyGitReads(process.argv.slice(2));
const { main } = await import('./main.ts');

/**
 * The commit hook (`check --staged`, run at the top level) always asks git two things that depend
 * on nothing the bundle computes: what the index changes against HEAD, and which bibliographies
 * the tree has. Started here, both run while Node compiles the bundle (tens of milliseconds), and
 * the bundle's git runner takes their output when it asks the same command in the same directory
 * under the same environment (`takeEarlyRead` in node/src/git-runner.ts); otherwise it runs its
 * own and these are ignored. Only for a plain `check --staged` with `--` options: positional paths
 * (lint-staged's form) skip the diff, `--root` moves the directory, and `--rlm` reads no corpus.
 */
async function startEarlyGitReads(args: readonly string[]): Promise<void> {
  if (args[0] !== 'check' || !args.includes('--staged')) return;
  if (!args.slice(1).every((arg) => arg.startsWith('--') && !/^--(root|rlm|help)(=|$)/.test(arg))) return;
  const { execFile } = await import('node:child_process');
  const reads: EarlyGitRead[] = [];
  (globalThis as { [EARLY_GIT_READS]?: EarlyGitRead[] })[EARLY_GIT_READS] = reads;
  const cwd = process.cwd();
  for (const command of EARLY_COMMANDS) {
    const env = { ...process.env };
    const outcome = new Promise<{ error: Error | null; stdout: Buffer; stderr: Buffer }>((resolve) => {
      execFile('git', [...command], { cwd, env, encoding: 'buffer', maxBuffer: EARLY_MAX_BUFFER }, (error, stdout, stderr) =>
        resolve({ error, stdout, stderr }),
      );
    });
    reads.push({ cwd, args: command, env, maxBuffer: EARLY_MAX_BUFFER, outcome });
  }
}

// A reader that closes early (`| head`, a jq error) is not a failure of ours: end quietly, with the
// exit code the run already has (0 for help, 1 for a failing report), and never a stack trace.
function quietOnEpipe(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
  return stream;
}

// Node builds each standard stream on its first access, and a pipe or terminal stream costs
// milliseconds that a commit hook with nothing to report never needs. So the handler above is
// attached when the stream is first made, by whoever asks for it (a command or a library),
// instead of making both streams here.
for (const name of ['stdout', 'stderr'] as const) {
  const descriptor = Object.getOwnPropertyDescriptor(process, name);
  const make = descriptor?.get;
  if (descriptor?.configurable !== true || make === undefined) {
    quietOnEpipe(process[name]);
    continue;
  }
  let stream: NodeJS.WriteStream | undefined;
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: descriptor.enumerable ?? false,
    get() {
      stream ??= quietOnEpipe(make.call(process) as NodeJS.WriteStream);
      return stream;
    },
  });
}

// The one place that builds the run context from the real process, and the only place that
// ends it: 0 pass, 1 findings, 2 failure. The streams are read when a command first uses them.
const code = await main(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  get stdout() {
    return process.stdout;
  },
  get stderr() {
    return process.stderr;
  },
  get stdin() {
    return process.stdin;
  },
  clock: () => new Date(),
  signals: (signal, handler) => {
    process.on(signal, handler);
    return () => {
      process.off(signal, handler);
    };
  },
});
process.exitCode = code;
