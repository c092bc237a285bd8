/** Shared helpers of the watch tests: the parity check against `aiwg-cite check --format json`. */
import type { Report } from '@aiwg-cite/core';
import { runCli } from '@aiwg-cite/test-utils';
import type { WatchEngine } from '@aiwg-cite/tui';
import { expect } from 'vitest';

interface Comparable {
  verdict: string;
  summary: unknown;
  citations: Record<string, unknown>[];
}

function comparable(report: Pick<Report, 'verdict' | 'summary' | 'citations'>): Comparable {
  const plain = JSON.parse(JSON.stringify(report)) as Comparable;
  return { verdict: plain.verdict, summary: plain.summary, citations: plain.citations };
}

/** What a fresh `check --format json` says about a tree. */
export function freshCheck(dir: string): Comparable {
  const run = runCli(['check', '--format', 'json'], { cwd: dir });
  expect(run.stderr).toBe('');
  return comparable(JSON.parse(run.stdout) as Report);
}

/**
 * The engine's report and a fresh check, compared: same verdict, same summary, same citations in
 * the same order with the same values for every field the engine reports. Fields only the JSON
 * formatter adds (such as `verdicts`) are left out.
 */
export function parityOf(engine: WatchEngine, fresh: Comparable): { mine: Comparable; expected: Comparable } {
  const mine = comparable(engine.report());
  const projected = fresh.citations.map((finding, index) => {
    const keys = Object.keys(mine.citations[index] ?? finding);
    return Object.fromEntries(keys.map((key) => [key, finding[key]]));
  });
  return { mine, expected: { ...fresh, citations: projected } };
}

/** Asserts that the engine's state equals a fresh check on the same tree. */
export function expectParity(engine: WatchEngine, dir: string): void {
  const { mine, expected } = parityOf(engine, freshCheck(dir));
  expect(mine).toEqual(expected);
}

/** Polls until the engine reaches the state of a fresh check (the watcher is asynchronous), then asserts it. */
export async function expectEventualParity(engine: WatchEngine, dir: string, deadlineMs = 10_000): Promise<void> {
  const fresh = freshCheck(dir);
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const { mine, expected } = parityOf(engine, fresh);
    if (JSON.stringify(mine) === JSON.stringify(expected) || Date.now() > deadline) {
      expect(mine).toEqual(expected);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
