/**
 * The end-to-end smoke test of the dashboard in a real terminal: `aiwg-cite watch` runs in a
 * detached tmux session (120×30) on a temporary git repository; editing a cited file makes the
 * Stale count rise on screen, Enter shows the details and the staling commit, restoring the file
 * makes the count fall, and `q` or Ctrl-C quits with exit code 0. tmux is required: without it
 * the test fails and says so. Needs the built CLI.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_ENTRY, GIT_ENV, gitRepo, sha16 } from '@aiwg-cite/test-utils';
import stringWidth from 'string-width';
import { describe, expect, it, onTestFinished } from 'vitest';

const A1 = 'export function a() {\n  return 1;\n}\n';

function requireTmux(): void {
  const probe = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0) {
    throw new Error('tmux is not installed: this end-to-end test needs it (CI installs it; locally `apt-get install tmux`)');
  }
}

/** A private tmux server (its own socket, no user config) running one session. */
function startSession(dir: string, command: string, size: { columns: number; rows: number } = { columns: 120, rows: 30 }) {
  const socket = `aiwg-cite-test-${process.pid}-${Math.random().toString(16).slice(2, 8)}`;
  const env = { ...process.env, ...GIT_ENV, NO_COLOR: '1', FORCE_COLOR: undefined, CI: undefined, TERM: 'xterm-256color' };
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { env, encoding: 'utf8' });
  tmux('new-session', '-d', '-s', 'watch', '-x', String(size.columns), '-y', String(size.rows), '-c', dir, command);
  onTestFinished(() => {
    spawnSync('tmux', ['-L', socket, 'kill-server'], { env });
  });
  const screen = () => tmux('capture-pane', '-p', '-t', 'watch');
  return {
    screen,
    /** The screen and everything scrolled off it. */
    history: () => tmux('capture-pane', '-p', '-t', 'watch', '-S', '-'),
    resize: (columns: number, rows: number) => tmux('resize-window', '-t', 'watch', '-x', String(columns), '-y', String(rows)),
    keys: (...keys: string[]) => tmux('send-keys', '-t', 'watch', ...keys),
    /** Polls the screen until it matches, or fails with the last screen after the deadline. */
    async until(pattern: RegExp, deadlineMs = 20_000): Promise<string> {
      const deadline = Date.now() + deadlineMs;
      for (;;) {
        const text = screen();
        if (pattern.test(text)) return text;
        if (Date.now() > deadline) throw new Error(`screen never matched ${pattern}:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

function project() {
  return gitRepo({
    'src/a.ts': A1,
    'docs/guide.md': `# Guide\n\nThe function [src/a.ts@${sha16(A1)}, L1-3] returns one.\n`,
  });
}

const WATCH = `node ${JSON.stringify(CLI_ENTRY)} watch; echo "EXIT=$?"; sleep 600`;

describe('aiwg-cite watch in a real terminal (tmux)', () => {
  it('shows the Stale count rise when a cited file is edited and fall when it is restored; q quits', async () => {
    requireTmux();
    const repo = project();
    const session = startSession(repo.dir, WATCH);
    const first = await session.until(/Fresh 1 {2}Stale 0 {2}Un-versioned 0 {2}Missing 0/);
    expect(first).toContain('Nothing needs attention.');

    appendFileSync(join(repo.dir, 'src/a.ts'), '// edited in another window\n');
    const staled = await session.until(/Fresh 0 {2}Stale 1 {2}Un-versioned 0 {2}Missing 0/);
    expect(staled).toContain('docs/guide.md');
    expect(staled).toMatch(/› 3:14 +STALE +\[src\/a\.ts@[0-9a-f]{16}, L1-3\]/);
    // Never taller than the terminal: the frame fits in 29 of the 30 rows.
    expect(staled.trimEnd().split('\n').length).toBeLessThanOrEqual(29);

    // Enter shows the details, with the staling commit from `blame` once the edit is committed.
    const sha = repo.commit('make a() chatty');
    session.keys('Enter');
    const details = await session.until(/staling commit: [0-9a-f]{12}/);
    expect(details).toContain('changed since it was cited');
    expect(details).toContain(`staling commit: ${sha.slice(0, 12)} 2026-01-01 Test Author`);
    expect(details).toContain('make a() chatty');

    writeFileSync(join(repo.dir, 'src/a.ts'), A1);
    await session.until(/Fresh 1 {2}Stale 0 {2}Un-versioned 0 {2}Missing 0/);

    session.keys('q');
    await session.until(/EXIT=0/);
  });

  it('quits on Ctrl-C with exit code 0', async () => {
    requireTmux();
    const repo = project();
    const session = startSession(repo.dir, WATCH);
    await session.until(/Fresh 1 {2}Stale 0/);
    session.keys('C-c');
    await session.until(/EXIT=0/);
  });

  // Issue 16 item 6: watch manners.
  it('h and ? show the help; any key goes back', async () => {
    requireTmux();
    const repo = project();
    const session = startSession(repo.dir, WATCH);
    await session.until(/Fresh 1 {2}Stale 0/);
    for (const key of ['h', '?']) {
      session.keys(key);
      await session.until(/aiwg-cite watch: keys/);
      session.keys('x');
      await session.until(/Nothing needs attention\./);
    }
    session.keys('q');
    await session.until(/EXIT=0/);
  });

  it('wide characters and long names never overflow a row; names keep their end; no ghost lines, also after a resize', async () => {
    requireTmux();
    const long = 'docs/a-rather-long-directory-name/with-more-depth';
    const files: Record<string, string> = { 'a.ts': 'export const a = 1;\n' };
    for (let index = 1; index <= 5; index += 1) {
      files[`${long}/a-really-long-document-name-number-${index}-that-goes-on.md`] = `See [gone-${index}.ts, L1].\n`;
    }
    files['docs/wide.md'] = `See [${'漢字'.repeat(30)}.ts, L1].\n`;
    files[`docs/${'🙂'.repeat(50)}.md`] = 'See [gone-emoji.ts, L1].\n';
    const repo = gitRepo(files);
    const session = startSession(repo.dir, WATCH, { columns: 80, rows: 14 });
    await session.until(/Missing 7/);
    const check = (columns: number) => {
      const screen = session.screen();
      const lines = screen.split('\n');
      for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(columns);
      // One frame: the header once, on screen and in what scrolled off it.
      expect(session.history().match(/aiwg-cite watch {2}Fresh/g)).toHaveLength(1);
      return screen;
    };
    for (const key of ['G', 'g', 'j', 'k', 'G']) {
      session.keys(key);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const bottom = check(80);
    expect(bottom).toMatch(/^ {2}1:5 +MISSING +\[漢字(漢字)*…$/m);
    expect(bottom).toMatch(/^docs\/(🙂)+…(🙂)+\.md$/mu);
    // Each long name keeps the end that tells it apart.
    session.keys('g');
    const top = await session.until(/…\/a-really-long-document-name-number-1-that-goes-on\.md/);
    expect(top).toMatch(/^docs\/a-rather[^\n]*…[^\n]*number-2-that-goes-on\.md$/m);
    check(80);
    session.resize(50, 12);
    await session.until(/^↑↓\/jk move {2}Enter details {2}f filter {2}\/ path {2}a re…$/m);
    check(50);
    session.resize(100, 20);
    await session.until(/^↑↓\/jk move {2}Enter details {2}f filter {2}\/ path {2}a re-verify {2}h help {2}q quit$/m);
    check(100);
    session.keys('q');
    await session.until(/EXIT=0/);
  });
});
