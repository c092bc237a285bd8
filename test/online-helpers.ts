import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CliRun, runCliAsync as runCliProcess } from '@aiwg-cite/test-utils';
import { afterAll } from 'vitest';

let userCache: string | null = null;
/**
 * A user cache directory for this test file (the online cache's key lives there), so no test
 * writes to the real `~/.cache`. Removed when the file's tests are over: vitest ends its workers
 * without an `exit` event, so a handler on that event left one directory behind per file.
 */
export function testUserCache(): string {
  userCache ??= mkdtempSync(join(tmpdir(), 'aiwg-cite-user-cache-'));
  return userCache;
}

afterAll(() => {
  if (userCache !== null) rmSync(userCache, { recursive: true, force: true });
  userCache = null;
});

/** The outcome of a CLI run. */
export type AsyncRun = CliRun;

/**
 * Runs the built CLI as a real process without blocking the event loop, so a fake server in this
 * test process can answer it (`runCli` uses spawnSync, which would deadlock against it); with this
 * file's user cache.
 */
export function runCliAsync(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string | undefined> },
): Promise<AsyncRun> {
  return runCliProcess(args, { cwd: options.cwd, env: { XDG_CACHE_HOME: testUserCache(), ...options.env } });
}
