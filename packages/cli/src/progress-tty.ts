import type { Progress, ProgressStream, ResolverName } from '@aiwg-cite/online';
import { cliMessages } from './messages.ts';

/** Lookups seen, done, and answered from the cache. */
interface Counts {
  seen: number;
  done: number;
  cached: number;
}

const RESOLVERS: readonly ResolverName[] = ['doi', 'arxiv', 'url'];

/**
 * Progress of the online lookups on a terminal: listr2 tasks, one per resolver, retitled as
 * lookups finish. listr2 lives in the CLI package only and is imported only here, only on a TTY,
 * so plain runs and `check` without `--online` never load it. The display starts with the first
 * lookup and renders lazily (no spinner timer), so a run that fails before or during the lookups
 * can never be kept alive by it; should the process exit while listr2 still holds stderr, what it
 * buffered is released on exit, so an error line is never swallowed.
 */
export async function createTtyProgress(
  stream: ProgressStream & NodeJS.WriteStream,
  describe: (name: ResolverName, counts: Counts) => string,
): Promise<Progress> {
  const { Listr, ListrLogger, ProcessOutput } = await import('listr2');
  const counts = new Map<ResolverName, Counts>(RESOLVERS.map((name) => [name, { seen: 0, done: 0, cached: 0 }]));
  const titles = new Map<ResolverName, (title: string) => void>();
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let running: Promise<unknown> | null = null;
  let output: InstanceType<typeof ProcessOutput> | null = null;
  const release = () => output?.release();
  const begin = () => {
    if (running !== null) return;
    output = new ProcessOutput(stream, stream);
    const logger = new ListrLogger({ processOutput: output });
    const list = new Listr(
      RESOLVERS.map((name) => ({
        title: `${name}: waiting`,
        task: async (_context: unknown, task: { title: string }) => {
          titles.set(name, (title) => {
            task.title = title;
          });
          const count = counts.get(name) as Counts;
          if (count.seen > 0) task.title = describe(name, count);
          await finished;
          task.title = count.seen === 0 ? cliMessages.nothingToResolve(name) : describe(name, count);
        },
      })),
      {
        concurrent: true,
        exitOnError: false,
        registerSignalListeners: false,
        rendererOptions: { logger, lazy: true },
        // Without a terminal on stdout listr2 falls back to its line renderer: it too writes to our stream.
        fallbackRendererOptions: { logger },
      },
    );
    process.once('exit', release);
    running = list.run().catch(() => undefined);
  };
  let stopped = false;
  return {
    listener(resolver, event, detail) {
      begin();
      const count = counts.get(resolver) as Counts;
      if (event === 'start') count.seen += 1;
      else {
        count.done += 1;
        if (detail.cached) count.cached += 1;
      }
      titles.get(resolver)?.(describe(resolver, count));
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      finish();
      if (running !== null) await running;
      process.off('exit', release);
    },
  };
}
