import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildReport, type Finding, type Pin, type PinFacts, parseLineRange, pinKey } from '@aiwg-cite/core';
import { GIT_ENV, type GitRepo, gitRepo, sha16, tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { BlobHashCache } from '../src/blob-hash-cache.ts';
import { GitStateStamp } from '../src/git-state-stamp.ts';
import { GitHistory, parseRawLog } from '../src/history.ts';
import { type BlameDetail, blameCitation } from '../src/history-blame.ts';
import { createHistoryFacts, HistoryFactsMemo, historyState, historyStateAgain, joinedHistoryState } from '../src/history-facts.ts';
import { markUnknownHashes } from '../src/history-unknown.ts';

const ENV = { ...process.env, ...GIT_ENV };
const numbered = (count: number, prefix = 'line') => Array.from({ length: count }, (_, at) => `${prefix} ${at + 1}`);
const text = (lines: readonly string[], eol = '\n') => lines.map((line) => line + eol).join('');

function open(dir: string): GitHistory {
  const history = GitHistory.open(dir, ENV);
  if (history === null) throw new Error(`${dir} is not a repository`);
  return history;
}

/** Blames a citation of `artifact` with `hash` (and `lines`) against the repository's working tree. */
async function blame(dir: string, artifact: string, hash: string, lines: string | null): Promise<BlameDetail> {
  const history = open(dir);
  try {
    const path = join(dir, artifact);
    const current = existsSync(path) ? { bytes: readFileSync(path), hash: sha16(readFileSync(path)) } : null;
    const citation = {
      file: 'doc.md',
      line: 1,
      column: 1,
      text: `[${artifact}@${hash}]`,
      artifact,
      hash,
      lines: lines === null ? null : parseLineRange(lines),
    };
    return await blameCitation(history, citation, current);
  } finally {
    await history.close();
  }
}

function commitFile(repo: GitRepo, path: string, contents: string, message: string): string {
  repo.write({ [path]: contents });
  return repo.commit(message);
}

describe('GitHistory.versions', () => {
  it('parses raw -z log records, renames included', () => {
    const sha = 'a'.repeat(40);
    const blob = 'b'.repeat(40);
    const out = `\x1e${sha}\0Ann\x002026-01-01T00:00:00+00:00\0move it\0\n:100644 100644 ${'c'.repeat(40)} ${blob} R087\0old.ts\0new.ts\0\x1e${'d'.repeat(40)}\0Bo\x002026-01-01T00:00:00+00:00\0drop\0\n:100644 000000 ${blob} ${'0'.repeat(40)} D\0x.ts\0`;
    expect(parseRawLog(out)).toEqual([
      {
        commit: { sha, author: 'Ann', date: '2026-01-01T00:00:00+00:00', subject: 'move it' },
        status: 'R',
        previousPath: 'old.ts',
        path: 'new.ts',
        blob,
      },
      {
        commit: { sha: 'd'.repeat(40), author: 'Bo', date: '2026-01-01T00:00:00+00:00', subject: 'drop' },
        status: 'D',
        previousPath: null,
        path: 'x.ts',
        blob: null,
      },
    ]);
  });

  it('follows a git mv across the history of the current branch', () => {
    const repo = gitRepo({ 'src/a.ts': text(numbered(5)) });
    repo.git('mv', 'src/a.ts', 'src/b.ts');
    const moved = repo.commit('rename a to b');
    const history = open(repo.dir);
    const versions = history.versions('src/b.ts', 'head');
    expect(versions.map((version) => [version.status, version.path])).toEqual([
      ['R', 'src/b.ts'],
      ['A', 'src/a.ts'],
    ]);
    expect(versions[0]?.commit.sha).toBe(moved);
    return history.close();
  });
});

describe('blame: pinned, staling and region commits', () => {
  it('linear history: lines that moved, then lines that changed', async () => {
    const base = numbered(10);
    const repo = gitRepo();
    const pin = commitFile(repo, 'a.ts', text(base), 'add a.ts');
    const hash = sha16(text(base));
    const shifted = ['// header', '// more', ...base];
    const staling = commitFile(repo, 'a.ts', text(shifted), 'add a header');
    commitFile(repo, 'a.ts', text([...shifted, 'tail']), 'add a tail');

    const moved = await blame(repo.dir, 'a.ts', hash, 'L3-5');
    expect(moved.entry).toMatchObject({
      pinned: { sha: pin },
      staling: { sha: staling, subject: 'add a header', author: 'Test Author' },
      region: null,
      drift: 'moved',
      newLines: 'L5-7',
    });
    expect(moved.classification?.mechanical).toBe(true);

    const edited = shifted.map((line) => (line === 'line 4' ? 'line four' : line));
    const region = commitFile(repo, 'a.ts', text(edited), 'reword line 4');
    const changed = await blame(repo.dir, 'a.ts', hash, 'L3-5');
    expect(changed.entry).toMatchObject({
      pinned: { sha: pin },
      staling: { sha: staling },
      region: { sha: region, subject: 'reword line 4' },
      drift: 'changed',
      newLines: 'L5-7',
    });
    expect(changed.classification?.regionDiff).toEqual(['@@ -3,3 +5,3 @@', ' line 3', '-line 4', '+line four', ' line 5']);
  });

  it('a pure git mv keeps the pin on the rename commit; a later edit stales it', async () => {
    const repo = gitRepo({ 'a.ts': text(numbered(4)) });
    repo.git('mv', 'a.ts', 'b.ts');
    const renamed = repo.commit('rename');
    const staling = commitFile(repo, 'b.ts', text(['new first', ...numbered(4)]), 'prepend');
    const detail = await blame(repo.dir, 'b.ts', sha16(text(numbered(4))), 'L2');
    expect(detail.entry).toMatchObject({ pinned: { sha: renamed }, staling: { sha: staling }, drift: 'moved', newLines: 'L3' });
  });

  it('a rename with an edit: the pin is found under the old name, the rename commit stales it', async () => {
    const repo = gitRepo();
    const lines = numbered(12);
    const pin = commitFile(repo, 'old/name.ts', text(lines), 'add');
    repo.git('mv', 'old/name.ts', 'new-name.ts');
    repo.write({ 'new-name.ts': text([...lines.slice(0, 11), 'line 12 edited']) });
    const renamed = repo.commit('rename and edit');
    const detail = await blame(repo.dir, 'new-name.ts', sha16(text(lines)), 'L2-3');
    expect(detail.entry).toMatchObject({ pinned: { sha: pin }, staling: { sha: renamed }, region: null, drift: 'moved', newLines: 'L2-3' });
    expect(detail.classification?.drift).toBe('intact');
  });

  it('merges: the side branch that changed the cited lines is the region commit', async () => {
    const repo = gitRepo();
    const lines = numbered(20);
    const pin = commitFile(repo, 'a.ts', text(lines), 'base');
    repo.git('checkout', '-q', '-b', 'side');
    const sideLines = lines.map((line) => (line === 'line 15' ? 'line 15 (side)' : line));
    const side = commitFile(repo, 'a.ts', text(sideLines), 'side edits line 15');
    repo.git('checkout', '-q', 'main');
    const mainLines = ['// main header', ...lines];
    const main = commitFile(repo, 'a.ts', text(mainLines), 'main adds a header');
    repo.git('merge', '-q', '--no-edit', 'side');
    expect(readFileSync(join(repo.dir, 'a.ts'), 'utf8')).toBe(text(['// main header', ...sideLines]));

    const detail = await blame(repo.dir, 'a.ts', sha16(text(lines)), 'L14-16');
    expect(detail.entry.pinned?.sha).toBe(pin);
    expect(detail.entry.staling?.sha).toBe(side);
    expect(detail.entry.region?.sha).toBe(side);
    expect(detail.entry.drift).toBe('changed');
    expect(detail.entry.newLines).toBe('L15-17');
    const untouched = await blame(repo.dir, 'a.ts', sha16(text(lines)), 'L2-3');
    expect(untouched.entry).toMatchObject({ region: null, drift: 'moved', newLines: 'L3-4' });
    expect(main).not.toBe(side);
  });

  it('a revert restores the pinned content: the newest matching commit is the pin and nothing stales it', async () => {
    const repo = gitRepo();
    const lines = numbered(6);
    commitFile(repo, 'a.ts', text(lines), 'add');
    commitFile(repo, 'a.ts', text(lines.slice(1)), 'drop line 1');
    repo.git('revert', '--no-edit', 'HEAD');
    const reverted = repo.git('rev-parse', 'HEAD');
    expect(readFileSync(join(repo.dir, 'a.ts'), 'utf8')).toBe(text(lines));
    const history = open(repo.dir);
    try {
      const versions = history.versions('a.ts', 'head');
      const hashes = await history.hashBlobs(versions.map((version) => version.blob as string));
      expect(versions[0]?.commit.sha).toBe(reverted);
      expect(hashes.get(versions[0]?.blob as string)?.raw).toBe(sha16(text(lines)));
    } finally {
      await history.close();
    }
  });

  it('deleted and re-added: the deletion is the staling and region commit', async () => {
    const repo = gitRepo();
    const lines = numbered(8);
    const pin = commitFile(repo, 'a.ts', text(lines), 'add');
    repo.git('rm', '-q', 'a.ts');
    const deleted = repo.commit('delete a.ts');
    commitFile(repo, 'a.ts', text(['restored', ...lines]), 're-add a.ts');
    const detail = await blame(repo.dir, 'a.ts', sha16(text(lines)), 'L4');
    expect(detail.entry).toMatchObject({
      pinned: { sha: pin },
      staling: { sha: deleted },
      region: { sha: deleted },
      drift: 'moved',
      newLines: 'L5',
    });
  });

  it('deleted: names the deleting commit, and the new path when the artifact was renamed away', async () => {
    const repo = gitRepo();
    const lines = numbered(3);
    const pin = commitFile(repo, 'gone.ts', text(lines), 'add');
    repo.git('rm', '-q', 'gone.ts');
    const deleted = repo.commit('remove gone.ts');
    const detail = await blame(repo.dir, 'gone.ts', sha16(text(lines)), 'L1');
    expect(detail.entry).toMatchObject({
      pinned: { sha: pin },
      staling: { sha: deleted },
      drift: 'deleted',
      deletedBy: { sha: deleted },
      newLines: null,
    });
    expect(detail.renamedTo).toBeNull();

    commitFile(repo, 'moving.ts', text(lines), 'add moving');
    repo.git('mv', 'moving.ts', 'moved.ts');
    const renamed = repo.commit('move it');
    const away = await blame(repo.dir, 'moving.ts', sha16(text(lines)), 'L1');
    expect(away.entry).toMatchObject({ drift: 'deleted', deletedBy: { sha: renamed } });
    expect(away.renamedTo).toBe('moved.ts');
  });

  it('a pin only on another branch is found on that branch; the current branch names what staled it', async () => {
    const repo = gitRepo();
    const lines = numbered(6);
    commitFile(repo, 'a.ts', text(lines), 'base');
    repo.git('checkout', '-q', '-b', 'feature');
    const featureLines = [...lines, 'feature line'];
    const pin = commitFile(repo, 'a.ts', text(featureLines), 'feature work');
    repo.git('checkout', '-q', 'main');
    const mainLines = ['main first', ...lines];
    const staling = commitFile(repo, 'a.ts', text(mainLines), 'main work');
    const detail = await blame(repo.dir, 'a.ts', sha16(text(featureLines)), 'L2-3');
    expect(detail.pinSource).toBe('other-branch');
    expect(detail.entry).toMatchObject({ pinned: { sha: pin }, staling: { sha: staling }, drift: 'moved', newLines: 'L3-4' });
  });

  it('CRLF files: moves keep CRLF lines matched, a switch to LF is whitespace', async () => {
    const repo = gitRepo();
    const lines = numbered(5);
    const pin = commitFile(repo, 'win.txt', text(lines, '\r\n'), 'crlf');
    const hash = sha16(text(lines, '\r\n'));
    commitFile(repo, 'win.txt', text(['top', ...lines], '\r\n'), 'insert a line');
    const moved = await blame(repo.dir, 'win.txt', hash, 'L2-3');
    expect(moved.entry).toMatchObject({ pinned: { sha: pin }, drift: 'moved', newLines: 'L3-4' });
    commitFile(repo, 'win.txt', text(['top', ...lines]), 'convert to LF');
    const whitespace = await blame(repo.dir, 'win.txt', hash, 'L2-3');
    expect(whitespace.entry).toMatchObject({ drift: 'whitespace', newLines: 'L3-4' });
    expect(whitespace.classification?.mechanical).toBe(true);
  });

  it('a hash that matches only the index is uncommitted; a made-up one is unknown-hash', async () => {
    const repo = gitRepo({ 'a.ts': text(numbered(3)) });
    const staged = text([...numbered(3), 'staged']);
    repo.write({ 'a.ts': staged });
    repo.git('add', 'a.ts');
    repo.write({ 'a.ts': text(['worktree', ...numbered(3), 'staged']) });
    const uncommitted = await blame(repo.dir, 'a.ts', sha16(staged), 'L4');
    expect(uncommitted.pinSource).toBe('index');
    expect(uncommitted.entry).toMatchObject({ pinned: null, staling: null, drift: 'uncommitted', newLines: 'L5' });
    const fabricated = await blame(repo.dir, 'a.ts', '0123456789abcdef', 'L1');
    expect(fabricated.entry).toMatchObject({ pinned: null, drift: 'unknown-hash', newLines: null });
    expect(fabricated.untracked).toBe(false);
  });

  it('a shallow clone says shallow instead of guessing', async () => {
    const repo = gitRepo();
    const lines = numbered(4);
    commitFile(repo, 'a.ts', text(lines), 'v1');
    commitFile(repo, 'a.ts', text(['v2', ...lines]), 'v2');
    const clone = join(tempDir(), 'clone');
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${repo.dir}`, clone], { env: ENV });
    const detail = await blame(clone, 'a.ts', sha16(text(lines)), 'L1');
    expect(detail.entry).toMatchObject({ pinned: null, drift: 'shallow' });
    const full = await blame(repo.dir, 'a.ts', sha16(text(lines)), 'L1');
    expect(full.entry.drift).toBe('moved');
  });
});

describe('fabricated hashes in check (markUnknownHashes)', () => {
  function staleFinding(artifact: string, hash: string, currentHash: string): Finding {
    return {
      file: 'doc.md',
      line: 1,
      column: 1,
      kind: 'rlm',
      text: `[${artifact}@${hash}]`,
      status: 'stale',
      severity: 'warning',
      rule: 'rlm/stale',
      message: 'stale',
      fix: 'fix',
      artifact,
      hash,
      currentHash,
    };
  }
  const reportOf = (findings: Finding[]) => buildReport(findings, 1, { skippedInCode: 0, suppressed: 0, notes: [] });

  it('turns a stale citation whose hash no version ever had into an unknown-hash error; real old hashes stay stale', async () => {
    const repo = gitRepo({ 'a.ts': 'v1\n' });
    commitFile(repo, 'a.ts', 'v2\n', 'v2');
    repo.git('checkout', '-q', '-b', 'other');
    commitFile(repo, 'a.ts', 'other\n', 'other branch');
    repo.git('checkout', '-q', 'main');
    const current = sha16('v2\n');
    const report = reportOf([
      staleFinding('a.ts', sha16('v1\n'), current),
      staleFinding('a.ts', sha16('other\n'), current),
      staleFinding('a.ts', 'fedcba9876543210', current),
    ]);
    expect(report.verdict).toBe('PASS');
    const marked = await markUnknownHashes(report, { root: repo.dir, env: ENV });
    expect(marked.citations.map((finding) => [finding.hash, finding.status, finding.severity, finding.rule])).toEqual([
      [sha16('v1\n'), 'stale', 'warning', 'rlm/stale'],
      [sha16('other\n'), 'stale', 'warning', 'rlm/stale'],
      ['fedcba9876543210', 'unknown-hash', 'error', 'rlm/unknown-hash'],
    ]);
    expect(marked.verdict).toBe('FAIL');
    expect(marked.summary.kinds.rlm).toEqual({ stale: 2, 'unknown-hash': 1 });
  });

  it('a hash from before a rename-with-edit is found by following the rename, after the one-log first pass misses it', async () => {
    const repo = gitRepo({ 'old.ts': text(numbered(12)) });
    repo.git('mv', 'old.ts', 'new.ts');
    repo.write({ 'new.ts': text([...numbered(11), 'edited']) });
    repo.commit('rename and edit');
    repo.write({ 'new.ts': text([...numbered(11), 'edited again']) });
    repo.commit('edit again');
    const history = open(repo.dir);
    const byPath = history.blobsByPath(['new.ts']);
    await history.close();
    expect(byPath.get('new.ts')?.size).toBe(2);
    const current = sha16(text([...numbered(11), 'edited again']));
    const marked = await markUnknownHashes(reportOf([staleFinding('new.ts', sha16(text(numbered(12))), current)]), {
      root: repo.dir,
      env: ENV,
    });
    expect(marked.citations[0]?.status).toBe('stale');
  });

  it('a hash of the staged version is not fabricated', async () => {
    const repo = gitRepo({ 'a.ts': 'v1\n' });
    repo.write({ 'a.ts': 'staged\n' });
    repo.git('add', 'a.ts');
    repo.write({ 'a.ts': 'worktree\n' });
    const marked = await markUnknownHashes(reportOf([staleFinding('a.ts', sha16('staged\n'), sha16('worktree\n'))]), {
      root: repo.dir,
      env: ENV,
    });
    expect(marked.citations[0]?.status).toBe('stale');
  });

  it('changes nothing outside git, and says so in a shallow clone and for files git does not track', async () => {
    const plain = tempDir();
    const outside = await markUnknownHashes(reportOf([staleFinding('a.ts', 'fedcba9876543210', '0000000000000000')]), {
      root: plain,
      env: { ...ENV, GIT_CEILING_DIRECTORIES: join(plain, '..') },
    });
    expect(outside.citations[0]?.status).toBe('stale');
    expect(outside.coverage.notes).toEqual([]);

    const repo = gitRepo({ 'a.ts': 'v1\n' });
    commitFile(repo, 'a.ts', 'v2\n', 'v2');
    const clone = join(tempDir(), 'clone');
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${repo.dir}`, clone], { env: ENV });
    const shallow = await markUnknownHashes(reportOf([staleFinding('a.ts', 'fedcba9876543210', sha16('v2\n'))]), { root: clone, env: ENV });
    expect(shallow.citations[0]?.status).toBe('stale');
    expect(shallow.coverage.notes[0]).toMatch(/^shallow clone: history is incomplete/);

    repo.write({ 'untracked.ts': 'x\n' });
    const untracked = await markUnknownHashes(reportOf([staleFinding('untracked.ts', 'fedcba9876543210', sha16('x\n'))]), {
      root: repo.dir,
      env: ENV,
    });
    expect(untracked.citations[0]?.status).toBe('stale');
    expect(untracked.coverage.notes).toEqual([
      '1 stale citation names a file whose content git has no history of (untracked, or a symlink): not checked for fabricated hashes',
    ]);

    repo.write({ 'target.ts': 'target\n', 'link.ts': { symlink: 'target.ts' } });
    repo.commit('add a symlink');
    const linked = await markUnknownHashes(reportOf([staleFinding('link.ts', 'fedcba9876543210', sha16('target\n'))]), {
      root: repo.dir,
      env: ENV,
    });
    expect(linked.citations[0]?.status).toBe('stale');
    expect(linked.coverage.notes[0]).toMatch(/^1 stale citation names a file whose content git has no history of/);
  });
});

