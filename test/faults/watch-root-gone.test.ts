/**
 * Issue 15 item 22: `watch` survives its root being deleted, renamed or replaced by another
 * directory: one line naming the root, exit 2. It used to end with Node's exit code 13 (the
 * watches were gone and nothing was left to wait for) after a "could not list the documents
 * again" line. Runs the built CLI as a real process, in git and outside git.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_ENTRY, GIT_ENV, gitRepo, tempDir, writeTree } from '@aiwg-cite/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';

interface Outcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Starts `watch --no-tui` in `root`, runs `harm` once it is watching, and waits for the exit. */
async function watchThen(root: string, harm: () => void): Promise<Outcome> {
  const child = spawn(process.execPath, [CLI_ENTRY, 'watch', '--no-tui'], {
    cwd: root,
    env: { ...process.env, ...GIT_ENV, NO_COLOR: '1', FORCE_COLOR: undefined },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let stdout = '';
  let stderr = '';
  let harmed = false;
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    if (!harmed && stderr.includes('watching ')) {
      harmed = true;
      // Give chokidar a moment to have its watches in place, as a user's editor would.
      setTimeout(harm, 300);
    }
  });
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 20_000));
  const code = await Promise.race([exited, timeout]);
  if (code === 'timeout') {
    child.kill('SIGKILL');
    throw new Error(`watch did not stop within 20 s after its root went; stderr:\n${stderr}`);
  }
  return { code, stdout, stderr };
}

function expectOneLine(outcome: Outcome, root: string): void {
  expect(outcome.code).toBe(2);
  const lines = outcome.stderr.trim().split('\n');
  expect(lines.at(-1)).toBe(`aiwg-cite watch: ${root}: the root was deleted, renamed or replaced; stopped watching`);
  expect(outcome.stderr).not.toMatch(/\n\s+at /);
}

describe('watch-root-gone', () => {
  it('a git root deleted: one line, exit 2', async () => {
    const repo = gitRepo({ 'a.ts': 'export const a = 1;\n', 'docs/g.md': 'See [a.ts, L1].\n' });
    const outcome = await watchThen(repo.dir, () => rmSync(repo.dir, { recursive: true, force: true }));
    expectOneLine(outcome, repo.dir);
  });

  it('a root renamed: one line, exit 2', async () => {
    const parent = tempDir();
    const root = join(parent, 'project');
    writeTree(root, { 'a.ts': 'export const a = 1;\n', 'g.md': 'See [a.ts, L1].\n' });
    const outcome = await watchThen(root, () => renameSync(root, join(parent, 'renamed')));
    expectOneLine(outcome, root);
  });

  it('a root replaced by a new directory of the same name: one line, exit 2', async () => {
    const parent = tempDir();
    const root = join(parent, 'project');
    writeTree(root, { 'g.md': 'Plain text.\n' });
    const outcome = await watchThen(root, () => {
      renameSync(root, join(parent, 'old'));
      mkdirSync(root);
      writeFileSync(join(root, 'g.md'), 'Plain text.\n');
    });
    expectOneLine(outcome, root);
  });
});
