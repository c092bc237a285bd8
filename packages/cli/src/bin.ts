import module from 'node:module';

// `process` is the global: `import process from 'node:process'` builds that module's ES facade,
// which reads every property of `process` once, so all three standard streams would be made here.

// Node 22.1+ keeps the compiled bundle on disk between runs (the commit hook starts a process per
// commit); Node 20 has no such API, and there this does nothing. Called before the bundle loads,
// so it is imported after.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { main } = await import('./main.ts');

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