describe('blob hash cache', () => {
  it('stores each blob hash under the git dir and reuses it on the next run', async () => {
    const repo = gitRepo({ 'a.ts': 'one\n' });
    commitFile(repo, 'a.ts', 'two\n', 'two');
    const first = open(repo.dir);
    const known = await first.knownHashes('a.ts');
    await first.close();
    expect(known).toEqual(new Set([sha16('one\n'), sha16('two\n')]));
    const cacheFile = join(repo.dir, '.git', 'aiwg-cite', 'blob-hashes-v1');
    const lines = readFileSync(cacheFile, 'utf8').trim().split('\n').sort();
    const oneOid = repo.git('rev-parse', 'HEAD~1:a.ts');
    const twoOid = repo.git('rev-parse', 'HEAD:a.ts');
    expect(lines).toEqual([`${oneOid} ${sha16('one\n')} -`, `${twoOid} ${sha16('two\n')} -`].sort());

    // A valid entry is trusted without reading the blob again: planting a different hash proves the cache is read.
    writeFileSync(cacheFile, `${oneOid} 1111111111111111 -\n${twoOid} ${sha16('two\n')} -\n`);
    const second = open(repo.dir);
    expect(await second.knownHashes('a.ts')).toEqual(new Set(['1111111111111111', sha16('two\n')]));
    await second.close();
  });

  it('discards a corrupt cache whole and rebuilds it', async () => {
    const repo = gitRepo({ 'a.ts': 'one\n' });
    const oid = repo.git('rev-parse', 'HEAD:a.ts');
    const cacheFile = join(repo.dir, '.git', 'aiwg-cite', 'blob-hashes-v1');
    execFileSync('mkdir', ['-p', join(repo.dir, '.git', 'aiwg-cite')]);
    writeFileSync(cacheFile, `${oid} 1111111111111111 -\nnot a cache line\n`);
    const history = open(repo.dir);
    expect(await history.knownHashes('a.ts')).toEqual(new Set([sha16('one\n')]));
    await history.close();
    expect(readFileSync(cacheFile, 'utf8')).toBe(`${oid} ${sha16('one\n')} -\n`);
  });

  it('keeps the U+FFFD routine hash for blobs that are not valid UTF-8', async () => {
    const latin1 = Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x0a]);
    const repo = gitRepo({ 'latin1.txt': latin1 });
    const history = open(repo.dir);
    expect(await history.knownHashes('latin1.txt')).toEqual(new Set(['9e4efed0ff1dbcf3', '7df8989b95a06d73']));
    await history.close();
    const cache = new BlobHashCache(join(repo.dir, '.git'));
    expect(cache.get(repo.git('rev-parse', 'HEAD:latin1.txt'))).toEqual({ raw: '9e4efed0ff1dbcf3', replacement: '7df8989b95a06d73' });
  });
});

