/**
 * A sparse checkout leaves tracked files outside its cone off the disk (git's skip-worktree bit).
 * A document citing one was MISSING, a blocking error, in `check` while `check --staged` (which
 * reads the index) passed it. `check` now reads such a file from the index as well, and an
 * @-mention of one is found; a file git does not track is still missing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { GIT_ENV, gitRepo, runCli, sha16 } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

const CODE = 'export const b = 2;\n';

describe('a sparse checkout', () => {
  it('reads a cited file outside the cone from the index, in check and check --staged alike', () => {
    const repo = gitRepo({
      'b/code.ts': CODE,
      'a/doc.md': `B is two [b/code.ts@${sha16(CODE)}, L1]; [b/gone.ts, L1] never was.\n`,
    });
    execFileSync('git', ['sparse-checkout', 'set', 'a'], { cwd: repo.dir, env: GIT_ENV, stdio: 'ignore' });
    expect(existsSync(join(repo.dir, 'b/code.ts'))).toBe(false);

    const statuses = (stdout: string) => (JSON.parse(stdout) as { citations: { status: string }[] }).citations.map((c) => c.status);
    const check = runCli(['check', '--format', 'json'], { cwd: repo.dir });
    expect(statuses(check.stdout)).toEqual(['fresh', 'missing']);

    repo.write({ 'a/doc.md': `B is two [b/code.ts@${sha16(CODE)}, L1]; [b/gone.ts, L1] never was; still.\n` });
    repo.git('add', 'a/doc.md');
    const staged = runCli(['check', '--staged', '--format', 'json'], { cwd: repo.dir });
    expect(statuses(staged.stdout)).toEqual(['fresh', 'missing']);
  });

  it('finds an @-mention of a tracked file outside the cone; an untracked one is missing', () => {
    const repo = gitRepo({ 'b/code.ts': CODE, 'a/doc.md': 'See @b/code.ts and @b/gone.ts.\n' });
    execFileSync('git', ['sparse-checkout', 'set', 'a'], { cwd: repo.dir, env: GIT_ENV, stdio: 'ignore' });
    const check = runCli(['check', '--format', 'json'], { cwd: repo.dir });
    const found = (JSON.parse(check.stdout) as { citations: { text: string; status: string }[] }).citations;
    expect(found.map((finding) => `${finding.text} ${finding.status}`)).toEqual(['@b/code.ts found', '@b/gone.ts missing']);
  });
});
