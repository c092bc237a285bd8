/**
 * Issue 15 item 16: one bad document (a committed symlink that leads out of the root) is that
 * document's finding; the other documents are still checked and reported. It used to stop the
 * whole run with exit 2. A symlink to nothing holds no citation: a note.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_ENTRY, gitRepo, tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

describe('fs-bad-document', () => {
  it('an outside-root symlinked document is its own finding; the rest are checked', () => {
    const outside = tempDir();
    writeFileSync(join(outside, 'secret.md'), 'Secret [nothing.ts, L1].\n');
    const repo = gitRepo({
      'lib.ts': 'export const a = 1;\n',
      'good.md': 'See [lib.ts, L1] and [gone.ts, L1].\n',
      'evil.md': { symlink: join(outside, 'secret.md') },
    });
    const result = spawnSync(process.execPath, [CLI_ENTRY, 'check', '--format', 'json'], {
      cwd: repo.dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout) as { citations: { file: string; status: string; rule: string; text: string }[] };
    const evil = report.citations.filter((finding) => finding.file === 'evil.md');
    expect(evil.map((finding) => [finding.rule, finding.status])).toEqual([['document/unreadable', 'outside-root']]);
    expect(report.citations.some((finding) => finding.file === 'good.md' && finding.text.includes('gone.ts'))).toBe(true);
    // Nothing of the outside file was read.
    expect(result.stdout).not.toContain('nothing.ts');
  });

  it('a committed symlink to a missing file (a submodule not checked out, a file not built) is a note, not an error', () => {
    const repo = gitRepo({
      'lib.ts': 'export const a = 1;\n',
      'good.md': 'See [lib.ts, L1].\n',
      'docs/api.md': { symlink: '../vendor/lib/README.md' },
    });
    const result = spawnSync(process.execPath, [CLI_ENTRY, 'check', '--verbose'], {
      cwd: repo.dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('docs/api.md: skipped (no file to read: a symlink to a missing file');
    expect(result.stdout).toContain('good.md:1:5');
    expect(result.stdout).not.toContain('document/unreadable');
  });
});
