import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GIT_ENV, type GitRepo, gitRepo, sha16, tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { GitHistory } from '../src/history.ts';
import { PathWalk } from '../src/history-walk.ts';
import { WalkMemo } from '../src/walk-memo.ts';

const ENV = { ...process.env, ...GIT_ENV };
const lines = (count: number, tag: string) => Array.from({ length: count }, (_, at) => `${tag} line ${at + 1}\n`).join('');

function open(dir: string, env: NodeJS.ProcessEnv = ENV): GitHistory {
  const history = GitHistory.open(dir, env);
  if (history === null) throw new Error(`${dir} is not a repository`);
  return history;
}

/**
 * What the per-path walk that the one-pass walk replaced computed for `path`: the blobs of
 * `git log --all --follow` (`versions(path, 'all')`) plus the index entry, hashed; `null` when
 * git never tracked the path.
 */
async function perPathKnownHashes(history: GitHistory, path: string): Promise<Set<string> | null> {
  const oids = history.versions(path, 'all').flatMap((version) => (version.blob === null ? [] : [version.blob]));
  const index = await history.readIndex(path);
  if (oids.length === 0 && index === null) return null;
  if (index !== null) oids.push(index.oid);
  const known = new Set<string>();
  for (const hash of (await history.hashBlobs(oids)).values()) {
    known.add(hash.raw);
    if (hash.replacement !== null) known.add(hash.replacement);
  }
  return known;
}

/** Every path any commit of any ref ever had, relative to `prefix`. */
function everyPath(repo: GitRepo, prefix = ''): string[] {
  const names = repo.git('log', '--all', '--no-renames', '--name-only', '--format=').split('\n');
  return [...new Set(names.filter((name) => name !== '' && name.startsWith(prefix)).map((name) => name.slice(prefix.length)))].sort();
}

/** A history with renames, edited renames, copies, reused names, chains, branches and merges. */
function renamingRepo(): GitRepo {
  const repo = gitRepo({
    'src/a.ts': lines(20, 'a'),
    'src/c.ts': lines(20, 'c'),
    'src/e.ts': lines(20, 'e'),
    'src/h.ts': lines(5, 'h'),
    'src/x.ts': lines(20, 'x'),
    'docs/readme.md': '# readme\n',
  });
  repo.git('mv', 'src/a.ts', 'src/b.ts');
  repo.commit('exact rename a -> b');
  repo.git('mv', 'src/c.ts', 'src/d.ts');
  repo.write({ 'src/d.ts': `${lines(19, 'c')}edited\n` });
  repo.commit('rename c -> d with an edit');
  repo.write({ 'src/f.ts': lines(20, 'e'), 'src/a.ts': 'a new file under the old name\n' });
  repo.commit('copy e -> f; a.ts reused for something else');
  repo.git('rm', '-q', 'src/h.ts');
  repo.commit('delete h');
  repo.write({ 'src/h.ts': 'h again\n' });
  repo.commit('add h again');
  repo.git('mv', 'src/x.ts', 'src/y.ts');
  repo.commit('x -> y');
  repo.write({ 'src/y.ts': `${lines(20, 'x')}more\n` });
  repo.commit('edit y');
  repo.git('mv', 'src/y.ts', 'src/z.ts');
  repo.commit('y -> z');

  repo.git('checkout', '-q', '-b', 'side', 'HEAD~3');
  repo.write({ 'src/b.ts': `${lines(20, 'a')}side\n`, 'src/y.ts': `${lines(20, 'x')}side of y\n` });
  repo.commit('side edits');
  repo.git('mv', 'src/b.ts', 'src/g.ts');
  repo.commit('side renames b -> g');
  repo.git('checkout', '-q', 'main');
  repo.write({ 'src/b.ts': `${lines(20, 'a')}main\n` });
  repo.commit('main edits b');
  // A merge with a resolution of its own: new blobs that no parent had.
  repo.git('merge', '-q', '--no-ff', '--no-commit', '-s', 'ours', 'side');
  repo.write({ 'src/g.ts': `${lines(20, 'a')}merged\n`, 'src/y.ts': 'resolved y\n' });
  repo.commit('merge side');

  repo.git('checkout', '-q', '-b', 'unmerged', 'HEAD~2');
  repo.write({ 'src/z.ts': 'only on a branch never merged\n' });
  repo.git('mv', 'src/d.ts', 'src/dd.ts');
  repo.commit('unmerged branch');
  repo.git('checkout', '-q', 'main');

  // Staged but never committed, and untracked.
  repo.write({ 'src/staged.ts': 'staged\n', 'src/untracked.ts': 'untracked\n' });
  repo.git('add', 'src/staged.ts');
  return repo;
}

