/**
 * Issue 15 item 20: nothing outside the root is read or written through what a repository
 * commits. A symlinked corpus directory (or a symlinked file in one), `.aiwg` or `.aiwg-location`
 * leading outside, a symlinked bibliography, a report directory or file, and a cache directory
 * leading outside are refused like a code citation is, each with one line; the environment or
 * configuration may name an outside directory explicitly, and the coverage notes say so.
 * `annotate`, `chunk` and `certify` confine the document they are given as `check` does.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitRepo, runCli, tempDir, writeTree } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

const SOURCE = ['---', 'ref: REF-001', 'title: Secret Outside Title', 'year: 2017', '---', '', '# REF-001: Secret Outside Title', ''].join(
  '\n',
);

interface Report {
  citations: { file: string; rule: string; text: string; message: string }[];
  coverage: { notes: string[] };
}

/** A directory outside every repository, holding what an attacker would like read or overwritten. */
function outside(): string {
  const dir = tempDir('aiwg-cite-outside-');
  writeTree(dir, {
    'sources/REF-001-secret.md': SOURCE,
    'secret.bib': '@article{secret2020, title={Secret Outside Title}, year={2020}}\n',
  });
  return dir;
}

function check(dir: string, args: string[] = [], env: Record<string, string> = {}) {
  const result = runCli(['check', '--format', 'json', ...args], { cwd: dir, env });
  return { ...result, report: result.stdout === '' ? null : (JSON.parse(result.stdout) as Report) };
}

describe('confine-symlinks', () => {
  it('a symlinked corpus directory leading outside is not read; the note says so', () => {
    const away = outside();
    const repo = gitRepo({ 'doc.md': 'Per REF-001, it holds.\n', '.aiwg/research/sources': { symlink: join(away, 'sources') } });
    const { report, stdout } = check(repo.dir);
    expect(stdout).not.toContain('Secret Outside Title');
    expect(report?.coverage.notes).toContainEqual(
      expect.stringMatching(/^the corpus root \.aiwg\/research\/sources leads outside the root through a symlink \(to .*\); not read$/),
    );
  });

  it('a symlinked file inside a corpus root is not read', () => {
    const away = outside();
    const repo = gitRepo({
      'doc.md': 'Per REF-001, it holds.\n',
      'docs/references/REF-001.md': { symlink: join(away, 'sources/REF-001-secret.md') },
    });
    const { report, stdout } = check(repo.dir);
    expect(stdout).not.toContain('Secret Outside Title');
    expect(report?.coverage.notes).toContain('1 corpus file leads outside its corpus root through a symlink; not read');
  });

  it('.aiwg-location naming an outside directory is refused; the environment may name one, and the notes say so', () => {
    const away = outside();
    mkdirSync(join(away, 'research'));
    writeTree(away, { 'research/sources/REF-001-secret.md': SOURCE });
    const repo = gitRepo({ 'doc.md': 'Per REF-001, it holds.\n', '.aiwg-location': `${away}\n` });
    const refused = check(repo.dir);
    expect(refused.stdout).not.toContain('Secret Outside Title');
    expect(refused.report?.coverage.notes).toContainEqual(
      expect.stringMatching(/^\.aiwg-location names .* leads outside the root .*; not read/),
    );

    const allowed = check(repo.dir, ['--verbose'], { AIWG_PROJECT_AIWG_DIR: away });
    expect(allowed.report?.coverage.notes).toContain(`the aiwg directory ${away} is outside the root (named by AIWG_PROJECT_AIWG_DIR)`);
    expect(allowed.report?.citations.some((finding) => finding.text === 'REF-001' && finding.rule === 'ref/not-in-corpus')).toBe(false);
  });

  it('a symlinked .aiwg and a symlinked bibliography are refused', () => {
    const away = outside();
    mkdirSync(join(away, 'aiwg/research'), { recursive: true });
    const repo = gitRepo({
      'doc.md': 'Per REF-001, it holds.\n',
      '.aiwg': { symlink: join(away, 'aiwg') },
      'refs.bib': { symlink: join(away, 'secret.bib') },
    });
    const { report, stdout } = check(repo.dir);
    expect(stdout).not.toContain('Secret Outside Title');
    expect(report?.coverage.notes).toContainEqual(
      expect.stringMatching(/^\.aiwg leads outside the root through a symlink \(to .*\); not read$/),
    );
    expect(report?.coverage.notes).toContainEqual(
      expect.stringMatching(/^the bibliography refs\.bib leads outside the root through a symlink \(to .*secret\.bib\); not read$/),
    );
  });

  it('--report never writes through a symlinked report directory or file', () => {
    const away = outside();
    const repo = gitRepo({ 'doc.md': 'Plain.\n', '.aiwg/reports': { symlink: away } });
    const directory = runCli(['check', '--report'], { cwd: repo.dir });
    expect(directory.code).toBe(2);
    expect(directory.stderr).toMatch(
      /^aiwg-cite: \.aiwg\/reports\/citation-verification\.md: the report leads outside the root through a symlink \(to .*\); not written\n$/,
    );
    expect(existsSync(join(away, 'citation-verification.md'))).toBe(false);

    const named = runCli(['check', '--report=out/report.md'], { cwd: repo.dir });
    expect(named.code).toBe(0);
    const file = gitRepo({ 'doc.md': 'Plain.\n', 'out/report.md': { symlink: join(away, 'planted.md') } });
    const dangling = runCli(['check', '--report=out/report.md'], { cwd: file.dir });
    expect(dangling.code).toBe(2);
    expect(existsSync(join(away, 'planted.md'))).toBe(false);
    // A path named outside the root on purpose is the user's choice.
    const chosen = runCli(['check', `--report=${join(away, 'chosen.md')}`], { cwd: repo.dir });
    expect(chosen.code).toBe(0);
    expect(existsSync(join(away, 'chosen.md'))).toBe(true);
  });

  it('the result cache is not written through a symlinked cache directory', () => {
    const away = outside();
    const dir = tempDir();
    writeTree(dir, { 'doc.md': 'Plain.\n', node_modules: { symlink: away } });
    const result = runCli(['check'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/the result cache directory leads outside the root through a symlink; not used\n$/);
    expect(readdirSync(away).sort()).toEqual(['secret.bib', 'sources']);
  });

  it('annotate, chunk and certify refuse a document that leads outside the root', () => {
    const away = outside();
    writeFileSync(join(away, 'secret.md'), '# Secret Outside Title\n\nText.[^1]\n\n[^1]: x [VERIFIED: corpus - REF-001]\n');
    const repo = gitRepo({ 'doc.md': 'Plain.\n', 'evil.md': { symlink: join(away, 'secret.md') } });
    for (const args of [
      ['annotate', 'evil.md', '--no-findings', '--verdicts', 'none.json'],
      ['annotate', 'evil.md'],
      ['chunk', 'evil.md'],
      ['chunk', join(away, 'secret.md')],
      ['certify', 'evil.md'],
      ['certify', join(away, 'secret.md')],
    ]) {
      const result = runCli(args, { cwd: repo.dir });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^aiwg-cite: \S+: outside the root .*; not read\n$/);
      expect(result.stdout).not.toContain('Secret Outside Title');
    }
    expect(existsSync(join(repo.dir, '.aiwg/reports'))).toBe(false);
  });
});
