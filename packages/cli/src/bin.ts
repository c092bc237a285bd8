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

declare const __AIWG_CITE_BUILD_ID__: string | undefined;

/** The digest of the sources this bundle was built from (build.mjs): a code cache names the build it is of. */
const BUILD_ID = typeof __AIWG_CITE_BUILD_ID__ === 'string' ? __AIWG_CITE_BUILD_ID__ : 'source';

// `process` is the global: `import process from 'node:process'` builds that module's ES facade,
// which reads every property of `process` once, so all three standard streams would be made here.

// Node 22.1+ keeps the compiled bundle on disk between runs (the commit hook starts a process per
// commit); Node 20 has no such API, and there this does nothing. Called before the bundle loads,
// so it is imported after.
const hasCompileCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
// A helper thread of `check` (commands/check-helper.ts, HELPER_FLAG) runs this file with the
// flag before the run's arguments; it builds the same run and answers its main thread.
const helper = process.argv[2] === '--aiwg-cite-helper' ? await import('node:worker_threads') : null;
const args = process.argv.slice(helper === null ? 2 : 3);
// A `check` that a running `aiwg-cite watch` answers (watch-client.ts) never loads the bundle; the
// commit hook's `check --staged` never asks, and does not load the client either.
const served =
  helper === null && commandOf(args) === 'check' && !args.includes('--staged')
    ? await (await import('./watch-client.ts')).askWatch(args, process.cwd(), process.env)
    : null;
if (helper === null && served === null) await startEarlyGitReads(args);
const hook = served !== null || hasCompileCache ? null : await loadHookBundle(args);
const main = served !== null ? null : (hook ?? (await import('./main.ts'))).main;

/** The CLI's entry, from dist/hook.cjs, and the step that keeps its code cache. */
interface HookBundle {
  readonly main: typeof import('./main.ts')['main'];
  /** Writes the V8 code cache of this run beside the bundle, when there was none to use. */
  saveCodeCache(): void;
}

/**
 * On Node before 22.1 (no compile cache), `check` (the commit hook's `check --staged` and every
 * other) runs `main` from dist/hook.cjs, one CommonJS file (build.mjs), compiled through
 * `vm.Script` with a V8 code cache kept beside it in `hook.cjs.<node version>-<arch>.cache`: the
 * split ES modules would be compiled from source on every run (~50 ms of the hook, 60-100 ms of a
 * warm check of 2,000 documents), the cache makes compiling them a read. A run without a usable
 * cache compiles the file from source and writes one after it ran, so the functions that run
 * called are in it (another run compiles what it adds, as without a cache); V8 refuses a cache of
 * another V8 or other flags, and the header (the build's id, the bundle's size and modification
 * time) one of another build or file. Nothing to gain (`null`, the ES modules): another command,
 * no hook.cjs, or no cache and a directory this user cannot write.
 */
async function loadHookBundle(args: readonly string[]): Promise<HookBundle | null> {
  if (commandOf(args) !== 'check') return null;
  const fs = await import('node:fs');
  const { isAscii } = await import('node:buffer');
  const { createRequire } = await import('node:module');
  const { dirname } = await import('node:path');
  const { fileURLToPath, pathToFileURL } = await import('node:url');
  const vm = await import('node:vm');
  const file = fileURLToPath(new URL('./hook.cjs', import.meta.url));
  const stats = fs.statSync(file, { throwIfNoEntry: false });
  if (stats === undefined) return null;
  const cacheFile = `${file}.${process.version}-${process.arch}.cache`;
  const header = Buffer.from(`${BUILD_ID}:${stats.size}:${stats.mtimeMs}\n`);
  let cachedData: Buffer | undefined;
  try {
    const stored = fs.readFileSync(cacheFile);
    if (stored.subarray(0, header.length).equals(header)) cachedData = stored.subarray(header.length);
  } catch {
    // No cache yet.
  }
  if (cachedData === undefined) {
    try {
      fs.accessSync(dirname(file), fs.constants.W_OK);
    } catch {
      return null;
    }
  }
  // build.mjs writes it in ASCII: read as one byte a character, without decoding UTF-8 (~20 ms a megabyte).
  const bytes = fs.readFileSync(file);
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname, __aiwgImport) {${source}\n})`, {
    filename: file,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  const exports = {};
  const hookModule = { exports: exports as { main?: HookBundle['main'] } };
  // The file's `import()` of ES chunks, rewritten by build.mjs (a code cache loses vm's callback for it).
  const importChunk = (specifier: string) => import(new URL(specifier, pathToFileURL(file)).href);
  script.runInThisContext().call(exports, exports, createRequire(file), hookModule, file, dirname(file), importChunk);
  const main = hookModule.exports.main;
  if (typeof main !== 'function') return null;
  return {
    main,
    saveCodeCache() {
      if (cachedData !== undefined && !script.cachedDataRejected) return;
      // A cache that cannot be written costs the next run time, nothing else.
      const temporary = `${cacheFile}.${process.pid}`;
      try {
        fs.writeFileSync(temporary, Buffer.concat([header, script.createCachedData()]));
        fs.renameSync(temporary, cacheFile);
      } catch {
        fs.rmSync(temporary, { force: true });
      }
    },
  };
}

/** The command `main` would run: the first argument that is not a global option (main.ts, applyGlobalFlags). */
function commandOf(args: readonly string[]): string | undefined {
  for (let at = 0; at < args.length; at += 1) {
    const arg = args[at] as string;
    if (arg === '--') return undefined;
    if (arg === '--config') at += 1;
    else if (arg !== '--no-color' && !arg.startsWith('--config=')) return arg;
  }
  return undefined;
}

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
const code =
  main === null
    ? (served ?? 2)
    : await main(args, {
        cwd: process.cwd(),
        // Unbundled (source) runs start no helper thread: a worker cannot run this file's TypeScript.
        ...(helper === null
          ? BUILD_ID === 'source'
            ? {}
            : { helperEntry: new URL(import.meta.url) }
          : { helping: { data: helper.workerData, port: helper.parentPort as import('node:worker_threads').MessagePort } }),
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
if (helper === null) hook?.saveCodeCache();
process.exitCode = code;