describe('PathWalk: one pass over the history for every artifact', () => {
  it('gives the per-path `git log --all --follow` walk its exact known hashes, renames and copies followed', async () => {
    const repo = renamingRepo();
    const paths = [...everyPath(repo), 'src/staged.ts', 'src/untracked.ts', 'src/never.ts'];
    const history = open(repo.dir);
    try {
      const expected = new Map<string, Set<string> | null>();
      for (const path of paths) expected.set(path, await perPathKnownHashes(history, path));
      const batched = open(repo.dir);
      const actual = await batched.knownHashesOf(paths);
      await batched.close();
      expect(actual).toEqual(expected);
      // The history really does rename: d is followed back to c across an edit, z back to x over
      // two renames; by name alone neither has those versions.
      const byName = history.blobsByPath(['src/d.ts', 'src/z.ts']);
      const initial = repo.git('rev-list', '--max-parents=0', 'HEAD');
      const cBlob = repo.git('rev-parse', `${initial}:src/c.ts`);
      const xBlob = repo.git('rev-parse', `${initial}:src/x.ts`);
      expect(byName.get('src/d.ts')?.has(cBlob)).toBe(false);
      expect(byName.get('src/z.ts')?.has(xBlob)).toBe(false);
      expect(expected.get('src/d.ts')?.has(sha16(lines(20, 'c')))).toBe(true);
      expect(expected.get('src/z.ts')?.has(sha16(lines(20, 'x')))).toBe(true);
      expect(expected.get('src/untracked.ts')).toBeNull();
      expect(expected.get('src/staged.ts')?.size).toBe(1);
    } finally {
      await history.close();
    }
  });

  it('reads the index once for many paths, with the answers of one path at a time', async () => {
    const repo = renamingRepo();
    // A submodule's entry (a commit, not a blob) and a conflicted path (no stage-0 entry) track nothing.
    const head = repo.git('rev-parse', 'HEAD');
    repo.git('update-index', '--add', '--cacheinfo', `160000,${head},vendor/sub`);
    const blob = repo.git('rev-parse', 'HEAD:src/b.ts');
    const conflicted = ['1', '2', '3'].map((stage) => `100644 ${blob} ${stage}\tsrc/conflicted.ts\n`).join('');
    execFileSync('git', ['update-index', '--index-info'], { cwd: repo.dir, env: ENV, input: conflicted });
    const paths = [...everyPath(repo), 'src/staged.ts', 'src/untracked.ts', 'vendor/sub', 'src/conflicted.ts'];
    expect(paths.length).toBeGreaterThan(16);
    const one = open(repo.dir);
    const expected = new Map<string, Set<string> | null>();
    for (const path of paths) expected.set(path, await one.knownHashes(path));
    await one.close();
    expect(expected.get('vendor/sub')).toBeNull();
    expect(expected.get('src/conflicted.ts')).toBeNull();
    expect(expected.get('src/staged.ts')?.size).toBe(1);
    const all = open(repo.dir);
    expect(await all.knownHashesOf(paths)).toEqual(expected);
    await all.close();
  });

  it('gives the same answers from a check root below the top level', async () => {
    const repo = renamingRepo();
    const root = join(repo.dir, 'src');
    const paths = everyPath(repo, 'src/');
    const history = open(root);
    const expected = new Map<string, Set<string> | null>();
    for (const path of paths) expected.set(path, await perPathKnownHashes(history, path));
    await history.close();
    const batched = open(root);
    expect(await batched.knownHashesOf(paths)).toEqual(expected);
    await batched.close();
  });

  it('runs a few git processes for hundreds of renamed artifacts, not one per artifact', async () => {
    const files: Record<string, string> = {};
    for (let at = 0; at < 300; at += 1) files[`old/f${at}.ts`] = lines(8, `file ${at}`);
    const repo = gitRepo(files);
    repo.git('mv', 'old', 'new');
    repo.commit('move every file');
    const paths = Array.from({ length: 300 }, (_, at) => `new/f${at}.ts`);
    let known = new Map<string, Set<string> | null>();
    const commands = await tracedCommands(repo.dir, async (history) => {
      known = await history.knownHashesOf(paths);
    });
    expect([...known.values()].every((hashes) => hashes?.size === 1)).toBe(true);
    // rev-parse (open, has-commits), rev-list (the tips of the walk, before it and before it is
    // kept), the walk of the 300 names, one diff-tree of the moving commit, the walk of the 300
    // earlier names, and the index read once.
    expect(commands.filter((command) => /\blog\b/.test(command))).toHaveLength(2);
    expect(commands.filter((command) => command.startsWith('diff-tree'))).toHaveLength(1);
    expect(commands.length).toBeLessThanOrEqual(8);
  });
});

