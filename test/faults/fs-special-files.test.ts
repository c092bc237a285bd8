/**
 * Issue 15 item 14: FIFOs and sockets (as a document, a cited file or the configuration) are
 * refused with one line naming them, never opened for reading: a FIFO a pull request adds must
 * never hang a commit hook.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { CLI_ENTRY, tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

const check = (dir: string, args: string[]) =>
  spawnSync(process.execPath, [CLI_ENTRY, 'check', ...args, '--root', '.', '--format', 'json'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, NO_COLOR: '1' },
  });

describe('fs-special-files', () => {
  it('a FIFO cited as an artifact is a finding, not a hang', () => {
    const dir = tempDir();
    execFileSync('mkfifo', [join(dir, 'pipe.ts')]);
    writeFileSync(join(dir, 'doc.md'), 'See [pipe.ts, L1].\n');
    const result = check(dir, ['doc.md']);
    expect(result.signal).toBeNull();
    const report = JSON.parse(result.stdout) as { citations: { text: string; status: string; message: string }[] };
    const finding = report.citations.find((entry) => entry.text.includes('pipe.ts'));
    expect(finding?.status).not.toBe('fresh');
    expect(finding?.message).toMatch(/not a regular file|FIFO/);
  });

  it('a FIFO named as a document is refused in one line; the other documents are checked', () => {
    const dir = tempDir();
    execFileSync('mkfifo', [join(dir, 'hang.md')]);
    writeFileSync(join(dir, 'good.md'), '# Fine\n');
    const result = check(dir, ['hang.md', 'good.md']);
    expect(result.signal).toBeNull();
    const report = JSON.parse(result.stdout) as { summary: { files: number }; citations: { file: string; message: string }[] };
    const finding = report.citations.find((entry) => entry.file === 'hang.md');
    expect(finding?.message).toMatch(/^hang\.md: .*(FIFO|not a regular file)/);
    expect(finding?.message).not.toContain('\n');
    expect(report.summary.files).toBe(2);
  });

  it('a socket as the configuration file is refused in one line', async () => {
    const dir = tempDir();
    const server = createServer();
    const socket = join(dir, 'aiwg-cite.config.json');
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      writeFileSync(join(dir, 'doc.md'), '# Fine\n');
      const result = check(dir, ['doc.md']);
      expect(result.signal).toBeNull();
      expect(result.status).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/aiwg-cite\.config\.json: (a socket, )?not a regular file/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