describe('history facts kept between lookups (HistoryFactsMemo, for the watch)', () => {
  const facts = async (memo: HistoryFactsMemo, dir: string, pins: Pin[]) => {
    const answer = await createHistoryFacts({ root: dir, env: ENV, memo }).lookup(pins);
    if (answer.kind !== 'facts') throw new Error(`no facts: ${answer.kind}`);
    return pins.map((pin) => answer.facts.get(pinKey(pin)));
  };

  it('answers as a lookup without it, and looks again when a ref, the index or a symbolic link changes', async () => {
    const repo = gitRepo({ 'a.ts': 'v1\n', 'b.ts': 'b\n' });
    commitFile(repo, 'a.ts', 'v2\n', 'v2');
    const old = { artifact: 'a.ts', hash: sha16('v1\n') };
    const later = { artifact: 'a.ts', hash: sha16('v3\n') };
    const elsewhere = { artifact: 'b.ts', hash: sha16('v3\n') };
    const pins = [old, later, elsewhere];
    const memo = new HistoryFactsMemo();
    const fresh = async () => {
      const answer = await createHistoryFacts({ root: repo.dir, env: ENV }).lookup(pins);
      if (answer.kind !== 'facts') throw new Error(answer.kind);
      return pins.map((pin) => answer.facts.get(pinKey(pin)));
    };
    const known = (list: (PinFacts | undefined)[]) => list.map((one) => one?.known);

    expect(await facts(memo, repo.dir, pins)).toEqual(await fresh());
    expect(known(await facts(memo, repo.dir, pins))).toEqual([true, false, false]);

    // A commit on another branch, made without the index (as a fetch brings one): v3 is known now.
    const piped = (args: string[], input: string) => execFileSync('git', args, { cwd: repo.dir, env: ENV, input }).toString().trim();
    const blob = piped(['hash-object', '-w', '--stdin'], 'v3\n');
    const tree = piped(['mktree'], `100644 blob ${blob}\ta.ts\n`);
    const commit = piped(['commit-tree', tree, '-m', 'elsewhere'], '');
    repo.git('update-ref', 'refs/heads/fetched', commit);
    expect(known(await facts(memo, repo.dir, pins))).toEqual([true, true, false]);
    expect(await facts(memo, repo.dir, pins)).toEqual(await fresh());

    // The index alone: b.ts staged as v3.
    repo.git('update-index', '--cacheinfo', `100644,${blob},b.ts`);
    expect(known(await facts(memo, repo.dir, pins))).toEqual([true, true, true]);
    expect(await facts(memo, repo.dir, pins)).toEqual(await fresh());

    // b.ts made a symbolic link in the working tree: git's facts do not speak for it.
    rmSync(join(repo.dir, 'b.ts'));
    symlinkSync('a.ts', join(repo.dir, 'b.ts'));
    expect(await facts(memo, repo.dir, pins)).toEqual(await fresh());
    expect((await facts(memo, repo.dir, pins))[2]).toEqual({ tracked: false, known: false, workingTree: null });
  });

  it('with a state stamp, answers kept pins without starting git while the refs and the index stay, and asks again when they move', async () => {
    const repo = gitRepo({ 'a.ts': 'v1\n', 'b.ts': 'b\n' });
    commitFile(repo, 'a.ts', 'v2\n', 'v2');
    const pins = [
      { artifact: 'a.ts', hash: sha16('v1\n') },
      { artifact: 'a.ts', hash: sha16('v3\n') },
    ];
    const trace = join(tempDir(), 'trace.txt');
    writeFileSync(trace, '');
    const env = { ...ENV, GIT_TRACE: trace };
    const stamp = GitStateStamp.open(repo.dir, ENV);
    if (stamp === null) throw new Error('no stamp');
    // A stamp taken within its slack of a write is no stamp (`null`): these lookups are well after.
    const later = () => stamp.take(Date.now() + 1000);
    const memo = new HistoryFactsMemo();
    const lookup = async (list: Pin[]) => {
      const answer = await createHistoryFacts({ root: repo.dir, env, memo, stateStamp: later }).lookup(list);
      if (answer.kind !== 'facts') throw new Error(answer.kind);
      return list.map((pin) => answer.facts.get(pinKey(pin))?.known);
    };
    const gits = () =>
      readFileSync(trace, 'utf8')
        .split('\n')
        .filter((line) => line.includes('trace: built-in: git ')).length;

    expect(await lookup(pins)).toEqual([true, false]);
    const first = gits();
    expect(first).toBeGreaterThan(0);
    expect(await lookup(pins)).toEqual([true, false]);
    expect(await lookup([pins[1] as Pin])).toEqual([false]);
    expect(gits()).toBe(first);
    // A pin the memo does not hold: git is asked.
    expect(await lookup([{ artifact: 'b.ts', hash: sha16('b\n') }])).toEqual([true]);
    const second = gits();
    expect(second).toBeGreaterThan(first);
    // A ref moved (a commit that has v3 on another branch): the stamp differs, git is asked, v3 is known.
    const piped = (args: string[], input: string) => execFileSync('git', args, { cwd: repo.dir, env: ENV, input }).toString().trim();
    const blob = piped(['hash-object', '-w', '--stdin'], 'v3\n');
    const tree = piped(['mktree'], `100644 blob ${blob}\ta.ts\n`);
    repo.git('update-ref', 'refs/heads/fetched', piped(['commit-tree', tree, '-m', 'elsewhere'], ''));
    expect(await lookup(pins)).toEqual([true, true]);
    expect(gits()).toBeGreaterThan(second);
    // A stamp that cannot be trusted (`null`, a write within its slack): git is asked every time.
    const third = gits();
    const answer = await createHistoryFacts({ root: repo.dir, env, memo, stateStamp: () => null }).lookup(pins);
    expect(answer.kind).toBe('facts');
    expect(gits()).toBeGreaterThan(third);
  });
});