/** The git commands (first two words) a history ran while `action` ran, from GIT_TRACE. */
async function tracedCommands(dir: string, action: (history: GitHistory) => Promise<void>, env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  const trace = join(tempDir(), 'trace');
  mkdirSync(join(trace, '..'), { recursive: true });
  writeFileSync(trace, '');
  const history = open(dir, { ...ENV, ...env, GIT_TRACE: trace });
  try {
    await action(history);
  } finally {
    await history.close();
  }
  return readFileSync(trace, 'utf8')
    .split('\n')
    .filter((line) => / trace: built-in: git /.test(line))
    .map((line) =>
      line
        .replace(/^.* trace: built-in: git /, '')
        .split(' ')
        .slice(0, 2)
        .join(' '),
    );
}

const walks = (commands: readonly string[]) => commands.filter((command) => /\blog\b/.test(command)).length;

/** `blobsByPath` of a history opened afresh, and how many `git log` walks that history ran. */
async function walkedBlobs(
  dir: string,
  paths: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ readonly names: Map<string, Set<string>>; readonly walks: number }> {
  let names = new Map<string, Set<string>>();
  const commands = await tracedCommands(
    dir,
    async (history) => {
      names = history.blobsByPath(paths);
    },
    env,
  );
  return { names, walks: walks(commands) };
}

