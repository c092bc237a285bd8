import { execFileSync } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { GIT_ENV, type GitRepo, gitRepo } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { isMarkdownName } from '../src/citation-index.ts';
import { type IndexSnapshot, isRegularFileMode, parseLsFilesStage } from '../src/index-entries.ts';
import { IndexFileEntries, parseIndexFile, readIndexFile } from '../src/index-file.ts';

/** What `git ls-files -s -z` lists: the reader must give exactly this, or `null`. */
function listed(repo: GitRepo) {
  const output = execFileSync('git', ['ls-files', '-s', '-z'], { cwd: repo.dir, env: { ...process.env, ...GIT_ENV } });
  return plain(parseLsFilesStage(output));
}

/** A snapshot as plain data: its entries as a Map in listing order (the reader's is read on demand). */
function plain(snapshot: IndexSnapshot | null) {
  return snapshot === null ? null : { entries: new Map(snapshot.entries), unmerged: snapshot.unmerged };
}

/** Every entry looked up by path before any walk of the whole map, as the hook does. */
function lookedUp(snapshot: IndexSnapshot | null, expected: ReturnType<typeof listed>) {
  return expected === null ? [] : [...expected.entries.keys()].map((path) => [path, snapshot?.entries.get(path)]);
}

const indexOf = (repo: GitRepo) => join(repo.dir, '.git', 'index');

/** A repository with regular, executable, symlinked, nested, non-ASCII and very long names, a submodule entry and a staged change. */
function variedRepo(): GitRepo {
  const repo = gitRepo({
    'a.md': '# A\n',
    'docs/b.md': '# B\n',
    'docs/deeper/c.ts': 'export const c = 1;\n',
    'docs/deeper/ç é.md': '# accents\n',
    'run.sh': '#!/bin/sh\n',
  });
  repo.git('update-index', '--chmod=+x', 'run.sh');
  symlinkSync('docs/b.md', join(repo.dir, 'link.md'));
  repo.git('add', 'link.md');
  repo.git('update-index', '--add', '--cacheinfo', `160000,${repo.git('rev-parse', 'HEAD')},vendor/sub`);
  // Longer than the 12 bits of an entry's name length: the name then runs to its NUL.
  const long = `${Array.from({ length: 20 }, (_, index) => `${index}${'n'.repeat(220)}`).join('/')}.md`;
  repo.git('update-index', '--add', '--cacheinfo', `100644,${repo.git('rev-parse', 'HEAD:a.md')},${long}`);
  repo.write({ 'docs/b.md': '# B changed\n' });
  repo.git('add', 'docs/b.md');
  return repo;
}

describe('readIndexFile', () => {
  for (const version of [2, 3, 4]) {
    it(`reads a version ${version} index as git ls-files -s lists it`, () => {
      const repo = variedRepo();
      repo.git('update-index', `--index-version=${version}`);
      if (version === 3) repo.git('add', '-N', 'a.md');
      const snapshot = readIndexFile(indexOf(repo));
      expect(snapshot).not.toBeNull();
      const expected = listed(repo);
      expect(lookedUp(snapshot, expected)).toEqual([...(expected?.entries ?? [])]);
      expect(snapshot?.entries.get('docs/missing.md')).toBeUndefined();
      expect(snapshot?.entries.get('docs')).toBeUndefined();
      expect(plain(snapshot)).toEqual(expected);
      const markdown = [...(expected?.entries ?? [])].filter(([path, entry]) => isMarkdownName(path) && isRegularFileMode(entry.mode));
      if (snapshot?.entries instanceof IndexFileEntries) {
        expect(readIndexFile(indexOf(repo))?.entries).toBeInstanceOf(IndexFileEntries);
        const fresh = readIndexFile(indexOf(repo))?.entries as IndexFileEntries;
        expect(fresh.regularFilesWhere(isMarkdownName, 'dn')).toEqual(markdown.map(([path, entry]) => [path, entry.oid]));
        // An entry `skip` passes over, asked with its oid's bytes where the file holds them, is left out.
        const skipped = markdown[0]?.[1].oid;
        const asked: string[] = [];
        const skip = (bytes: Uint8Array, at: number) => {
          const oid = Buffer.from(bytes.subarray(at, at + 20)).toString('hex');
          asked.push(oid);
          return oid === skipped;
        };
        expect(fresh.regularFilesWhere(isMarkdownName, 'dn', skip)).toEqual(
          markdown.filter(([, entry]) => entry.oid !== skipped).map(([path, entry]) => [path, entry.oid]),
        );
        expect(asked).toEqual(expect.arrayContaining(markdown.map(([, entry]) => entry.oid)));
      } else {
        expect(version).toBe(4);
      }
      expect(snapshot?.entries.get('vendor/sub')?.mode).toBe('160000');
      expect(snapshot?.entries.get('link.md')?.mode).toBe('120000');
      expect(snapshot?.entries.get('run.sh')?.mode).toBe('100755');
    });
  }

  it('reads an intent-to-add entry (an extended flag) as git lists it', () => {
    const repo = gitRepo({ 'a.md': '# A\n' });
    repo.write({ 'new.md': '# new\n' });
    repo.git('add', '-N', 'new.md');
    expect(plain(readIndexFile(indexOf(repo)))).toEqual(listed(repo));
  });

  it('lists the paths of an unresolved merge as unmerged', () => {
    const repo = gitRepo({ 'a.md': 'base\n' });
    repo.git('checkout', '-q', '-b', 'other');
    repo.write({ 'a.md': 'other\n' });
    repo.commit('other');
    repo.git('checkout', '-q', 'main');
    repo.write({ 'a.md': 'main\n' });
    repo.commit('main');
    expect(() => repo.git('merge', '-q', 'other')).toThrow();
    const snapshot = readIndexFile(indexOf(repo));
    expect(snapshot?.unmerged).toEqual(['a.md']);
    expect(snapshot?.entries.get('a.md')).toBeUndefined();
    expect(plain(snapshot)).toEqual(listed(repo));
  });

  it('reads an empty index', () => {
    const repo = gitRepo({ 'a.md': '# A\n' });
    repo.git('rm', '-q', '--cached', 'a.md');
    expect(plain(readIndexFile(indexOf(repo)))).toEqual({ entries: new Map(), unmerged: [] });
  });

  it('leaves to git what it cannot vouch for: a split or sparse index, a damaged file, an unwritten checksum, no file', () => {
    const split = gitRepo({ 'a.md': '# A\n' });
    split.git('update-index', '--split-index');
    expect(readIndexFile(indexOf(split))).toBeNull();

    const sparse = gitRepo({ 'a/x.md': '# x\n', 'b/y.md': '# y\n' });
    sparse.git('sparse-checkout', 'set', '--cone', '--sparse-index', 'a');
    expect(readFileSync(indexOf(sparse)).includes('sdir')).toBe(true);
    expect(readIndexFile(indexOf(sparse))).toBeNull();

    const bytes = readFileSync(indexOf(variedRepo()));
    const damaged = Buffer.from(bytes);
    damaged[40] = (damaged[40] as number) ^ 1;
    expect(parseIndexFile(damaged)).toBeNull();
    expect(parseIndexFile(bytes.subarray(0, 30))).toBeNull();
    // index.skipHash (git 2.40+) writes no checksum: nothing then tells SHA-1 from SHA-256 oids.
    const unhashed = Buffer.from(bytes);
    unhashed.fill(0, unhashed.length - 20);
    expect(parseIndexFile(unhashed)).toBeNull();
    expect(readIndexFile(join(split.dir, 'no-such-index'))).toBeNull();
  });
});
