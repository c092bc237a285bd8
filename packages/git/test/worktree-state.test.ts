import { chmodSync, mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GIT_ENV, gitRepo } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { indexEntries, indexIdentity, readWorktreeState } from '../src/worktree-state.ts';

const ENV = { ...process.env, ...GIT_ENV };

describe('readWorktreeState', () => {
  it('lists the tracked files whose stat left their entry and the untracked markdown git does not ignore', async () => {
    const repo = gitRepo({
      '.gitignore': 'ignored/\n',
      'docs/a.md': '# A\n',
      'docs/b.md': '# B\n',
      'docs/c.md': '# C\n',
      'src/x.ts': 'x\n',
    });
    const gitDir = join(repo.dir, '.git');
    const clean = await readWorktreeState(repo.dir, gitDir, ENV);
    expect(clean).toEqual({ index: indexIdentity(join(gitDir, 'index')), modified: [], untracked: [] });
    writeFileSync(join(repo.dir, 'docs/a.md'), '# A, edited\n');
    // The same bytes, another time: git's stat no longer matches (it does not read the file).
    utimesSync(join(repo.dir, 'docs/b.md'), 2e9, 2e9);
    rmSync(join(repo.dir, 'src/x.ts'));
    repo.write({
      'docs/new.md': '# New\n',
      'docs/new.txt': 'not markdown\n',
      'ignored/hidden.md': '# Hidden\n',
      'notes.markdown': '# N\n',
    });
    const state = await readWorktreeState(repo.dir, gitDir, ENV);
    expect(state?.modified).toEqual(['docs/a.md', 'docs/b.md', 'src/x.ts']);
    expect(state?.untracked).toEqual(['docs/new.md', 'notes.markdown']);
    // Nothing read or written: the index is the same file.
    expect(state?.index).toBe(clean?.index);
  });

  it('is another state once the index changes, and none without an index, with GIT_INDEX_FILE or when git warns', async () => {
    const repo = gitRepo({ 'docs/a.md': '# A\n' });
    const gitDir = join(repo.dir, '.git');
    const before = await readWorktreeState(repo.dir, gitDir, ENV);
    writeFileSync(join(repo.dir, 'docs/a.md'), '# A, staged\n');
    repo.git('add', 'docs/a.md');
    const after = await readWorktreeState(repo.dir, gitDir, ENV);
    expect(after?.index).not.toBe(before?.index);
    expect(after?.modified).toEqual([]);
    expect(await readWorktreeState(repo.dir, gitDir, { ...ENV, GIT_INDEX_FILE: join(gitDir, 'index') })).toBeNull();
    const fresh = gitRepo();
    expect(await readWorktreeState(fresh.dir, join(fresh.dir, '.git'), ENV)).toBeNull();
    // An untracked directory git cannot open: it warns, and the state is not trusted.
    if (process.getuid?.() !== 0) {
      mkdirSync(join(repo.dir, 'locked'));
      writeFileSync(join(repo.dir, 'locked/x.md'), '# X\n');
      chmodSync(join(repo.dir, 'locked'), 0o000);
      try {
        expect(await readWorktreeState(repo.dir, gitDir, ENV)).toBeNull();
      } finally {
        chmodSync(join(repo.dir, 'locked'), 0o755);
      }
    }
  });
});

describe('indexEntries', () => {
  it('names the regular files at stage 0 that git checks by their stat plain, and the entries git may not look at flagged', async () => {
    const repo = gitRepo({ 'a.md': 'a\n', 'b.md': 'b\n', 'c.md': 'c\n', 'tool.sh': '#!/bin/sh\n' });
    chmodSync(join(repo.dir, 'tool.sh'), 0o755);
    symlinkSync('a.md', join(repo.dir, 'link.md'));
    repo.commit('more');
    repo.git('update-index', '--assume-unchanged', 'b.md');
    repo.git('update-index', '--skip-worktree', 'c.md');
    repo.git('update-index', '--add', '--cacheinfo', `160000,${repo.git('rev-parse', 'HEAD')},sub`);
    const entries = await indexEntries(repo.dir, ENV);
    expect([...(entries?.plain ?? [])].sort()).toEqual(['a.md', 'tool.sh']);
    expect(entries?.flagged).toEqual(['b.md', 'c.md']);
  });
});
