/**
 * Issue 15 item 15: a directory the discovery cannot read (no permission, a `/proc` entry) is
 * skipped with one line that names it, and the run carries on: `check` (in git and outside),
 * `check --staged`, `watch`, `stamp`, and `--root` on a tree full of such directories. It used to
 * end with an `EACCES ... scandir` stack trace (exit 2), or, in git, to drop the directory's
 * documents without a word.
 *
 * Permissions do not bind root: run as root, the CLI runs as the unprivileged user 65534 through
 * `setpriv` (the test fails, saying so, when setpriv is missing); otherwise as the current user.
 */
import { type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_ENTRY, GIT_ENV, gitRepo, tempDir, writeTree } from '@aiwg-cite/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';

const AS_ROOT = process.getuid?.() === 0;
const OTHER = 65534;

/** Hands `dir` (recursively) to the user the CLI runs as, and gives that user a home. */
function handOver(dir: string): { home: string } {
  const home = join(dir, '.home');
  mkdirSync(home, { recursive: true });
  if (AS_ROOT) {
    const chown = (path: string) => {
      chownSync(path, OTHER, OTHER);
      if (statSync(path).isDirectory()) for (const name of readdirSync(path)) chown(join(path, name));
    };
    chown(dir);
  }
  return { home };
}

/** Makes `dir` unreadable to the user the CLI runs as (root keeps it, so the cleanup can remove it). */
function lockDirectory(dir: string): void {
  if (AS_ROOT) {
    chownSync(dir, 0, 0);
    chmodSync(dir, 0o700);
  } else {
    chmodSync(dir, 0o000);
    onTestFinished(() => chmodSync(dir, 0o755));
  }
}

function command(args: readonly string[]): [string, string[]] {
  if (!AS_ROOT) return [process.execPath, [CLI_ENTRY, ...args]];
  const probe = spawnSync('setpriv', ['--version']);
  if (probe.error !== undefined) throw new Error('setpriv is missing: running as root, this test needs it to drop privileges');
  return ['setpriv', [`--reuid=${OTHER}`, `--regid=${OTHER}`, '--clear-groups', process.execPath, CLI_ENTRY, ...args]];
}

function env(home: string): NodeJS.ProcessEnv {
  return { ...process.env, ...GIT_ENV, HOME: home, NO_COLOR: '1', FORCE_COLOR: undefined, XDG_CACHE_HOME: undefined };
}

function run(cwd: string, home: string, args: readonly string[]): SpawnSyncReturns<string> {
  const [file, argv] = command(args);
  return spawnSync(file, argv, { cwd, env: env(home), encoding: 'utf8' });
}

function expectNoTrace(result: { stderr: string }): void {
  expect(result.stderr).not.toMatch(/\n\s+at |EACCES|internal error/);
}

interface Report {
  citations: { file: string; rule: string; text: string }[];
  coverage: { notes: string[] };
}

describe('fs-unreadable-directories', () => {
  it('check outside git: the unreadable directory is one note; the other documents are checked', () => {
    const dir = tempDir();
    writeTree(dir, { 'a.md': 'See [gone.ts, L1].\n', 'private/b.md': 'x\n', 'open/c.md': 'See [also-gone.ts, L1].\n' });
    const { home } = handOver(dir);
    lockDirectory(join(dir, 'private'));
    const result = run(dir, home, ['check', '--format', 'json']);
    expectNoTrace(result);
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.citations.map((finding) => finding.file).sort()).toEqual(['a.md', 'open/c.md']);
    expect(report.coverage.notes).toContain('1 directory could not be read and was skipped: private (permission denied)');

    const pretty = run(dir, home, ['check', '--verbose']);
    expectNoTrace(pretty);
    expect(pretty.stdout).toContain('1 directory could not be read and was skipped: private (permission denied)');
  });

  it('check in git: a tracked document under it is reported unreadable, not dropped; untracked ones are a note', () => {
    const repo = gitRepo({ 'a.ts': 'export const a = 1;\n', 'a.md': 'See [a.ts, L1].\n', 'private/tracked.md': 'See [a.ts, L1].\n' });
    writeFileSync(join(repo.dir, 'private/untracked.md'), 'New.\n');
    const { home } = handOver(repo.dir);
    lockDirectory(join(repo.dir, 'private'));
    const result = run(repo.dir, home, ['check', '--format', 'json']);
    expectNoTrace(result);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.citations.filter((finding) => finding.file === 'private/tracked.md').map((finding) => finding.rule)).toEqual([
      'document/unreadable',
    ]);
    expect(report.citations.some((finding) => finding.file === 'a.md')).toBe(true);
    expect(report.coverage.notes).toContain('1 directory could not be read and was skipped: private (permission denied)');
  });

  it('check --staged and stamp carry on past an unreadable directory', () => {
    const repo = gitRepo({
      'a.ts': 'export const a = 1;\n',
      'a.md': 'See [a.ts, L1].\n',
      'private/x.ts': 'export const x = 1;\n',
      'private/doc.md': 'In [a.ts, L1].\n',
    });
    repo.write({ 'a.md': 'See [a.ts, L1] and [private/x.ts, L1].\n' });
    repo.git('add', 'a.md');
    const { home } = handOver(repo.dir);
    lockDirectory(join(repo.dir, 'private'));
    const staged = run(repo.dir, home, ['check', '--staged', '--format', 'json']);
    expectNoTrace(staged);
    expect(staged.status).toBe(0);
    expect((JSON.parse(staged.stdout) as Report).citations.map((finding) => finding.text)).toEqual(['[a.ts, L1]', '[private/x.ts, L1]']);
    const stamped = run(repo.dir, home, ['stamp', '--dry-run']);
    expectNoTrace(stamped);
    expect(stamped.status).toBe(0);
    expect(stamped.stdout).toMatch(/^a\.md:1:5 {2}\[a\.ts, L1\] → \[a\.ts@[0-9a-f]{16}, L1\]/m);
    expect(stamped.stdout).toContain('private/doc.md: skipped, it cannot be read (EACCES)');
  });

  it('watch says it once and keeps watching', async () => {
    const dir = tempDir();
    writeTree(dir, { 'a.md': 'Plain.\n', 'private/b.md': 'x\n' });
    const { home } = handOver(dir);
    lockDirectory(join(dir, 'private'));
    const [file, argv] = command(['watch', '--no-tui']);
    const child = spawn(file, argv, { cwd: dir, env: env(home), stdio: ['ignore', 'pipe', 'pipe'] });
    onTestFinished(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const deadline = Date.now() + 15_000;
    while (!stderr.includes('watching ') && child.exitCode === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(child.exitCode).toBeNull();
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expectNoTrace({ stderr });
    const notes = stderr.split('\n').filter((line) => line.includes('could not be read'));
    expect(notes).toEqual(['aiwg-cite watch: 1 directory could not be read and was skipped: private (permission denied)']);
  });

  it.runIf(process.platform === 'linux')('--root on a tree full of unreadable directories (/proc) is one line, exit 0', () => {
    const dir = tempDir();
    const { home } = handOver(dir);
    const result = run(dir, home, ['check', '--rlm', '--root', '/proc', '--verbose']);
    expectNoTrace(result);
    expect(result.status).toBe(0);
    const lines = result.stdout.split('\n').filter((line) => /could not be read/.test(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/\d+ director(y|ies) could not be read and (was|were) skipped: /);
  });
});
