import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { GIT_ENV, gitRepo, tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { GitStateStamp } from '../src/git-state-stamp.ts';

const ENV = { ...process.env, ...GIT_ENV };

/** Well after every change so far: a stamp taken "now" is never too fresh to be sure of. */
const later = () => Date.now() + 60_000;

describe('GitStateStamp', () => {
  it('stays while nothing moves, and changes with every ref, HEAD, the index, packed refs and worktrees', () => {
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo.dir, env: ENV, encoding: 'utf8' }).trim();
    const stamp = GitStateStamp.open(repo.dir, ENV);
    if (stamp === null) throw new Error('not a repository');
    let last = stamp.take(later());
    expect(last).not.toBeNull();
    expect(stamp.take(later())).toBe(last);
    const changes: [string, () => void][] = [
      ['a branch in a nested directory', () => git('update-ref', 'refs/heads/topic/one', 'HEAD')],
      ['that branch moved', () => git('update-ref', 'refs/heads/topic/one', git('commit-tree', 'HEAD^{tree}', '-m', 'x'))],
      ['a tag', () => git('tag', 'v1')],
      ['every ref packed', () => git('pack-refs', '--all')],
      ['a packed branch deleted', () => git('branch', '-D', 'topic/one')],
      ['a remote-tracking ref', () => git('update-ref', 'refs/remotes/origin/main', 'HEAD')],
      ['HEAD on another branch', () => git('checkout', '-q', '-b', 'other')],
      ['the index', () => git('update-index', '--add', '--cacheinfo', `100644,${git('hash-object', '-w', 'a.txt')},b.txt`)],
      ['a worktree', () => git('worktree', 'add', '-q', join(tempDir(), 'wt'), '-b', 'wt')],
    ];
    for (const [what, change] of changes) {
      change();
      const now = stamp.take(later());
      expect(now, what).not.toBeNull();
      expect(now, what).not.toBe(last);
      expect(stamp.take(later()), `${what}, again`).toBe(now);
      last = now;
    }
  });

  it('vouches for nothing changed less than a moment ago, and is null outside git', () => {
    const repo = gitRepo({ 'a.txt': 'a\n' });
    execFileSync('git', ['update-ref', 'refs/heads/fresh', 'HEAD'], { cwd: repo.dir, env: ENV });
    const stamp = GitStateStamp.open(repo.dir, ENV);
    expect(stamp?.take(Date.now())).toBeNull();
    expect(stamp?.take(later())).not.toBeNull();
    expect(GitStateStamp.open(tempDir(), { ...ENV, GIT_CEILING_DIRECTORIES: tempDir() })).toBeNull();
  });
});
