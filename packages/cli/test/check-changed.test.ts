import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_ENTRY, GIT_ENV, gitRepo, PROJECT_ROOT, runCli, sha16, tempDir, writeTree } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

interface JsonReport {
  readonly verdict: string;
  readonly summary: { readonly files: number; readonly errors: number; readonly warnings: number };
  readonly citations: readonly { readonly file: string; readonly rule: string; readonly status: string }[];
  readonly coverage: { readonly notes: readonly string[] };
}

const A = 'export const a = 1;\n';
const B = 'export const b = 2;\n';

/** A committed repository: two sources, a document citing each (fresh pins), one citing nothing. */
function project() {
  return gitRepo({
    'src/a.ts': A,
    'src/b.ts': B,
    'docs/one.md': `# One\n\nSee [src/a.ts@${sha16(A)}, L1].\n`,
    'docs/two.md': `# Two\n\nSee [src/b.ts@${sha16(B)}, L1].\n`,
    'docs/three.md': '# Three\n\nNo citations here.\n',
  });
}

function changed(dir: string, ...args: string[]): { code: number; report: JsonReport; stderr: string } {
  const run = runCli(['check', '--changed', '--format', 'json', ...args], { cwd: dir });
  return { code: run.code, report: JSON.parse(run.stdout) as JsonReport, stderr: run.stderr };
}

const files = (report: JsonReport) => [...new Set(report.citations.map((citation) => citation.file))].sort();

