import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { GIT_ENV, gitRepo, runCli, sha16, tempDir, writeTree } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

const numbered = (count: number) => Array.from({ length: count }, (_, at) => `line ${at + 1}`);
const text = (lines: readonly string[]) => lines.map((line) => `${line}\n`).join('');

interface BlameJson {
  file: string;
  line: number;
  column: number;
  text: string;
  artifact: string;
  hash: string;
  pinned: { sha: string; date: string } | null;
  staling: { sha: string; author: string; date: string; subject: string } | null;
  region: { sha: string; author: string; date: string; subject: string } | null;
  drift: string;
  newLines: string | null;
}

/** A repository whose doc.md cites a.ts as first committed, after a.ts moved its lines and then changed one. */
function staleRepo() {
  const repo = gitRepo();
  const lines = numbered(10);
  repo.write({ 'a.ts': text(lines) });
  const pin = repo.commit('add a.ts');
  const hash = sha16(text(lines));
  const shifted = ['// one', '// two', ...lines];
  repo.write({ 'a.ts': text(shifted) });
  const staling = repo.commit('add a header to a.ts');
  repo.write({ 'a.ts': text(shifted.map((line) => (line === 'line 8' ? 'line eight' : line))) });
  const region = repo.commit('reword line 8');
  repo.write({ 'doc.md': `# Notes\n\nSetup is in [a.ts@${hash}, L2-3].\nThe check is [a.ts@${hash}, L7-9].\nFresh: [a.ts, L1]\n` });
  return { repo, pin, staling, region, hash };
}