describe('WalkMemo: the walks of earlier runs, kept while the refs stay', () => {
  it('answers a second run without walking, with the same answers, and walks again once a ref moves', async () => {
    const repo = renamingRepo();
    const paths = [...everyPath(repo), 'src/staged.ts', 'src/untracked.ts'];
    const fresh = open(repo.dir);
    const expected = await fresh.knownHashesOf(paths);
    const byName = fresh.blobsByPath(paths);
    await fresh.close();
    expect(existsSync(join(repo.dir, '.git', 'aiwg-cite', 'walks-v1'))).toBe(true);

    let answers = new Map<string, Set<string> | null>();
    let names = new Map<string, Set<string>>();
    const warm = await tracedCommands(repo.dir, async (history) => {
      answers = await history.knownHashesOf(paths);
      names = history.blobsByPath(paths);
    });
    expect(walks(warm)).toBe(0);
    expect(answers).toEqual(expected);
    expect(names).toEqual(byName);

    // A new commit on a branch: the walk starts from other commits, and its new blob is known.
    repo.git('checkout', '-q', '-b', 'later');
    repo.write({ 'src/b.ts': 'a later version\n' });
    repo.commit('later edit of b');
    repo.git('checkout', '-q', 'main');
    const moved = await tracedCommands(repo.dir, async (history) => {
      answers = await history.knownHashesOf(paths);
    });
    expect(walks(moved)).toBeGreaterThan(0);
    expect(answers.get('src/b.ts')?.has(sha16('a later version\n'))).toBe(true);
    expect(expected.get('src/b.ts')?.has(sha16('a later version\n'))).toBe(false);
  });

  it('walks only the paths the memo does not have, and keeps them', async () => {
    const repo = renamingRepo();
    const all = everyPath(repo);
    const expected = (await walkedBlobs(repo.dir, all)).names;
    rmSync(join(repo.dir, '.git', 'aiwg-cite', 'walks-v1'));
    const part = (await walkedBlobs(repo.dir, all.slice(0, 3))).names;
    const second = await walkedBlobs(repo.dir, all);
    expect(second.walks).toBe(1);
    for (const [path, blobs] of part) expect(second.names.get(path)).toEqual(blobs);
    expect(second.names).toEqual(expected);
    expect((await walkedBlobs(repo.dir, all)).walks).toBe(0);
  });

  it('ignores a memo that does not parse, or that another worktree HEAD or a grafts file would change, and rewrites it', async () => {
    const repo = renamingRepo();
    const paths = everyPath(repo);
    const expected = (await walkedBlobs(repo.dir, paths)).names;
    const memo = join(repo.dir, '.git', 'aiwg-cite', 'walks-v1');
    const text = readFileSync(memo, 'utf8');
    for (const broken of [text.slice(0, text.length / 2), text.replace(/"[0-9a-f]{40}"/, '"not a sha"'), '[]', '']) {
      writeFileSync(memo, broken);
      const rewritten = await walkedBlobs(repo.dir, paths);
      expect(rewritten.walks).toBe(1);
      expect(rewritten.names).toEqual(expected);
      expect(readFileSync(memo, 'utf8')).toBe(text);
    }
    // A linked worktree on an unmerged commit adds its HEAD to what `--all` walks.
    const unmerged = repo.git('rev-parse', 'unmerged');
    repo.git('branch', '-q', '-D', 'unmerged');
    const pruned = await walkedBlobs(repo.dir, paths);
    expect(pruned.walks).toBe(1);
    repo.git('worktree', 'add', '-q', '--detach', join(tempDir(), 'linked'), unmerged);
    const linked = await walkedBlobs(repo.dir, paths);
    expect(linked.walks).toBe(1);
    expect(linked.names).toEqual(expected);
    expect(pruned.names).not.toEqual(expected);
    // Grafts rewrite parents: a memo from before them is not used.
    const previous = repo.git('rev-parse', 'HEAD~1');
    writeFileSync(join(repo.dir, '.git', 'info', 'grafts'), `${repo.git('rev-parse', 'HEAD')}\n`);
    expect((await walkedBlobs(repo.dir, paths)).walks).toBe(1);
    // So do the grafts of a file GIT_GRAFT_FILE names, as they change.
    const named = join(tempDir(), 'grafts');
    writeFileSync(named, '');
    const withGrafts = async () => (await walkedBlobs(repo.dir, paths, { GIT_GRAFT_FILE: named })).walks;
    expect(await withGrafts()).toBe(1);
    expect(await withGrafts()).toBe(0);
    writeFileSync(named, `${previous}\n`);
    expect(await withGrafts()).toBe(1);
  });

  it('is not kept when the refs move while the run walks', () => {
    const repo = renamingRepo();
    const run = (args: readonly string[], input?: string) =>
      execFileSync('git', args, { cwd: repo.dir, env: ENV, encoding: 'utf8', ...(input === undefined ? {} : { input }) });
    const memo = new WalkMemo(join(repo.dir, '.git'));
    let state = 0;
    const walk = new PathWalk(run, { memo, tips: () => `state ${state}` });
    walk.walk(['src/b.ts']);
    state += 1;
    walk.save();
    expect(existsSync(memo.path)).toBe(false);
    const steady = new PathWalk(run, { memo, tips: () => `state ${state}` });
    steady.walk(['src/b.ts']);
    steady.save();
    const kept = memo.read(`state ${state}`)?.touches.get('src/b.ts') ?? [];
    expect(kept.length).toBeGreaterThan(1);
    expect(new Set(kept.flatMap((touch) => (touch.blob === null ? [] : [touch.blob])))).toEqual(steady.blobs('src/b.ts'));
    expect(memo.read('state 0')).toBeNull();
  });

  it('is not kept when the refs moved since the run first looked, which its state and its walks both start from', () => {
    const repo = renamingRepo();
    const run = (args: readonly string[], input?: string) =>
      execFileSync('git', args, { cwd: repo.dir, env: ENV, encoding: 'utf8', ...(input === undefined ? {} : { input }) });
    const memo = new WalkMemo(join(repo.dir, '.git'));
    const walk = new PathWalk(run, { memo, tips: () => 'state 0', tipsNow: () => 'state 1' });
    walk.walk(['src/b.ts']);
    walk.save();
    expect(existsSync(memo.path)).toBe(false);
  });

  it('asks git where the refs stand once per repository opened: its facts state and its walk share the look', async () => {
    const repo = renamingRepo();
    const trace = join(tempDir(), 'trace.txt');
    const history = open(repo.dir, { ...ENV, GIT_TRACE: trace });
    const state = history.factsState();
    history.blobsByPath(['src/b.ts']);
    expect(history.factsState()).toBe(state);
    await history.close();
    const looks = readFileSync(trace, 'utf8')
      .split('\n')
      .filter((line) => line.includes('built-in: git rev-list --no-walk --all'));
    // The first look, and the one that decides whether the walk is kept (the refs did not move).
    expect(looks).toHaveLength(2);
    expect(readFileSync(join(repo.dir, '.git', 'aiwg-cite', 'walks-v1'), 'utf8')).toContain('src/b.ts');
  });

  it('is not kept in a shallow clone', async () => {
    const repo = renamingRepo();
    const clone = join(tempDir(), 'shallow');
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${repo.dir}`, clone], { env: ENV });
    const history = open(clone);
    history.blobsByPath(['src/b.ts']);
    await history.close();
    expect(existsSync(join(clone, '.git', 'aiwg-cite', 'walks-v1'))).toBe(false);
  });
});
