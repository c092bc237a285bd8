import { AiwgCiteError } from '@aiwg-cite/core';
import { tempDir } from '@aiwg-cite/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { type EarlyGitRead, gitAsync } from '../src/index.ts';

// The registry cli/src/bin.ts fills before the bundle loads (EARLY_GIT_READS in git-runner.ts).
const EARLY = Symbol.for('aiwg-cite.early-git-reads');
const registry = globalThis as { [EARLY]?: EarlyGitRead[] };
const MAX_BUFFER = 1024 * 1024 * 1024;

function early(
  cwd: string,
  args: string[],
  stdout: string,
  env = { ...process.env },
  error: Error | null = null,
  stderr = '',
): EarlyGitRead {
  return {
    cwd,
    args,
    env,
    maxBuffer: MAX_BUFFER,
    outcome: Promise.resolve({ error, stdout: Buffer.from(stdout), stderr: Buffer.from(stderr) }),
  };
}

afterEach(() => {
  delete registry[EARLY];
});

describe('gitAsync and the reads the bin started early', () => {
  it('answers the same command in the same directory under an equal environment once, from the early read', async () => {
    const dir = tempDir();
    registry[EARLY] = [early(dir, ['--version'], 'early')];
    expect((await gitAsync(dir, ['--version'])).toString()).toBe('early');
    // Taken: the same command again runs git.
    expect((await gitAsync(dir, ['--version'])).toString()).toMatch(/^git version /);
    expect(registry[EARLY]).toEqual([]);
  });

  it('runs git itself for another directory, other arguments, another environment or bytes on stdin', async () => {
    const dir = tempDir();
    const other = tempDir();
    registry[EARLY] = [early(dir, ['--version'], 'early')];
    expect((await gitAsync(other, ['--version'])).toString()).toMatch(/^git version /);
    expect((await gitAsync(dir, ['version'])).toString()).toMatch(/^git version /);
    expect((await gitAsync(dir, ['--version'], { env: { ...process.env, AIWG_CITE_OTHER: '1' } })).toString()).toMatch(/^git version /);
    expect((await gitAsync(dir, ['--version'], { input: '' })).toString()).toMatch(/^git version /);
    expect(registry[EARLY]).toHaveLength(1);
  });

  it('fails as its own process would when the early read failed', async () => {
    const dir = tempDir();
    const failed = Object.assign(new Error('Command failed'), { code: 128 });
    registry[EARLY] = [early(dir, ['diff', '--cached'], '', { ...process.env }, failed, 'fatal: not a git repository\n')];
    const error = await gitAsync(dir, ['diff', '--cached']).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AiwgCiteError);
    expect((error as AiwgCiteError).code).toBe('GIT_FAILED');
    expect((error as AiwgCiteError).message).toContain('fatal: not a git repository');
  });
});