describe('aiwg-cite blame', () => {
  it('lists every stale citation as stable JSON: pinned, staling, region, drift, newLines', () => {
    const { repo, pin, staling, region, hash } = staleRepo();
    const run = runCli(['blame', 'doc.md', '--format', 'json'], { cwd: repo.dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const entries = JSON.parse(run.stdout) as BlameJson[];
    expect(entries.map((entry) => Object.keys(entry))).toEqual(
      Array(2).fill([
        'file',
        'line',
        'column',
        'text',
        'artifact',
        'hash',
        'pinned',
        'staling',
        'region',
        'drift',
        'newLines',
        'deletedBy',
      ]),
    );
    const [moved, changed] = entries;
    expect(moved).toMatchObject({
      file: 'doc.md',
      line: 3,
      column: 13,
      text: `[a.ts@${hash}, L2-3]`,
      artifact: 'a.ts',
      hash,
      pinned: { sha: pin },
      staling: { sha: staling, author: 'Test Author', subject: 'add a header to a.ts' },
      region: null,
      drift: 'moved',
      newLines: 'L4-5',
    });
    expect(moved?.pinned?.date).toMatch(/^2026-01-01T00:01:00/);
    expect(changed).toMatchObject({
      line: 4,
      pinned: { sha: pin },
      staling: { sha: staling },
      region: { sha: region, subject: 'reword line 8' },
      drift: 'changed',
      newLines: 'L9-11',
    });
  });

  it('pretty output reads like git blame for one citation and shows the region diff for --line', () => {
    const { repo, pin, staling, region } = staleRepo();
    const run = runCli(['blame', 'doc.md', '--line', '4'], { cwd: repo.dir });
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(out).toContain('doc.md:4:14  [a.ts@');
    expect(out).toContain(`pinned   ${pin.slice(0, 12)} 2026-01-01`);
    expect(out).toContain(`staling  ${staling.slice(0, 12)} 2026-01-01  Test Author  add a header to a.ts`);
    expect(out).toContain(`region   ${region.slice(0, 12)} 2026-01-01  Test Author  reword line 8`);
    expect(out).toContain("drift    changed: the cited lines' content changed (now around L9-11)");
    expect(out).toContain(['    @@ -7,3 +9,3 @@', '     line 7', '    -line 8', '    +line eight', '     line 9'].join('\n'));
    expect(out).not.toContain('L2-3');
  });

  it('--line on a fresh citation says so; on a line without one it is a usage error', () => {
    const { repo } = staleRepo();
    const hash = sha16(`${repo.git('show', 'HEAD:a.ts')}\n`);
    repo.write({ 'fresh.md': `[a.ts@${hash}, L1]\n` });
    const fresh = runCli(['blame', 'fresh.md', '--line', '1'], { cwd: repo.dir });
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toBe('fresh.md:1: the citation is fresh; there is nothing to blame\n');
    const none = runCli(['blame', 'doc.md', '--line', '1'], { cwd: repo.dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toBe('aiwg-cite: doc.md:1: no versioned RLM citation on this line\n');
  });

  it('exits 2 with one line outside git, and for a bad flag', () => {
    const dir = tempDir();
    writeTree(dir, { 'a.ts': 'x\n', 'doc.md': '[a.ts@0123456789abcdef]\n' });
    const run = runCli(['blame', 'doc.md'], { cwd: dir, env: { GIT_CEILING_DIRECTORIES: join(dir, '..') } });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`aiwg-cite: ${dir}: blame needs a git repository (it reads the cited files' history)\n`);
    const bad = runCli(['blame', '--bogus'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^aiwg-cite: blame: Unknown option '--bogus'/);
  });

  it('works with --root below the git top level (artifact paths relative to the root)', () => {
    const repo = gitRepo({ 'site/src/a.ts': text(numbered(3)) });
    const hash = sha16(text(numbered(3)));
    repo.write({ 'site/src/a.ts': text(['top', ...numbered(3)]) });
    const staling = repo.commit('prepend');
    repo.write({ 'site/doc.md': `[src/a.ts@${hash}, L2]\n` });
    const run = runCli(['blame', '--root', 'site', '--format', 'json'], { cwd: repo.dir });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([
      expect.objectContaining({
        file: 'doc.md',
        artifact: 'src/a.ts',
        staling: expect.objectContaining({ sha: staling }),
        drift: 'moved',
        newLines: 'L3',
      }),
    ]);
  });

  it('reads the history of a symlinked artifact through its target', () => {
    const repo = gitRepo({ 'real.ts': text(numbered(3)), 'alias.ts': { symlink: 'real.ts' } });
    const hash = sha16(text(numbered(3)));
    repo.write({ 'real.ts': text(['top', ...numbered(3)]) });
    const staling = repo.commit('prepend');
    repo.write({ 'doc.md': `[alias.ts@${hash}, L1]\n` });
    const run = runCli(['blame', 'doc.md', '--format', 'json'], { cwd: repo.dir });
    expect(JSON.parse(run.stdout)).toEqual([
      expect.objectContaining({ artifact: 'alias.ts', staling: expect.objectContaining({ sha: staling }), drift: 'moved', newLines: 'L2' }),
    ]);
  });

  it('says deleted and names the deleting commit', () => {
    const repo = gitRepo({ 'old.ts': 'a\nb\n' });
    const hash = sha16('a\nb\n');
    repo.git('rm', '-q', 'old.ts');
    const deleted = repo.commit('remove old.ts');
    repo.write({ 'doc.md': `[old.ts@${hash}, L1]\n` });
    const run = runCli(['blame', '--format', 'json'], { cwd: repo.dir });
    expect(run.code).toBe(0);
    const [entry] = JSON.parse(run.stdout) as (BlameJson & { deletedBy: { sha: string } })[];
    expect(entry).toMatchObject({ drift: 'deleted', deletedBy: { sha: deleted }, newLines: null });
    const pretty = runCli(['blame'], { cwd: repo.dir });
    expect(pretty.stdout).toContain(`drift    deleted: the artifact no longer exists (removed in ${deleted.slice(0, 12)})`);
  });

  it('in a shallow clone, says the history is incomplete instead of guessing', () => {
    const { repo, hash } = staleRepo();
    repo.commit('commit the doc');
    const clone = join(tempDir(), 'clone');
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${repo.dir}`, clone], { env: { ...process.env, ...GIT_ENV } });
    const run = runCli(['blame', 'doc.md', '--format', 'json'], { cwd: clone });
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as BlameJson[]).map((entry) => [entry.hash, entry.drift, entry.pinned])).toEqual([
      [hash, 'shallow', null],
      [hash, 'shallow', null],
    ]);
    const check = runCli(['check', 'doc.md', '--format', 'json'], { cwd: clone });
    const report = JSON.parse(check.stdout) as { citations: { status: string }[]; coverage: { notes: string[] } };
    expect(report.citations.map((finding) => finding.status)).toEqual(['stale', 'stale', 'unversioned']);
    expect(report.coverage.notes.some((note) => note.startsWith('shallow clone: history is incomplete'))).toBe(true);
  });
});

describe('aiwg-cite check: unknown-hash', () => {
  it('a fabricated hash is an unknown-hash error; a real old one stays stale; --no-history skips the pass', () => {
    const repo = gitRepo({ 'a.ts': 'v1\n' });
    repo.write({ 'a.ts': 'v2\n' });
    repo.commit('v2');
    repo.write({ 'doc.md': `Old: [a.ts@${sha16('v1\n')}]\nMade up: [a.ts@00000000deadbeef]\n` });
    const run = runCli(['check', 'doc.md', '--format', 'json'], { cwd: repo.dir });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { verdict: string; citations: Record<string, unknown>[] };
    expect(report.citations.map((finding) => [finding.line, finding.status, finding.severity, finding.rule])).toEqual([
      [1, 'stale', 'warning', 'rlm/stale'],
      [2, 'unknown-hash', 'error', 'rlm/unknown-hash'],
    ]);
    const pretty = runCli(['check', 'doc.md'], { cwd: repo.dir });
    expect(pretty.stdout).toContain('doc.md:2:10  error    rlm/unknown-hash  UNKNOWN-HASH [a.ts@00000000deadbeef]');
    expect(pretty.stdout).toContain(`warning  rlm/stale  STALE [a.ts@${sha16('v1\n')}]`);
    expect(pretty.stdout).toContain(`is now \`${sha16('v2\n')}\``);
    expect(pretty.stdout).toContain('error 1: rlm/unknown-hash 1\nwarning 1: rlm/stale 1\n');

    const skipped = runCli(['check', 'doc.md', '--format', 'json', '--no-history'], { cwd: repo.dir });
    expect(skipped.code).toBe(0);
    expect((JSON.parse(skipped.stdout) as { citations: { status: string }[] }).citations.map((finding) => finding.status)).toEqual([
      'stale',
      'stale',
    ]);
  });

  it('a revert that restores the pinned content makes the citation fresh again', () => {
    const repo = gitRepo({ 'a.ts': 'original\n' });
    const hash = sha16('original\n');
    repo.write({ 'a.ts': 'changed\n', 'doc.md': `[a.ts@${hash}]\n` });
    repo.commit('change a.ts');
    expect(runCli(['check', 'doc.md', '--strict'], { cwd: repo.dir }).code).toBe(1);
    repo.git('revert', '--no-edit', 'HEAD');
    repo.write({ 'doc.md': `[a.ts@${hash}]\n` });
    const run = runCli(['check', 'doc.md', '--strict', '--format', 'json'], { cwd: repo.dir });
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { citations: { status: string }[] }).citations[0]?.status).toBe('fresh');
  });

  it('outside git, stale stays stale and the report is what it always was', () => {
    const dir = tempDir();
    writeTree(dir, { 'a.ts': 'now\n', 'doc.md': '[a.ts@00000000deadbeef]\n' });
    const run = runCli(['check', 'doc.md'], { cwd: dir, env: { GIT_CEILING_DIRECTORIES: join(dir, '..') } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('STALE [a.ts@00000000deadbeef]');
    expect(run.stdout).toContain('Checked 1 file: rlm 1; rlm = code citations pinned to a file, lines and a content hash.\n');
  });
});
