import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_ENTRY, GIT_ENV } from '@aiwg-cite/test-utils';
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
export interface AsyncRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the built CLI as a real process without blocking the event loop, so a fake server in this
 * test process can answer it (`runCli` uses spawnSync, which would deadlock against it).
 */
export function runCliAsync(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string | undefined> },
): Promise<AsyncRun> {
  const merged: Record<string, string | undefined> = {
    ...process.env,
    ...GIT_ENV,
    NO_COLOR: '1',
    FORCE_COLOR: undefined,
    XDG_CACHE_HOME: testUserCache(),
    ...options.env,
  };
  const env = Object.fromEntries(Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_ENTRY, ...args], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
