/**
 * Issue 15 item 18, the other surfaces: control characters (C0, ESC, C1) from file names, commit
 * subjects and document lines are escaped in `watch` (plain lines and the dashboard's layout),
 * `blame` and `stamp` as in `check`'s pretty output, through the core's one `escapeControls`.
 * They used to reach the terminal raw: a file name could retitle it, a document line clear it.
 */
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_ENTRY, GIT_ENV, gitRepo, runCli, sha16 } from '@aiwg-cite/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';

// biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for them
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const NAME = 'docs/evil\u001b]0;owned\u0007\u009b31m.md';
const SHOWN = 'docs/evil\\e]0;owned\\u0007\\u009b31m.md';
const A1 = 'export const a = 1;\n';

function expectClean(text: string): void {
  // Line breaks and tabs are layout; anything else below U+0020 (and C1) must not get through.
  expect(RAW_CONTROL.test(text.replace(/[\n\t]/g, ''))).toBe(false);
}

describe('output-escapes in watch, blame and stamp', () => {
  it('stamp --dry-run escapes the file name and the document lines of its diff', () => {
    const repo = gitRepo({ 'a.ts': A1, [NAME]: 'Clear \u001b[2J here.\nSee [a.ts, L1].\n' });
    const result = runCli(['stamp', '--dry-run'], { cwd: repo.dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${SHOWN}:2:5  [a.ts, L1] → [a.ts@${sha16(A1)}, L1]`);
    expect(result.stdout).toContain(' Clear \\e[2J here.');
    expectClean(result.stdout);
  });

  it('blame escapes the file name and the commit subject', () => {
    const repo = gitRepo({ 'a.ts': A1, [NAME]: `See [a.ts@${sha16(A1)}, L1].\n` });
    repo.write({ 'a.ts': 'export const a = 2;\n' });
    repo.git('commit', '-qam', 'turn \u001b[31mred\u009b0m and \u0085 next');
    const result = runCli(['blame'], { cwd: repo.dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(SHOWN);
    expect(result.stdout).toContain('turn \\e[31mred\\u009b0m and \\u0085 next');
    expectClean(result.stdout);
  });

  it('watch --no-tui escapes the file name in its change lines', async () => {
    const repo = gitRepo({ 'a.ts': A1, [NAME]: `See [a.ts@${sha16(A1)}, L1].\n` });
    const child = spawn(process.execPath, [CLI_ENTRY, 'watch', '--no-tui'], {
      cwd: repo.dir,
      env: { ...process.env, ...GIT_ENV, NO_COLOR: '1', FORCE_COLOR: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    onTestFinished(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const until = async (done: () => boolean) => {
      const deadline = Date.now() + 15_000;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`watch never got there; stdout:\n${stdout}\nstderr:\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    await until(() => stderr.includes('watching '));
    await new Promise((resolve) => setTimeout(resolve, 300));
    appendFileSync(join(repo.dir, 'a.ts'), '// edited\n');
    await until(() => stdout.includes(' -> STALE '));
    expect(stdout).toContain(`${SHOWN}:1:5 FRESH -> STALE [a.ts@${sha16(A1)}, L1]`);
    child.kill('SIGINT');
    await new Promise((resolve) => child.on('exit', resolve));
    expectClean(stdout);
    expectClean(stderr);
  });
});
