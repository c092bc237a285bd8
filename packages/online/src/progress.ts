/**
 * Progress of the online lookups: listr2 tasks (resolved / remaining per resolver) when stderr is
 * a terminal, plain lines otherwise. listr2 is imported only here and only on a TTY, so plain runs
 * and `check` without `--online` never load it.
 */
import type { LookupListener, ResolverName } from './resolvers.ts';

/** A writable stream for progress output (stderr). */
export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  /** Terminal width; a terminal that reports none (0) gets plain lines, which cannot be garbled. */
  readonly columns?: number;
}

/** A running progress display. */
export interface Progress {
  readonly listener: LookupListener;
  /** Ends the display; safe to call twice. */
  stop(): Promise<void>;
}

interface Counts {
  seen: number;
  done: number;
  cached: number;
}

const RESOLVERS: readonly ResolverName[] = ['doi', 'arxiv', 'url'];

/** Describes one resolver's counts: `doi: 3 resolved (1 from cache), 2 remaining`. */
export function describeProgress(name: ResolverName, counts: Counts): string {
  const cached = counts.cached > 0 ? ` (${counts.cached} from cache)` : '';
  return `${name}: ${counts.done} resolved${cached}, ${counts.seen - counts.done} remaining`;
}

/**
 * For logs, CI and hooks (stderr not a terminal): nothing while the lookups run, then one line with
 * the totals; when no lookup got an answer from the network, that line says so instead of a line
 * per URL.
 */
export function createPlainProgress(stream: ProgressStream): Progress {
  const counts = new Map<ResolverName, Counts>(RESOLVERS.map((name) => [name, { seen: 0, done: 0, cached: 0 }]));
  let unanswered = 0;
  let stopped = false;
  return {
    listener(resolver, event, detail) {
      const count = counts.get(resolver) as Counts;
      if (event === 'start') count.seen += 1;
      else {
        count.done += 1;
        if (detail.cached) count.cached += 1;
        else if (detail.outcome === 'unknown') unanswered += 1;
      }
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      const used = [...counts].filter(([, count]) => count.seen > 0);
      if (used.length === 0) return;
      const network = used.reduce((sum, [, count]) => sum + count.done - count.cached, 0);
      if (network > 0 && unanswered === network) {
        stream.write(
          `aiwg-cite online: no answer from the network for ${network} ${network === 1 ? 'lookup' : 'lookups'} (offline?); they are reported as unknown\n`,
        );
        return;
      }
      stream.write(`aiwg-cite online: ${used.map(([name, count]) => describeProgress(name, count)).join('; ')}\n`);
    },
  };
}

/**
 * listr2 tasks on a terminal, one per resolver, retitled as lookups finish. The display starts
 * with the first lookup and renders lazily (no spinner timer), so a run that fails before or
 * during the lookups can never be kept alive by it; should the process exit while listr2 still
 * holds stderr, what it buffered is released on exit, so an error line is never swallowed.
 */
export async function createTtyProgress(stream: ProgressStream & NodeJS.WriteStream): Promise<Progress> {
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
          if (count.seen > 0) task.title = describeProgress(name, count);
          await finished;
          task.title = count.seen === 0 ? `${name}: nothing to resolve` : describeProgress(name, count);
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
      titles.get(resolver)?.(describeProgress(resolver, count));
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
