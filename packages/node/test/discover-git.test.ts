import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitRepo, tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { discoverDocuments, FileStamps, resolveWorkspace } from '../src/index.ts';

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
    const expected = ['kept.md', 'sparse-present.md', 'swapped.md', 'untracked.md'];
    expect(discoverDocuments(workspace, repo.dir, [])).toEqual(expected);
    // With the file stamps' stat of every document instead of git's (as `check` does): the same
    // documents, every listed markdown path asked about once, and nothing else.
    const stamps = new FileStamps(workspace.root, tempDir(), randomBytes(32));
    const asked: string[] = [];
    const isGone = (path: string) => {
      asked.push(path);
      return stamps.isGone(path);
    };
    expect(discoverDocuments(workspace, repo.dir, [], undefined, { isGone })).toEqual(expected);
    expect(asked.sort()).toEqual(['deleted.md', 'dir/under.md', 'kept.md', 'sparse-present.md', 'sparse.md', 'swapped.md', 'untracked.md']);
  });
});
