import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BatchScheduler } from './scheduler.ts';

describe('BatchScheduler', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function recorder() {
    const batches: string[][] = [];
    let release: (() => void) | null = null;
    let hold = false;
    const scheduler = new BatchScheduler<string>({
      run: async (batch) => {
        batches.push([...batch.keys()]);
        if (hold) await new Promise<void>((resolve) => (release = resolve));
      },
      settleMs: 15,
      debounceMs: 100,
      maxWaitMs: 1000,
      burstSize: 8,
    });
    return {
      scheduler,
      batches,
      hold: () => {
        hold = true;
      },
      release: () => {
        hold = false;
        release?.();
      },
    };
  }

  it('handles a lone save after the settle time, merging its events', async () => {
    const { scheduler, batches } = recorder();
    scheduler.push('src/a.ts.swp', 'file');
    scheduler.push('src/a.ts', 'file');
    scheduler.push('src/a.ts', 'file');
    await vi.advanceTimersByTimeAsync(14);
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches).toEqual([['src/a.ts.swp', 'src/a.ts']]);
  });

  it('drain runs what is pending at once, and what comes during that run after it, then resolves', async () => {
    const { scheduler, batches, hold, release } = recorder();
    for (let at = 0; at < 10; at += 1) scheduler.push(`docs/${at}.md`, 'file');
    hold();
    let drained = false;
    const draining = scheduler.drain().then(() => {
      drained = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(batches).toHaveLength(1);
    expect(batches[0]).toHaveLength(10);
    scheduler.push('docs/late.md', 'file');
    release();
    await vi.advanceTimersByTimeAsync(0);
    await draining;
    expect(drained).toBe(true);
    expect(batches).toEqual([batches[0], ['docs/late.md']]);
    expect(scheduler.isBusy).toBe(false);
  });

  it('turns a burst into one batch after the trailing debounce', async () => {
    const { scheduler, batches } = recorder();
    for (let index = 0; index < 300; index += 1) {
      scheduler.push(`src/f${index}.ts`, 'file');
      if (index % 50 === 0) await vi.advanceTimersByTimeAsync(10);
    }
    await vi.advanceTimersByTimeAsync(99);
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches).toHaveLength(1);
    expect(batches[0]).toHaveLength(300);
  });

  it('cuts an endless burst at the maximum wait', async () => {
    const { scheduler, batches } = recorder();
    for (let tick = 0; tick < 150; tick += 1) {
      for (let index = 0; index < 8; index += 1) scheduler.push(`f${tick}-${index}`, 'file');
      await vi.advanceTimersByTimeAsync(10);
    }
    // Events every 10 ms never leave 100 ms of quiet: the batch is cut 1000 ms after the first event.
    expect(batches.map((batch) => batch.length)).toEqual([800]);
  });

  it('queues events that arrive during a run into the next batch', async () => {
    const { scheduler, batches, hold, release } = recorder();
    hold();
    scheduler.push('a', 'file');
    await vi.advanceTimersByTimeAsync(15);
    expect(batches).toEqual([['a']]);
    expect(scheduler.isBusy).toBe(true);
    scheduler.push('b', 'file');
    scheduler.push('c', 'file');
    await vi.advanceTimersByTimeAsync(500);
    expect(batches).toEqual([['a']]);
    release();
    await vi.advanceTimersByTimeAsync(100);
    expect(batches).toEqual([['a'], ['b', 'c']]);
    expect(scheduler.isBusy).toBe(false);
  });

  it('keeps going after a failing run and reports the error', async () => {
    const errors: unknown[] = [];
    const seen: string[][] = [];
    const scheduler = new BatchScheduler<string>({
      run: async (batch) => {
        seen.push([...batch.keys()]);
        if (batch.has('bad')) throw new Error('boom');
      },
      onError: (error) => errors.push(error),
    });
    scheduler.push('bad', 'file');
    await vi.advanceTimersByTimeAsync(20);
    scheduler.push('good', 'file');
    await vi.advanceTimersByTimeAsync(20);
    expect(seen).toEqual([['bad'], ['good']]);
    expect(errors.map((error) => (error as Error).message)).toEqual(['boom']);
  });

  it('drops pending events on close', async () => {
    const { scheduler, batches } = recorder();
    scheduler.push('a', 'file');
    await scheduler.close();
    scheduler.push('b', 'file');
    await vi.advanceTimersByTimeAsync(1000);
    expect(batches).toEqual([]);
  });
});
