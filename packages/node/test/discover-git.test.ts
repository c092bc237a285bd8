import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitRepo } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { discoverDocuments, resolveWorkspace } from '../src/index.ts';

describe('discovery in a git repository', () => {
  it('lists tracked and untracked markdown, without what the working tree no longer has', () => {
    const repo = gitRepo({
      'kept.md': 'k\n',
      'deleted.md': 'd\n',
      'dir/under.md': 'u\n',
      'swapped.md': 's\n',
      'sparse.md': 'p\n',
      'sparse-present.md': 'q\n',
      'src/code.ts': 'x\n',
    });
    repo.commit('documents');
    rmSync(join(repo.dir, 'deleted.md'));
    // A file where a directory was: its document's path fails with ENOTDIR.
    rmSync(join(repo.dir, 'dir'), { recursive: true });
    writeFileSync(join(repo.dir, 'dir'), 'not a directory\n');
    // A directory where a document was stays listed: reading it reports it, it is not silently dropped.
    rmSync(join(repo.dir, 'swapped.md'));
    mkdirSync(join(repo.dir, 'swapped.md'));
    // A sparse checkout's skip-worktree files: absent ones are gone, present ones are documents.
    repo.git('update-index', '--skip-worktree', 'sparse.md', 'sparse-present.md');
    rmSync(join(repo.dir, 'sparse.md'));
    writeFileSync(join(repo.dir, 'untracked.md'), 'n\n');
    const workspace = resolveWorkspace(repo.dir, undefined);
    expect(discoverDocuments(workspace, repo.dir, [])).toEqual(['kept.md', 'sparse-present.md', 'swapped.md', 'untracked.md']);
  });
});