describe('aiwg-cite check --changed', () => {
  it('checks nothing when nothing changed, and says so', () => {
    const repo = project();
    const { code, report } = changed(repo.dir);
    expect(code).toBe(0);
    expect(report.summary.files).toBe(0);
    expect(report.coverage.notes).toContain('--changed: 0 markdown documents changed since HEAD, 0 more documents cite a changed file');
    const pretty = runCli(['check', '--changed'], { cwd: repo.dir });
    expect(pretty.code).toBe(0);
    expect(pretty.stdout).toMatch(/^PASS \(0 errors, 0 warnings\): 0 files/);
  });

  it('checks an edited document and the documents citing an edited file, with the findings of a full run', () => {
    const repo = project();
    repo.write({ 'src/a.ts': `${A}// edited\n`, 'docs/three.md': '# Three\n\nNow citing [src/b.ts, L1].\n' });
    const { code, report } = changed(repo.dir);
    expect(files(report)).toEqual(['docs/one.md', 'docs/three.md']);
    expect(report.coverage.notes).toContain('--changed: 1 markdown document changed since HEAD, 1 more document cites a changed file');
    expect(report.citations.map((citation) => `${citation.file} ${citation.rule}`)).toEqual([
      'docs/one.md rlm/stale',
      'docs/three.md rlm/unversioned',
    ]);
    expect(code).toBe(0);
    // The same findings, byte for byte, as the full run gives for those documents.
    const full = JSON.parse(runCli(['check', '--format', 'json'], { cwd: repo.dir }).stdout) as JsonReport;
    const scoped = new Set(files(report));
    expect(report.citations).toEqual(full.citations.filter((citation) => scoped.has(citation.file)));
    expect(full.summary.files).toBe(3);
  });

  it('follows deleted, renamed and untracked files, staged or not, and leaves ignored ones out', () => {
    const repo = project();
    repo.git('mv', 'src/a.ts', 'src/c.ts');
    rmSync(join(repo.dir, 'src/b.ts'));
    repo.write({
      '.gitignore': 'scratch/\n',
      'docs/new.md': `New, citing [src/c.ts@${sha16(A)}, L1].\n`,
      'scratch/notes.md': 'Ignored: [src/gone.ts, L1].\n',
    });
    const { code, report } = changed(repo.dir);
    expect(files(report)).toEqual(['docs/new.md', 'docs/one.md', 'docs/two.md']);
    expect(report.citations.map((citation) => `${citation.file} ${citation.rule}`)).toEqual([
      'docs/new.md rlm/fresh',
      'docs/one.md rlm/missing',
      'docs/two.md rlm/missing',
    ]);
    expect(code).toBe(1);
  });

  it("follows a file a bare [path] names from its document's folder: deleted, the reference is a missing citation", () => {
    const repo = gitRepo({ 'packages/foo/src/index.ts': A, 'packages/foo/README.md': '# Foo\n\nStart in [src/index.ts].\n' });
    rmSync(join(repo.dir, 'packages/foo/src/index.ts'));
    const { code, report } = changed(repo.dir);
    expect(report.citations.map((citation) => `${citation.file} ${citation.rule}`)).toEqual(['packages/foo/README.md rlm/missing']);
    expect(code).toBe(1);
  });

  it('compares with another commit under --since, as a pull request does with its base', () => {
    const repo = project();
    const base = repo.git('rev-parse', 'HEAD');
    repo.write({ 'src/b.ts': `${B}// changed on the branch\n` });
    repo.commit('change b');
    expect(changed(repo.dir).report.summary.files).toBe(0);
    const since = runCli(['check', '--since', base, '--format', 'json'], { cwd: repo.dir });
    const report = JSON.parse(since.stdout) as JsonReport;
    expect(files(report)).toEqual(['docs/two.md']);
    expect(report.citations.map((citation) => citation.rule)).toEqual(['rlm/stale']);
    expect(report.coverage.notes).toContain(`--changed: 0 markdown documents changed since ${base}, 1 more document cites a changed file`);
  });

  it('takes another branch where this one left it: what that branch did since is not this change', () => {
    const repo = project();
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write({ 'src/b.ts': `${B}// changed on the feature branch\n` });
    repo.commit('feature: change b');
    repo.git('checkout', '-q', 'main');
    repo.write({ 'src/a.ts': `${A}// changed on main after the branch\n` });
    repo.commit('main: change a');
    repo.git('checkout', '-q', 'feature');
    const report = JSON.parse(runCli(['check', '--since', 'main', '--format', 'json'], { cwd: repo.dir }).stdout) as JsonReport;
    expect(files(report)).toEqual(['docs/two.md']);
    expect(report.coverage.notes).toContain('--changed: 0 markdown documents changed since main, 1 more document cites a changed file');
  });

  it("runs the README's pull request job as written: it checks what the branch changes", () => {
    const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
    const job = readme.slice(readme.indexOf('cite-changed:'));
    const line = /- run: (npx aiwg-cite check --since .*)$/m.exec(job)?.[1];
    expect(line).toBeDefined();
    // A pull request's checkout: a clone of the repository, on a branch that changes a cited file.
    const upstream = project();
    const clone = tempDir();
    const git = (...args: string[]) => execFileSync('git', args, { cwd: clone, env: { ...process.env, ...GIT_ENV }, stdio: 'ignore' });
    execFileSync('git', ['clone', '-q', upstream.dir, clone], { env: { ...process.env, ...GIT_ENV }, stdio: 'ignore' });
    git('checkout', '-q', '-b', 'feature');
    writeTree(clone, { 'src/b.ts': `${B}// changed by the pull request\n` });
    git('commit', '-q', '-am', 'change b');
    const baseRef = ['$', '{{ github.base_ref }}'].join('');
    const command = (line as string).replaceAll(baseRef, 'main').replace('npx aiwg-cite', `node ${JSON.stringify(CLI_ENTRY)}`);
    const run = spawnSync('sh', ['-c', command], { cwd: clone, env: { ...process.env, ...GIT_ENV, NO_COLOR: '1' }, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^::warning file=docs\/two\.md,line=3,/m);
    expect(run.stdout).not.toContain('docs/one.md');
  });

  it('checks every document when the configuration changed, or when there is no commit yet', () => {
    const repo = project();
    repo.write({ 'aiwg-cite.config.json': '{ "exclude": ["docs/three.md"] }\n' });
    const configured = changed(repo.dir).report;
    expect(configured.summary.files).toBe(2);
    expect(configured.coverage.notes).toContain(
      "--changed: `aiwg-cite.config.json` changed since HEAD and can change any document's findings: every document checked",
    );

    const fresh = gitRepo();
    fresh.write({ 'src/a.ts': A, 'docs/one.md': `[src/a.ts@${sha16(A)}, L1]\n` });
    const unborn = changed(fresh.dir).report;
    expect(unborn.summary.files).toBe(1);
    expect(unborn.coverage.notes).toContain('--changed: HEAD has no commit yet, so every document is new: every document checked');
  });

  it.each([
    [['--changed', 'docs/one.md'], /^aiwg-cite: check: --changed and --since choose the documents themselves; name no paths with them\n$/],
    [['--changed', '--staged'], /^aiwg-cite: check: --staged checks the index; --changed and --since check the working tree; use one\n$/],
    [['--since', 'no-such-branch'], /^aiwg-cite: check: --since `no-such-branch` names no commit of this repository\n$/],
    [['--since=-p'], /^aiwg-cite: check: --since `-p` names no commit of this repository\n$/],
  ])('exits 2 with one line for %j', (args, message) => {
    const repo = project();
    const run = runCli(['check', ...args], { cwd: repo.dir });
    expect(run.stderr).toMatch(message);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
  });

  it('says how to fetch a base that a shallow clone (a CI checkout) lacks', () => {
    const origin = project();
    origin.write({ 'docs/two.md': 'Two.\n' });
    origin.commit('second');
    const clone = join(tempDir(), 'clone');
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${origin.dir}`, clone], { env: { ...process.env, ...GIT_ENV } });
    const run = runCli(['check', '--since', 'HEAD~1'], { cwd: clone });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'aiwg-cite: check: --since `HEAD~1` names no commit of this shallow clone: fetch it first (`git fetch --depth=100 origin <branch>`, or actions/checkout with fetch-depth: 0)\n',
    );
  });

  it('exits 2 with one line outside a git repository', () => {
    const dir = tempDir();
    writeTree(dir, { 'doc.md': 'x\n' });
    const run = runCli(['check', '--changed'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/: --changed and --since need a git repository \(not inside a git work tree\)\n$/);
  });
});
