/**
 * Issue 15, item 1: with `core.autocrlf=true` (Git for Windows' default) the working tree holds
 * CRLF and git stores LF. A citation must pin the content git stores, in every mode: `stamp`
 * pins it, `check` and `watch` (which read the working tree) and `check --staged` (which reads
 * the index) all call that pin fresh, and none blocks the commit.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_ENTRY, GIT_ENV, gitRepo, runCli, sha16 } from '@aiwg-cite/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';

const STORED = 'export const one = 1;\nexport const two = 2;\n';
const ON_DISK = STORED.replaceAll('\n', '\r\n');

function statuses(stdout: string): string[] {
  return (JSON.parse(stdout) as { citations: { status: string }[] }).citations.map((finding) => finding.status);
}

async function watchRlmCounts(cwd: string): Promise<Record<string, number>> {
  const child: ChildProcess = spawn(process.execPath, [CLI_ENTRY, 'watch', '--format', 'ndjson'], {
    cwd,
    env: { ...process.env, ...GIT_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let buffer = '';
  const kinds = await new Promise<Record<string, Record<string, number>>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no summary from watch; got: ${buffer}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const summary = buffer
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { type: string; summary?: { kinds: Record<string, Record<string, number>> } })
        .find((object) => object.type === 'summary');
      if (summary?.summary !== undefined) {
        clearTimeout(timer);
        resolve(summary.summary.kinds);
      }
    });
  });
  child.kill('SIGTERM');
  return kinds.rlm ?? {};
}

describe('fault 15.1: core.autocrlf=true', () => {
  it('stamp pins the hash git stores, and check, check --staged and watch all call it fresh', async () => {
    const repo = gitRepo();
    repo.git('config', 'core.autocrlf', 'true');
    repo.write({ 'src/numbers.ts': ON_DISK, 'docs/numbers.md': 'One is one [src/numbers.ts, L1].\n' });
    repo.commit('add numbers');
    // git stored LF; the working tree keeps CRLF, as a Windows checkout has it.
    expect(repo.git('cat-file', 'blob', 'HEAD:src/numbers.ts')).toBe(STORED.trimEnd());
    expect(readFileSync(join(repo.dir, 'src/numbers.ts'), 'utf8')).toBe(ON_DISK);

    const stamp = runCli(['stamp'], { cwd: repo.dir });
    expect(stamp.code).toBe(0);
    expect(readFileSync(join(repo.dir, 'docs/numbers.md'), 'utf8')).toBe(`One is one [src/numbers.ts@${sha16(STORED)}, L1].\n`);

    const check = runCli(['check', '--format', 'json'], { cwd: repo.dir });
    expect(statuses(check.stdout)).toEqual(['fresh']);
    expect(check.code).toBe(0);

    repo.git('add', 'docs/numbers.md');
    const staged = runCli(['check', '--staged', '--format', 'json'], { cwd: repo.dir });
    expect(statuses(staged.stdout)).toEqual(['fresh']);
    expect(staged.code).toBe(0);

    expect(await watchRlmCounts(repo.dir)).toEqual({ fresh: 1 });
  });

  it('a pin of the CRLF bytes on disk is not what git stores: stale in check as in check --staged, never fresh in one and blocked in the other', () => {
    const repo = gitRepo();
    repo.git('config', 'core.autocrlf', 'true');
    repo.write({ 'src/numbers.ts': ON_DISK });
    repo.commit('add numbers');
    repo.write({ 'docs/numbers.md': `One [src/numbers.ts@${sha16(ON_DISK)}, L1].\n` });
    repo.git('add', 'docs/numbers.md');
    const check = statuses(runCli(['check', '--format', 'json'], { cwd: repo.dir }).stdout);
    const staged = statuses(runCli(['check', '--staged', '--format', 'json'], { cwd: repo.dir }).stdout);
    expect(check).toEqual(staged);
    expect(check).not.toEqual(['fresh']);
  });
});
