/**
 * Progress of the online lookups: plain lines for logs and CI. A terminal display (the CLI's
 * listr2 tasks) plugs in through the session's `createProgress` port; this package has no
 * terminal dependency.
 */

import { onlineMessages } from './messages.ts';
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

/** Lookups seen, done, and answered from the cache, per resolver. */
export interface Counts {
  seen: number;
  done: number;
  cached: number;
}

/** Every resolver, in display order. */
export const RESOLVERS: readonly ResolverName[] = ['doi', 'arxiv', 'url'];

/** Describes one resolver's counts: `doi: 3 resolved (1 from cache), 2 remaining`. */
export function describeProgress(name: ResolverName, counts: Counts): string {
  return onlineMessages.progress(name, counts.done, counts.cached, counts.seen - counts.done);
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
        stream.write(`${onlineMessages.noNetworkAnswer(network)}\n`);
        return;
      }
      stream.write(`${onlineMessages.progressTotals(used.map(([name, count]) => describeProgress(name, count)))}\n`);
    },
  };
}
