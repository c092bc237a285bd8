import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createConfinedReader, type FileSystem, type Finding, rlmChecker } from '@aiwg-cite/core';
import { GIT_ENV, type GitRepo, gitRepo, sha16, tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { checkStaged, citationIndexPath, indexPartPath, type StagedCheckInput, summaryPath, toRootRelative } from '../src/index.ts';

/** The working tree, for the `.aiwg/` fallback (the git package does not depend on the node host). */
const workingTreeFs: FileSystem = {
  realpath: (path) => (existsSync(path) ? realpathSync(path) : null),
  stat: (path) => {
    if (!existsSync(path)) return null;
    const stats = statSync(path);
    return stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : 'other';
  },
  readFile: (path) => readFileSync(path),
  readdir: (path) => readdirSync(path),
};

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({ ...process.env, ...GIT_ENV, ...extra });

function run(repo: GitRepo, extra: Partial<StagedCheckInput> = {}) {
  return checkStaged({
    root: repo.dir,
    env: env(),
    sha256,
    checkers: [rlmChecker],
    workingTree: createConfinedReader(workingTreeFs, repo.dir),
    writeFile: (path, contents) => {
      writeFileSync(`${path}.tmp`, contents);
      renameSync(`${path}.tmp`, path);
      return true;
    },
    ...extra,
  });
}

const brief = (findings: readonly Finding[]) =>
  findings
    .filter((finding) => finding.severity !== 'ok')
    .map(
      (finding) => `${finding.file}:${finding.line} ${finding.status}${finding.cause === undefined ? '' : ` (${String(finding.cause)})`}`,
    );

const CODE = 'one\ntwo\nthree\n';

describe('check --staged reads the index', () => {
  it('checks staged markdown against staged artifacts, not the working tree', async () => {
    const repo = gitRepo({ 'src/a.ts': CODE });
    repo.write({ 'docs/new.md': `Fresh [src/a.ts@${sha16(CODE)}, L1-3].\n` });
    repo.git('add', 'docs/new.md');
    // The working tree copy changes after staging: the commit still holds the staged bytes.
    writeFileSync(join(repo.dir, 'src/a.ts'), 'changed\n');
    writeFileSync(join(repo.dir, 'docs/new.md'), 'Broken [src/nope.ts, L1].\n');
    const { report } = await run(repo);
    expect(report.verdict).toBe('PASS');
    expect(report.citations.map((finding) => finding.status)).toEqual(['fresh']);
  });

  it('reports a citation of an untracked file as missing: the commit would publish it dangling', async () => {
    const repo = gitRepo({ 'README.md': '# x\n' });
    repo.write({ 'src/untracked.ts': CODE, 'docs/new.md': `See [src/untracked.ts@${sha16(CODE)}].\n` });
    repo.git('add', 'docs/new.md');
    const { report } = await run(repo);
    expect(report.verdict).toBe('FAIL');
    expect(brief(report.citations)).toEqual(['docs/new.md:1 missing']);
  });

  it('treats a staged deletion as missing even though the file is back in the working tree', async () => {
    const repo = gitRepo({ 'src/a.ts': CODE, 'README.md': '# x\n' });
    repo.git('rm', '-q', '--cached', 'src/a.ts');
    repo.write({ 'docs/new.md': '[src/a.ts, L1]\n' });
    repo.git('add', 'docs/new.md');
    const { report } = await run(repo);
    expect(brief(report.citations)).toEqual(['docs/new.md:1 missing']);
  });

  it('falls back to the working tree for .aiwg/ artifacts that the index does not hold', async () => {
    const repo = gitRepo({ '.gitignore': '.aiwg/\n' });
    repo.write({ '.aiwg/notes.md': CODE, 'docs/new.md': `[.aiwg/notes.md@${sha16(CODE)}] [src/gone.ts@${sha16(CODE)}]\n` });
    repo.git('add', 'docs/new.md');
    const { report } = await run(repo);
    expect(brief(report.citations)).toEqual(['docs/new.md:1 missing']);
    expect(report.citations.find((finding) => finding.artifact === '.aiwg/notes.md')?.status).toBe('fresh');
  });

  it('resolves staged symlinks inside the root and refuses links that leave it or loop', async () => {
    const repo = gitRepo({
      'src/a.ts': CODE,
      'link.ts': { symlink: 'src/a.ts' },
      dirlink: { symlink: 'src' },
      'escape.ts': { symlink: '../../etc/passwd' },
      'loop1.ts': { symlink: 'loop2.ts' },
      'loop2.ts': { symlink: 'loop1.ts' },
    });
    const hash = sha16(CODE);
    repo.write({ 'docs/new.md': `[link.ts@${hash}] [dirlink/a.ts@${hash}] [escape.ts, L1] [loop1.ts, L1] [src@${hash}]\n` });
    repo.git('add', 'docs/new.md');
    const { report } = await run(repo);
    expect(report.citations.map((finding) => `${finding.artifact} ${finding.status}`)).toEqual([
      'link.ts fresh',
      'dirlink/a.ts fresh',
      'escape.ts outside-root',
      'loop1.ts missing',
      'src not-a-file',
    ]);
  });

  it('suggests the staged name when only the case differs', async () => {
    const repo = gitRepo({ 'src/Auth.ts': CODE });
    repo.write({ 'docs/new.md': '[src/auth.ts, L1]\n' });
    repo.git('add', 'docs/new.md');
    const { report } = await run(repo);
    expect(report.citations[0]?.status).toBe('missing');
    expect(report.citations[0]?.fix).toContain('src/Auth.ts');
  });

  it('turns a staged citation pinned to a hash the artifact never had into unknown-hash (a fabricated pin)', async () => {
    const repo = gitRepo({ 'src/a.ts': CODE });
    repo.write({ 'src/a.ts': `${CODE}four\n` });
    repo.commit('grow');
    repo.write({ 'docs/new.md': `Old [src/a.ts@${sha16(CODE)}].\nInvented [src/a.ts@0123456789abcdef].\n` });
    repo.git('add', 'docs/new.md');
    const { report } = await run(repo);
    expect(brief(report.citations)).toEqual(['docs/new.md:1 stale', 'docs/new.md:2 unknown-hash']);
    expect(report.verdict).toBe('FAIL');
    const without = await run(repo, { history: false });
    expect(brief(without.report.citations)).toEqual(['docs/new.md:1 stale', 'docs/new.md:2 stale']);
  });

  it('honours GIT_INDEX_FILE: a custom index is what gets checked', async () => {
    const repo = gitRepo({ 'src/a.ts': CODE, 'docs/a.md': '# a\n' });
    const custom = join(repo.dir, '.git', 'custom-index');
    const customEnv = env({ GIT_INDEX_FILE: custom });
    repo.git('read-tree', 'HEAD', `--index-output=${custom}`);
    repo.write({ 'docs/b.md': '[src/missing.ts, L1]\n' });
    // Staged only in the custom index; the default index stays clean.
    const { execFileSync } = await import('node:child_process');
    execFileSync('git', ['add', 'docs/b.md'], { cwd: repo.dir, env: customEnv });
    const clean = await run(repo);
    expect(clean.report.summary.files).toBe(0);
    const { report } = await run(repo, { env: customEnv });
    expect(brief(report.citations)).toEqual(['docs/b.md:1 missing']);
  });

  it('refuses an unmerged index (exit 2)', async () => {
    const repo = gitRepo({ 'docs/a.md': 'base\n' });
    repo.git('checkout', '-q', '-b', 'other');
    repo.write({ 'docs/a.md': 'other\n' });
    repo.commit('other');
    repo.git('checkout', '-q', 'main');
    repo.write({ 'docs/a.md': 'main\n' });
    repo.commit('main');
    expect(() => repo.git('merge', '-q', 'other')).toThrow();
    await expect(run(repo)).rejects.toMatchObject({ code: 'UNMERGED_INDEX', message: expect.stringContaining('docs/a.md') });
  });

  it('with explicit files checks only their staged versions and never widens', async () => {
    const repo = gitRepo({ 'src/a.ts': CODE });
    repo.write({ 'docs/one.md': '[src/a.ts, L9]\n', 'docs/two.md': '[src/missing.ts, L1]\n' });
    repo.git('add', '.');
    writeFileSync(join(repo.dir, 'docs/one.md'), '[src/a.ts, L1]\n');
    const { report } = await run(repo, { files: [toRootRelative(repo.dir, repo.dir, join(repo.dir, 'docs/one.md'))] });
    expect(brief(report.citations)).toEqual(['docs/one.md:1 invalid-range']);
    await expect(run(repo, { files: ['docs/unstaged.md'] })).rejects.toMatchObject({ code: 'INPUT_UNREADABLE' });
  });

  it('takes explicit paths through a symlinked directory, and skips a staged symlink to a document', async () => {
    const repo = gitRepo({ 'src/a.ts': CODE, 'docs/real.md': '[src/gone.ts, L1]\n', 'docs/alias.md': { symlink: 'real.md' } });
    const outside = tempDir();
    const via = join(outside, 'checkout');
    symlinkSync(repo.dir, via);
    expect(toRootRelative(repo.dir, outside, 'checkout/docs/alias.md')).toBe('docs/alias.md');
    const files = ['docs/real.md', 'docs/alias.md'].map((path) => toRootRelative(repo.dir, outside, join(via, path)));
    const { report, documents } = await run(repo, { files });
    expect(documents).toEqual(['docs/real.md']);
    expect(brief(report.citations)).toEqual(['docs/real.md:1 missing']);
    expect(() => toRootRelative(repo.dir, outside, 'elsewhere.md')).toThrow(/outside the repository/);
  });

  it('gives the same verdicts split over several runs as in one run (lint-staged chunks)', async () => {
    const repo = gitRepo({ 'src/a.ts': CODE });
    const tree: Record<string, string> = {};
    for (let index = 0; index < 12; index += 1)
      tree[`docs/d${index}.md`] = index % 3 === 0 ? '[src/none.ts, L1]\n' : `[src/a.ts@${sha16(CODE)}]\n`;
    repo.write(tree);
    repo.git('add', '.');
    const all = Object.keys(tree).sort();
    const whole = await run(repo, { files: all });
    const parts = await Promise.all([run(repo, { files: all.slice(0, 5) }), run(repo, { files: all.slice(5) })]);
    expect(parts.flatMap((part) => brief(part.report.citations))).toEqual(brief(whole.report.citations));
    expect(brief(whole.report.citations)).toHaveLength(4);
  });
});

describe('the reverse direction: committed documents the staged change breaks', () => {
  const setup = () => {
    const hash = sha16(CODE);
    return gitRepo({
      'src/a.ts': CODE,
      'src/b.ts': CODE,
      'docs/one.md': `Fresh [src/a.ts@${hash}, L1].\nAlready stale [src/a.ts@0000000000000000].\n`,
      'docs/two.md': `\n\n<!-- aiwg-cite-disable-next-line -->\n[src/a.ts@${hash}]\n[src/b.ts, L2]\n`,
    });
  };

  it('reports citations this commit makes stale, as warnings with cause staged-change', async () => {
    const repo = setup();
    repo.write({ 'src/a.ts': `${CODE}four\n` });
    repo.git('add', 'src/a.ts');
    const { report, stagedChange } = await run(repo);
    expect(brief(report.citations)).toEqual(['docs/one.md:1 stale (staged-change)']);
    expect(report.citations[0]?.severity).toBe('warning');
    expect(report.verdict).toBe('PASS');
    expect(stagedChange).toEqual({ stale: 1, missing: 0 });
    expect(report.coverage.notes.join(' ')).toContain('this commit makes 1 citation stale');
  });

  it('reports citations of a deleted file as missing errors', async () => {
    const repo = setup();
    repo.git('rm', '-q', 'src/b.ts');
    const { report } = await run(repo);
    expect(brief(report.citations)).toEqual(['docs/two.md:5 missing (staged-change)']);
    expect(report.verdict).toBe('FAIL');
    expect(report.citations[0]?.fix).toContain('git restore --staged src/b.ts');
    expect(report.citations[0]?.message).toBe('`src/b.ts` is deleted by this commit');
    expect(report.coverage.notes).toContain('this commit makes 1 citation missing in committed documents');
  });

  it("a bare [path] that named a file from its document's folder is a citation once the commit deletes that file", async () => {
    const repo = gitRepo({
      'packages/foo/src/index.ts': CODE,
      'packages/foo/README.md': 'Start in [src/index.ts].\n',
      'packages/bar/README.md': 'Start in [src/index.ts] too.\n',
      'packages/bar/src/index.ts': CODE,
    });
    repo.git('rm', '-q', 'packages/foo/src/index.ts');
    const { report } = await run(repo);
    expect(brief(report.citations)).toEqual(['packages/foo/README.md:1 missing (staged-change)']);
    expect(report.citations[0]?.message).toBe('`packages/foo/src/index.ts` is deleted by this commit');
    expect(report.verdict).toBe('FAIL');
  });

  it('names where a renamed file went: an added path with the deleted one’s content', async () => {
    const repo = setup();
    repo.git('mv', 'src/b.ts', 'src/moved.ts');
    const { report } = await run(repo);
    expect(brief(report.citations)).toEqual(['docs/two.md:5 missing (staged-change)']);
    expect(report.citations[0]?.message).toBe('`src/b.ts` is renamed to `src/moved.ts` by this commit (the same content)');
    expect(report.citations[0]?.fix).toBe(
      'cite `src/moved.ts` instead (the content hash stays), or move it back (`git mv src/moved.ts src/b.ts`)',
    );
    // Renamed and changed: no longer the same content, so only deleted.
    repo.write({ 'src/moved.ts': 'other\n' });
    repo.git('add', 'src/moved.ts');
    expect((await run(repo)).report.citations[0]?.message).toBe('`src/b.ts` is deleted by this commit');
  });

  it('does not report a staged document twice', async () => {
    const repo = setup();
    repo.git('rm', '-q', 'src/b.ts');
    repo.write({ 'docs/two.md': '[src/b.ts, L2]\n' });
    repo.git('add', 'docs/two.md');
    const { report } = await run(repo);
    expect(brief(report.citations)).toEqual(['docs/two.md:1 missing']);
  });

  /** The 64 parts of the citation index beside `file`. */
  const parts = (file: string) => Array.from({ length: 64 }, (_, at) => indexPartPath(file, at));
  const readPart = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { generation: string; cited: [string, unknown[]][] };
  /** The summary, its blobs (kept as one string of hex) as a list. */
  const readSummary = (file: string) => {
    const stored = JSON.parse(readFileSync(summaryPath(file), 'utf8')) as {
      generation: string;
      oids: string;
      oidWidth: number;
      artifacts: string[];
    };
    return { ...stored, oids: stored.oids.match(new RegExp(`.{${stored.oidWidth}}`, 'g')) ?? [] };
  };
  /** The part that holds the citations of `artifact`. */
  const partHolding = (file: string, artifact: string) =>
    parts(file).find((path) => readPart(path).cited.some(([cited]) => cited === artifact)) as string;

  it('keeps an index of citations under the git dir, split by cited file, and rebuilds a corrupt part', async () => {
    const repo = setup();
    repo.write({ 'src/a.ts': 'x\n' });
    repo.git('add', 'src/a.ts');
    const file = citationIndexPath(join(repo.dir, '.git'));
    expect(existsSync(summaryPath(file))).toBe(false);
    const first = await run(repo);
    const summary = readSummary(file);
    expect(summary.oids).toContain(repo.git('rev-parse', ':docs/one.md'));
    expect(summary.generation).toMatch(/^[0-9a-f]{16}$/);
    for (const path of parts(file)) expect(readPart(path).generation).toBe(summary.generation);
    // A part that is not JSON is no part: the index is built again.
    const holding = partHolding(file, 'src/a.ts');
    writeFileSync(holding, '{ not json');
    const again = await run(repo);
    expect(brief(again.report.citations)).toEqual(brief(first.report.citations));
    expect(readPart(holding).generation).toBe(readSummary(file).generation);
    expect(readSummary(file).generation).not.toBe(summary.generation);
    // Nor is one whose suppressions are not `[line, rules]` pairs.
    const rebuilt = readSummary(file).generation;
    const suppressed = repo.git('rev-parse', ':docs/two.md');
    writeFileSync(holding, JSON.stringify({ ...readPart(holding), suppressions: { [suppressed]: [['3', 'all']] } }));
    expect(brief((await run(repo)).report.citations)).toEqual(brief(first.report.citations));
    expect(readSummary(file).generation).not.toBe(rebuilt);
    // The one-file index of format 2, and its summary: rebuilt in parts, the old file removed.
    rmSync(summaryPath(file));
    writeFileSync(file, JSON.stringify({ version: 2, includeCode: false, blobs: {} }));
    const upgraded = await run(repo);
    expect(brief(upgraded.report.citations)).toEqual(brief(first.report.citations));
    expect(existsSync(file)).toBe(false);
    expect(existsSync(summaryPath(file))).toBe(true);
    // Without a writer, the index is built in memory and not kept.
    rmSync(dirname(file), { recursive: true });
    const without = await run(repo, { writeFile: undefined });
    expect(brief(without.report.citations)).toEqual(['docs/one.md:1 stale (staged-change)']);
    expect(existsSync(summaryPath(file))).toBe(false);
  });

  /** A repository with an uncited `src/c.ts` whose citation index a first staged run built; nothing staged. */
  const builtIndex = async () => {
    const repo = setup();
    repo.write({ 'src/c.ts': CODE });
    repo.commit('uncited file');
    repo.write({ 'src/a.ts': 'x\n' });
    repo.git('add', 'src/a.ts');
    await run(repo);
    repo.git('reset', '-q');
    const file = citationIndexPath(join(repo.dir, '.git'));
    return { repo, file };
  };

  it('answers from the small summary when no changed path is cited, without reading a part', async () => {
    const { repo, file } = await builtIndex();
    expect(readSummary(file).artifacts.sort()).toEqual(['src/a.ts', 'src/b.ts']);
    for (const path of parts(file)) writeFileSync(path, 'corrupt on purpose: the fast path must not need it');
    repo.write({ 'src/c.ts': 'changed\n', 'docs/four.md': '# four\n' });
    repo.git('add', 'src/c.ts', 'docs/four.md');
    expect(brief((await run(repo)).report.citations)).toEqual([]);
    for (const path of parts(file)) expect(readFileSync(path, 'utf8')).toBe('corrupt on purpose: the fast path must not need it');
    // A cited file changes: the parts are needed, found corrupt, and the index built again.
    repo.git('rm', '-q', '--cached', 'src/b.ts');
    expect(brief((await run(repo)).report.citations)).toEqual(['docs/two.md:5 missing (staged-change)']);
    for (const path of parts(file)) expect(readPart(path).generation).toBe(readSummary(file).generation);
  });

  it('answers from the summary when only a staged document cites the changed path: it is checked from the index, not looked up', async () => {
    const { repo, file } = await builtIndex();
    writeFileSync(file, 'corrupt on purpose: the fast path must not need it');
    repo.write({ 'src/c.ts': `${CODE}four\n`, 'docs/four.md': `[src/c.ts@${sha16(CODE)}, L1]\n` });
    repo.git('add', 'src/c.ts', 'docs/four.md');
    expect(brief((await run(repo)).report.citations)).toEqual(['docs/four.md:1 stale']);
    expect(readFileSync(file, 'utf8')).toBe('corrupt on purpose: the fast path must not need it');
  });

  it('finds citations in documents changed since the index was built', async () => {
    const repo = setup();
    repo.write({ 'src/a.ts': 'x\n' });
    repo.git('add', 'src/a.ts');
    await run(repo);
    repo.git('reset', '-q');
    repo.write({ 'docs/three.md': `[src/a.ts@${sha16(CODE)}]\n`, 'src/a.ts': CODE });
    repo.commit('three');
    repo.git('rm', '-q', 'src/a.ts');
    const { report } = await run(repo);
    expect(brief(report.citations)).toEqual([
      'docs/one.md:1 missing (staged-change)',
      'docs/one.md:2 missing (staged-change)',
      'docs/three.md:1 missing (staged-change)',
    ]);
  });

  /** Documents citing three files, their citations interleaved, one suppressed, one document a copy; src/a.ts staged. */
  const interleaved = () => {
    const hash = sha16(CODE);
    const one = `[src/b.ts@${hash}, L1]\n[src/a.ts@${hash}, L2]\n[src/c.ts@${hash}]\n[src/b.ts@${hash}, L3]\n[src/a.ts, L1]\n`;
    const repo = gitRepo({
      'src/a.ts': CODE,
      'src/b.ts': CODE,
      'src/c.ts': CODE,
      'docs/one.md': one,
      'docs/two.md': `<!-- aiwg-cite-disable-next-line -->\n[src/a.ts@${hash}]\n[src/b.ts@${hash}, L2]\n`,
      'docs/copy.md': one,
      'notes/three.md': `[src/a.ts@${hash}, L1-2] and [src/b.ts, L1]\n`,
    });
    repo.write({ 'src/a.ts': 'x\n' });
    repo.git('add', 'src/a.ts');
    return repo;
  };

  it('answers a changed cited file from the parts that hold it, as a run without an index would', async () => {
    const repo = interleaved();
    const file = citationIndexPath(join(repo.dir, '.git'));
    const built = await run(repo);
    expect(brief(built.report.citations)).toContain('docs/one.md:2 stale (staged-change)');
    repo.write({ 'src/b.ts': 'y\n', 'src/c.ts': 'z\n' });
    repo.git('add', 'src/b.ts', 'src/c.ts');
    // Every part that holds none of the three files is corrupt: only the others may be read.
    const holding = new Set(['src/a.ts', 'src/b.ts', 'src/c.ts'].map((artifact) => partHolding(file, artifact)));
    expect(holding.size).toBe(3);
    const others = parts(file).filter((path) => !holding.has(path));
    for (const path of others) writeFileSync(path, 'corrupt on purpose: the parts that hold the files must answer');
    const fromParts = await run(repo);
    for (const path of others) expect(readFileSync(path, 'utf8')).toBe('corrupt on purpose: the parts that hold the files must answer');
    // The same run with no index at all: every document extracted.
    rmSync(dirname(file), { recursive: true });
    const fromDocuments = await run(repo, { writeFile: undefined });
    expect(fromParts.report).toEqual(fromDocuments.report);
    // docs/one.md cites b, a, c, b (three parts): they come back in the order they stand.
    expect(brief(fromParts.report.citations)).toEqual([
      'docs/copy.md:1 stale (staged-change)',
      'docs/copy.md:2 stale (staged-change)',
      'docs/copy.md:3 stale (staged-change)',
      'docs/copy.md:4 stale (staged-change)',
      'docs/one.md:1 stale (staged-change)',
      'docs/one.md:2 stale (staged-change)',
      'docs/one.md:3 stale (staged-change)',
      'docs/one.md:4 stale (staged-change)',
      'docs/two.md:3 stale (staged-change)',
      'notes/three.md:1 stale (staged-change)',
    ]);
  });

  it('never takes a part of another write than the summary names: it builds the index again', async () => {
    const repo = interleaved();
    const file = citationIndexPath(join(repo.dir, '.git'));
    const first = await run(repo);
    const generation = readSummary(file).generation;
    // The part that holds src/a.ts, as a write that never finished (or another run's) leaves it: it
    // names no citation of src/a.ts, and another generation.
    const holding = partHolding(file, 'src/a.ts');
    writeFileSync(holding, JSON.stringify({ ...readPart(holding), generation: 'ffffffffffffffff', cited: [] }));
    const again = await run(repo);
    expect(again.report).toEqual(first.report);
    expect(readSummary(file).generation).not.toBe(generation);
    expect(readPart(holding).generation).toBe(readSummary(file).generation);
    expect(readPart(holding).cited.some(([artifact]) => artifact === 'src/a.ts')).toBe(true);
    // With more new documents than the summary path takes, every part is read; parts that disagree
    // with the summary (a citation of a blob it does not name) are no parts either.
    repo.write(Object.fromEntries(Array.from({ length: 65 }, (_, at) => [`docs/new/${at}.md`, `# ${at}\n`])));
    repo.commit('many new documents');
    repo.git('rm', '-q', '--cached', 'src/a.ts');
    const named = readPart(holding);
    const stray = named.cited.map(([artifact, entries]) => [
      artifact,
      entries.map((entry) => ['0'.repeat(40), ...(entry as unknown[]).slice(1)]),
    ]);
    writeFileSync(holding, JSON.stringify({ ...named, cited: stray }));
    const rebuilt = await run(repo);
    expect(readPart(holding).cited).toEqual(named.cited);
    rmSync(dirname(file), { recursive: true });
    expect(rebuilt.report).toEqual((await run(repo, { writeFile: undefined })).report);
    expect(brief(rebuilt.report.citations)).toContain('docs/one.md:2 missing (staged-change)');
  });

  /** The deltas beside the parts: `by-artifact/delta-<id>.json`. */
  const deltaFiles = (file: string) =>
    readdirSync(dirname(indexPartPath(file, 0)))
      .filter((name) => name.startsWith('delta-'))
      .map((name) => join(dirname(indexPartPath(file, 0)), name));
  const summaryDeltas = (file: string) => (JSON.parse(readFileSync(summaryPath(file), 'utf8')) as { deltas: [string, number][] }).deltas;
  /** `count` new documents from `from` on, each citing the three files in its own order, every fifth with a suppression. */
  const newDocuments = (from: number, count: number) => {
    const hash = sha16(CODE);
    const files = ['src/a.ts', 'src/b.ts', 'src/c.ts'];
    return Object.fromEntries(
      Array.from({ length: count }, (_, at) => {
        const n = from + at;
        const cites = [files[n % 3], files[(n + 1) % 3], files[n % 3]].map((path, line) => `[${path}@${hash}, L${line + 1}]`);
        const suppression = n % 5 === 0 ? '<!-- aiwg-cite-disable-next-line -->\n' : '';
        return [`docs/new/${String(n).padStart(5, '0')}.md`, `# ${n}\n${suppression}${cites.join('\n')}\n`];
      }),
    );
  };
  /** The report of the same staged change with no index at all: every document extracted. */
  const withoutIndex = async (repo: GitRepo, file: string) => {
    const kept = `${dirname(file)}.kept`;
    renameSync(dirname(file), kept);
    try {
      return (await run(repo, { writeFile: undefined })).report;
    } finally {
      rmSync(dirname(file), { recursive: true, force: true });
      renameSync(kept, dirname(file));
    }
  };

  it('keeps documents committed since the parts were written in a delta, and answers from it without rewriting the parts', async () => {
    const repo = interleaved();
    const file = citationIndexPath(join(repo.dir, '.git'));
    await run(repo);
    repo.git('reset', '-q', '--hard');
    const before = parts(file).map((path) => readFileSync(path, 'utf8'));
    const { generation, oids } = readSummary(file);
    // Twenty documents committed without the hook (a pull, say), then an edit of an uncited file staged.
    repo.write({ ...newDocuments(0, 20), 'src/uncited.ts': CODE });
    repo.commit('twenty documents');
    repo.write({ 'src/uncited.ts': 'changed\n' });
    repo.git('add', 'src/uncited.ts');
    expect(brief((await run(repo)).report.citations)).toEqual([]);
    expect(parts(file).map((path) => readFileSync(path, 'utf8'))).toEqual(before);
    const summary = readSummary(file);
    expect(summary.generation).toBe(generation);
    expect(summaryDeltas(file)).toEqual([[expect.stringMatching(/^[0-9a-f]{16}$/), 20]]);
    expect(deltaFiles(file)).toHaveLength(1);
    expect(summary.oids).toEqual([...oids, ...summary.oids.slice(oids.length)]);
    expect(summary.oids).toContain(repo.git('rev-parse', ':docs/new/00007.md'));
    // A cited file changes: the parts that hold it and the delta answer, as a run without an index would.
    repo.write({ 'src/b.ts': 'y\n' });
    repo.git('add', 'src/b.ts');
    for (const path of parts(file).filter((path) => path !== partHolding(file, 'src/b.ts'))) {
      writeFileSync(path, 'corrupt on purpose: the part that holds src/b.ts and the delta must answer');
    }
    const fromDelta = await run(repo);
    expect(fromDelta.report).toEqual(await withoutIndex(repo, file));
    const stale = brief(fromDelta.report.citations).filter((line) => line.startsWith('docs/new/'));
    // Each new document cites src/b.ts once or twice; those with a suppression lose the first line's citation when it is b.
    expect(stale).toContain('docs/new/00001.md:2 stale (staged-change)');
    expect(stale).toContain('docs/new/00001.md:4 stale (staged-change)');
    expect(stale).not.toContain('docs/new/00005.md:3 stale (staged-change)');
    expect(summaryDeltas(file)).toHaveLength(1);
  });

  it('never takes a delta the summary does not name as written: it builds the index again', async () => {
    const repo = interleaved();
    const file = citationIndexPath(join(repo.dir, '.git'));
    await run(repo);
    /** `count` new documents committed without the hook, then the commit hook's run with src/a.ts changed. */
    const afterNewDocuments = async (from: number, count: number) => {
      repo.git('reset', '-q', '--hard');
      repo.write(newDocuments(from, count));
      repo.commit(`${count} documents`);
      repo.write({ 'src/a.ts': 'x\n' });
      repo.git('add', 'src/a.ts');
      return run(repo);
    };
    const first = await afterNewDocuments(0, 20);
    const [delta] = deltaFiles(file) as [string];
    const stored = JSON.parse(readFileSync(delta, 'utf8')) as { blobs: unknown[][] };
    // One blob fewer than the summary says the delta holds.
    writeFileSync(delta, JSON.stringify({ ...stored, blobs: stored.blobs.slice(1) }));
    const generation = readSummary(file).generation;
    const again = await run(repo);
    expect(again.report).toEqual(first.report);
    expect(readSummary(file).generation).not.toBe(generation);
    expect(summaryDeltas(file)).toEqual([]);
    expect(deltaFiles(file)).toEqual([]);
    // A delta that is not JSON is no delta either.
    const third = await afterNewDocuments(20, 17);
    expect(summaryDeltas(file)).toEqual([[expect.any(String), 17]]);
    writeFileSync(deltaFiles(file)[0] as string, '{ not json');
    expect((await run(repo)).report).toEqual(third.report);
    expect(summaryDeltas(file)).toEqual([]);
    expect(third.report).toEqual(await withoutIndex(repo, file));
  });

  it('takes its deltas into one past sixteen, and writes the parts again when the deltas would hold more than a sixteenth of the index', async () => {
    // 4,400 documents: room for 275 blobs in deltas, enough for sixteen deltas of sixteen and a seventeenth.
    const repo = gitRepo({ 'src/a.ts': CODE, 'src/b.ts': CODE, 'src/c.ts': CODE, 'src/uncited.ts': CODE, ...newDocuments(0, 4400) });
    const file = citationIndexPath(join(repo.dir, '.git'));
    repo.write({ 'src/uncited.ts': 'start\n' });
    repo.git('add', 'src/uncited.ts');
    await run(repo);
    const base = readSummary(file).generation;
    let next = 4400;
    const commitDocuments = async (count: number) => {
      repo.git('reset', '-q', '--hard');
      repo.write(newDocuments(next, count));
      next += count;
      repo.commit(`${count} documents`);
      repo.write({ 'src/uncited.ts': `${next}\n` });
      repo.git('add', 'src/uncited.ts');
      await run(repo);
    };
    for (let delta = 0; delta < 16; delta += 1) await commitDocuments(16);
    expect(summaryDeltas(file)).toHaveLength(16);
    expect(deltaFiles(file)).toHaveLength(16);
    await commitDocuments(16);
    expect(summaryDeltas(file)).toEqual([[expect.any(String), 17 * 16]]);
    expect(deltaFiles(file)).toHaveLength(1);
    expect(readSummary(file).generation).toBe(base);
    repo.write({ 'src/c.ts': 'z\n' });
    repo.git('add', 'src/c.ts');
    const merged = await run(repo);
    expect(merged.report).toEqual(await withoutIndex(repo, file));
    // The third from last (4,669: b, c, b) cites src/c.ts on its third line.
    expect(brief(merged.report.citations)).toContain(`docs/new/${String(next - 3).padStart(5, '0')}.md:3 stale (staged-change)`);
    // Sixteen more do not fit the room left (275 - 272): they are extracted on each run, as long as
    // no more than 64 are new; past that the parts are written again and the deltas removed.
    await commitDocuments(16);
    expect(summaryDeltas(file)).toEqual([[expect.any(String), 17 * 16]]);
    await commitDocuments(49);
    expect(readSummary(file).generation).not.toBe(base);
    expect(summaryDeltas(file)).toEqual([]);
    expect(deltaFiles(file)).toEqual([]);
    expect(readSummary(file).oids).toHaveLength(4400 + 18 * 16 + 49);
  });
});