describe('what a lookup depends on (historyState, tellState: a check that keeps its answer)', () => {
  it('a lookup tells the state historyState gives, which changes with a ref, the index and a symbolic link', async () => {
    const repo = gitRepo({ 'a.ts': 'v1\n', 'b.ts': 'b\n' });
    const pins = [
      { artifact: 'b.ts', hash: sha16('v3\n') },
      { artifact: 'a.ts', hash: sha16('v3\n') },
      { artifact: 'a.ts', hash: sha16('v0\n') },
    ];
    const told = async () => {
      const states: string[] = [];
      const asked: (readonly string[])[] = [];
      await createHistoryFacts({
        root: repo.dir,
        env: ENV,
        tellState: (artifacts) => {
          asked.push(artifacts);
          return (state) => states.push(state);
        },
      }).lookup(pins);
      expect(asked).toEqual([['a.ts', 'b.ts']]);
      expect(states).toHaveLength(1);
      expect(states[0]).toBe(await historyState(repo.dir, ENV, ['a.ts', 'b.ts']));
      return states[0];
    };
    const seen = [await told()];
    expect(await told()).toBe(seen[0]);
    // A commit on a new ref without the index, the index alone, a symbolic link in the working tree.
    const piped = (args: string[], input: string) => execFileSync('git', args, { cwd: repo.dir, env: ENV, input }).toString().trim();
    const blob = piped(['hash-object', '-w', '--stdin'], 'v3\n');
    repo.git('update-ref', 'refs/heads/fetched', piped(['commit-tree', piped(['mktree'], `100644 blob ${blob}\ta.ts\n`), '-m', 'x'], ''));
    seen.push(await told());
    repo.git('update-index', '--cacheinfo', `100644,${blob},b.ts`);
    seen.push(await told());
    rmSync(join(repo.dir, 'b.ts'));
    symlinkSync('a.ts', join(repo.dir, 'b.ts'));
    seen.push(await told());
    expect(new Set(seen).size).toBe(4);
    // A caller that wants nothing is told nothing.
    let asked = 0;
    const tellNothing = () => {
      asked += 1;
      return null;
    };
    await createHistoryFacts({ root: repo.dir, env: ENV, tellState: tellNothing }).lookup(pins);
    expect(asked).toBe(1);
  });

  it('joins the states of two sets of artifacts taken in one state of git into the state of them all, and no others', async () => {
    const repo = gitRepo({ 'a.ts': 'a\n', 'b.ts': 'b\n', 'c.ts': 'c\n' });
    symlinkSync('a.ts', join(repo.dir, 'link.ts'));
    const taken = async (...artifacts: string[]) => ({ state: await historyState(repo.dir, ENV, artifacts), artifacts });
    const one = await taken('c.ts', 'link.ts');
    const other = await taken('a.ts', 'c.ts');
    expect(joinedHistoryState(one, other)).toEqual(await taken('a.ts', 'c.ts', 'link.ts'));
    expect(joinedHistoryState(other, one)).toEqual(await taken('a.ts', 'c.ts', 'link.ts'));
    expect(joinedHistoryState(one, one)).toEqual(one);
    // Git moved between the two: no state says what the answer depends on.
    repo.write({ 'b.ts': 'b2\n' });
    repo.commit('b again');
    const later = await taken('b.ts', 'c.ts');
    expect(joinedHistoryState(one, later)).toBeNull();
    // An artifact that became a symbolic link between the two (git's refs and index the same), and states that are not ones.
    rmSync(join(repo.dir, 'c.ts'));
    symlinkSync('a.ts', join(repo.dir, 'c.ts'));
    const linked = await taken('c.ts');
    expect(joinedHistoryState(await taken('b.ts'), linked)).toEqual(await taken('b.ts', 'c.ts'));
    expect(joinedHistoryState(later, linked)).toBeNull();
    expect(joinedHistoryState({ state: 'not json', artifacts: [] }, one)).toBeNull();
    expect(joinedHistoryState({ state: '["x",["a.ts"]]', artifacts: ['a.ts'] }, one)).toBeNull();
  });

  it('gives a state again without git, looking again at which artifacts are links, while git’s stamp stays', async () => {
    const repo = gitRepo({ 'a.ts': 'a\n', 'b.ts': 'b\n' });
    symlinkSync('a.ts', join(repo.dir, 'link.ts'));
    const state = await historyState(repo.dir, ENV, ['a.ts', 'b.ts', 'link.ts']);
    expect(historyStateAgain(state, repo.dir)).toBe(state);
    // An artifact the caller knows to be a regular file is not looked at.
    expect(historyStateAgain(state, repo.dir, (artifact) => artifact === 'b.ts')).toBe(state);
    // An artifact that became a link, and one that stopped being one: the state git would give now.
    rmSync(join(repo.dir, 'b.ts'));
    symlinkSync('a.ts', join(repo.dir, 'b.ts'));
    rmSync(join(repo.dir, 'link.ts'));
    writeFileSync(join(repo.dir, 'link.ts'), 'a\n');
    const now = await historyState(repo.dir, ENV, ['a.ts', 'b.ts', 'link.ts']);
    expect(now).not.toBe(state);
    expect(historyStateAgain(state, repo.dir)).toBe(now);
    expect(historyStateAgain('not json', repo.dir)).toBeNull();
    expect(historyStateAgain('["x",[1]]', repo.dir)).toBeNull();
    // The stamp that says git's refs and index stayed, taken where an earlier stamp looked (no git process).
    const stamp = GitStateStamp.open(repo.dir, ENV);
    if (stamp === null) throw new Error('not a repository');
    const later = Date.now() + 60_000;
    const taken = stamp.take(later);
    expect(GitStateStamp.at(stamp.paths).take(later)).toBe(taken);
    repo.commit('links');
    expect(GitStateStamp.at(stamp.paths).take(later)).not.toBe(taken);
  });
});
