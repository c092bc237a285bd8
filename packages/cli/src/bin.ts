import module from 'node:module';
import process from 'node:process';

// Node 22.1+ keeps the compiled bundle on disk between runs (the commit hook starts a process per
// commit); Node 20 has no such API, and there this does nothing. Called before the bundle loads,
// so it is imported after.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { main } = await import('./main.ts');

// A reader that closes early (`| head`, a jq error) is not a failure of ours: end quietly, with the
// exit code the run already has (0 for help, 1 for a failing report), and never a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
}

// The one place that builds the run context from the real process, and the only place that
// ends it: 0 pass, 1 findings, 2 failure.
const code = await main(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  clock: () => new Date(),
  signals: (signal, handler) => {
    process.on(signal, handler);
    return () => {
      process.off(signal, handler);
    };
  },
});
process.exitCode = code;
