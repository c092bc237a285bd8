import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gitRepo, runCli, sha16, tempDir, writeTree } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

const REACT = `# REF-018: ReAct - Synergizing Reasoning and Acting

## Citation

Yao, S., Zhao, J., & Cao, Y. (2023). ReAct: Synergizing Reasoning and Acting in Language Models. *ICLR*.

**arXiv**: 2210.03629v3
**DOI**: 10.5555/react.2023

ReAct interleaves reasoning traces with task-specific actions, so that reasoning guides acting.
`;
const LOW =
  '---\ngrade_level: LOW\n---\n# REF-020: Tree of Thoughts\n\n## Citation\n\nYao, S., & Griffiths, T. (2023). Tree of Thoughts.\n';
const ENV = { AIWG_CITE_DATE: '2026-11-22' };

interface Json {
  verdict: string;
  summary: { errors: number; warnings: number; infos: number; kinds: Record<string, Record<string, number>> };
  citations: { file: string; line: number; kind: string; status: string; severity: string; rule: string; text: string; message?: string }[];
  coverage: { notes: string[] };
}

function check(dir: string, args: string[] = [], env: Record<string, string> = {}) {
  const run = runCli(['check', '--format', 'json', ...args], { cwd: dir, env: { ...ENV, ...env } });
  return { ...run, report: run.code === 2 ? null : (JSON.parse(run.stdout) as Json) };
}

function project(extra: Record<string, string | Uint8Array> = {}): string {
  const dir = tempDir();
  writeTree(dir, { 'docs/references/REF-018-react.md': REACT, 'docs/references/REF-020-tot.md': LOW, ...extra });
  return dir;
}

describe('aiwg-cite check: research corpus', () => {
  it('passes a real REF id and fails a fabricated one (exit 1), with counts per kind and status', () => {
    const dir = project({ 'doc.md': 'Per REF-018, agents act. Yao et al. (2023) agree; see @docs/references/REF-018-react.md.\n' });
    const good = check(dir);
    expect(good.code).toBe(0);
    expect(good.report?.summary.kinds).toMatchObject({ ref: { found: 3 }, 'author-year': { found: 1 }, mention: { found: 1 } });
    writeTree(dir, { 'doc.md': 'Per REF-018 and REF-999, agents act.\n' });
    const bad = check(dir);
    expect(bad.code).toBe(1);
    expect(bad.report?.citations.find((finding) => finding.text === 'REF-999')).toMatchObject({
      file: 'doc.md',
      kind: 'ref',
      status: 'not-in-corpus',
      severity: 'error',
      rule: 'ref/not-in-corpus',
    });
  });

  it('an import path into an npm package the project depends on is no mention; one it does not depend on, or under a folder of its own, is', () => {
    const prose = [
      'Extend @openzeppelin/contracts/token/ERC20/ERC20.sol and load @fontsource/inter/400.css.',
      'Types: @types/node/fs.d.ts. Ours: @acme/ui/src/button.tsx and @acme/ui/src/card.tsx.',
      '',
    ].join('\n\n');
    const dir = tempDir();
    writeTree(dir, {
      'package.json': JSON.stringify({ name: 'app', dependencies: { '@openzeppelin/contracts': '^5.0.0' } }),
      'node_modules/@fontsource/inter/package.json': '{"name":"@fontsource/inter"}\n',
      'acme/ui/src/button.tsx': 'export {};\n',
      'README.md': prose,
    });
    const { report } = check(dir);
    // Declared in package.json, and installed: import paths. Neither: a mention. A folder `acme/` of
    // the repository: its paths, found or missing.
    expect(report?.citations.map((finding) => `${finding.text} ${finding.status}`)).toEqual([
      '@types/node/fs.d.ts missing',
      '@acme/ui/src/button.tsx found',
      '@acme/ui/src/card.tsx missing',
    ]);
  });

  it('--corpus DIR (repeatable) replaces the default roots', () => {
    const dir = tempDir();
    writeTree(dir, { 'papers/a/REF-018-react.md': REACT, 'papers/b/REF-020-tot.md': LOW, 'doc.md': 'REF-018 and REF-020.\n' });
    expect(check(dir).report?.citations.filter((finding) => finding.file === 'doc.md' && finding.status === 'not-in-corpus')).toHaveLength(
      2,
    );
    const both = check(dir, ['--corpus', 'papers/a', '--corpus', 'papers/b']);
    expect(both.code).toBe(0);
    expect(both.report?.summary.kinds.ref).toEqual({ found: 4 });
  });

  it('says which corpus file has invalid frontmatter YAML, in the JSON notes and the pretty report', () => {
    const dir = project({
      'docs/references/REF-021-broken.md': '---\nref_id: REF-021\nauthors: [Smith\n---\n# REF-021: Broken\n',
      'doc.md': 'Per REF-018 and REF-021, agents act.\n',
    });
    const note =
      'docs/references/REF-021-broken.md: the frontmatter is not valid YAML (line 3: Flow sequence in block collection must be sufficiently indented and end with a ]); its fields may be misread until it is fixed';
    const json = check(dir);
    expect(json.code).toBe(0);
    expect(json.report?.coverage.notes).toContain(note);
    // In the coverage line, as the other corpus notes; a one-line PASS shows it with --verbose.
    const pretty = runCli(['check', '--no-color', '--verbose'], { cwd: dir, env: ENV });
    expect(pretty.stdout).toContain(`; ${note}`);
  });

  it('--corpus naming a directory that does not exist is exit 2', () => {
    const dir = project({ 'doc.md': 'REF-018.\n' });
    const run = runCli(['check', '--corpus', 'docs/referencez'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('aiwg-cite: docs/referencez: the corpus directory does not exist\n');
  });

  it('without any corpus root: one corpus/absent warning and corpus findings as info; --require-corpus fails', () => {
    const dir = tempDir();
    writeTree(dir, { 'doc.md': 'REF-999 says so.\n' });
    const soft = check(dir);
    expect(soft.code).toBe(0);
    expect(soft.report?.citations.map((finding) => `${finding.rule}:${finding.severity}`)).toEqual([
      'corpus/absent:warning',
      'ref/not-in-corpus:info',
    ]);
    const strict = check(dir, ['--require-corpus']);
    expect(strict.code).toBe(1);
    expect(strict.report?.citations.map((finding) => `${finding.rule}:${finding.severity}`)).toEqual([
      'corpus/absent:error',
      'ref/not-in-corpus:error',
    ]);
  });

  it('places a run-level corpus finding at the first citation it stands for, and names the ids in report order', () => {
    // Without a corpus: one corpus/absent for every REF id. With a git-ignored default root: one
    // corpus/absent for the ids the tracked roots lack, which become info.
    const docs = {
      'b.md': 'First REF-003, then REF-002.\n',
      'a.md': 'Intro.\n\nREF-004 and [a.md, L1].\n\nLater REF-002.\n',
    };
    const absent = (report: Json | null) => report?.citations.filter((finding) => finding.rule === 'corpus/absent') ?? [];
    const none = tempDir();
    writeTree(none, docs);
    expect(absent(check(none).report).map((finding) => `${finding.file}:${finding.line}:${finding.text}`)).toEqual(['a.md:3:REF-004']);
    expect(absent(check(none).report)[0]?.message).toContain('4 citations of 3 REF ids (REF-004, REF-002, REF-003)');
    const ignored = gitRepo({ '.gitignore': '.aiwg/\n', 'docs/references/REF-001-known.md': '# REF-001: Known\n', ...docs });
    const report = check(ignored.dir).report;
    expect(absent(report).map((finding) => `${finding.file}:${finding.line}:${finding.text}`)).toEqual(['a.md:3:REF-004']);
    expect(absent(report)[0]?.message).toContain('4 citations of 3 REF ids (REF-004, REF-002, REF-003)');
    expect(report?.citations.filter((finding) => finding.rule === 'ref/not-in-corpus').map((finding) => finding.severity)).toEqual([
      'info',
      'info',
      'info',
      'info',
    ]);
  });

  it('--corpus-only checks mentions only, and --rlm only RLM citations', () => {
    const dir = project({ 'a.txt': 'hello\n', 'doc.md': 'See @a.txt and REF-999 and [a.txt, L1] and 10.1234/example.1.\n' });
    expect(check(dir, ['--corpus-only']).report?.citations.map((finding) => finding.kind)).toEqual(['mention']);
    expect(check(dir, ['--rlm']).report?.citations.map((finding) => finding.kind)).toEqual(['rlm']);
    const all = check(dir).report?.citations.map((finding) => finding.kind);
    expect(new Set(all)).toEqual(new Set(['mention', 'ref', 'rlm', 'doi']));
    expect(runCli(['check', '--rlm', '--corpus-only'], { cwd: dir }).code).toBe(2);
  });

  it('resolves @$AIWG_ROOT mentions when AIWG_ROOT is set, and reports them unresolvable (info) otherwise', () => {
    const aiwg = tempDir();
    writeTree(aiwg, { 'rules/tao.md': '# TAO\n' });
    const dir = project({ 'doc.md': 'Follow @$AIWG_ROOT/rules/tao.md and @$AIWG_ROOT/rules/gone.md.\n' });
    const mentions = (report: Json | null | undefined) =>
      report?.citations.filter((finding) => finding.kind === 'mention').map((finding) => `${finding.status}:${finding.severity}`);
    expect(mentions(check(dir).report)).toEqual(['unresolvable:info', 'unresolvable:info']);
    expect(mentions(check(dir, [], { AIWG_ROOT: aiwg }).report)).toEqual(['found:ok', 'missing:warning']);
  });

  it('finds a relocated .aiwg/ directory (AIWG_ARTIFACTS_PATH, .aiwg-location) with its corpus and GRADE assessments', () => {
    const elsewhere = tempDir();
    writeTree(elsewhere, {
      'research/findings/REF-050-agents.md': '# REF-050: Agents\n\n## Citation\n\nDoe, J. (2024). Agents.\n',
      'research/quality-assessments/REF-050-assessment.yaml': 'reference_id: REF-050\nfinal_quality:\n  level: VERY LOW\n',
    });
    const doc = 'Research shows agents plan (REF-050). See @.aiwg/research/findings/REF-050-agents.md.\n';
    const byEnv = project({ 'doc.md': doc });
    const viaEnv = check(byEnv, [], { AIWG_ARTIFACTS_PATH: elsewhere }).report?.citations.filter((finding) => finding.file === 'doc.md');
    expect(viaEnv?.map((finding) => `${finding.kind}:${finding.status}:${finding.severity}`)).toEqual([
      'grade:overclaim:error',
      'ref:found:ok',
      'mention:found:ok',
    ]);
    // .aiwg-location comes with the repository: it may name a directory inside the root only
    // (issue 15 item 20); the environment names an outside one.
    const inside = project({ 'doc.md': doc, '.aiwg-location': 'meta/aiwg\n' });
    writeTree(inside, {
      'meta/aiwg/research/findings/REF-050-agents.md': '# REF-050: Agents\n\n## Citation\n\nDoe, J. (2024). Agents.\n',
      'meta/aiwg/research/quality-assessments/REF-050-assessment.yaml': 'reference_id: REF-050\nfinal_quality:\n  level: VERY LOW\n',
    });
    expect(
      check(inside)
        .report?.citations.filter((finding) => finding.file === 'doc.md')
        .map((finding) => finding.status),
    ).toEqual(['overclaim', 'found', 'found']);
    const byFile = check(project({ 'doc.md': doc, '.aiwg-location': `${elsewhere}\n` })).report;
    expect(byFile?.citations.filter((finding) => finding.file === 'doc.md').map((finding) => finding.status)).toEqual([
      'not-in-corpus',
      'unresolvable',
    ]);
    expect(byFile?.coverage.notes).toContainEqual(expect.stringMatching(/^\.aiwg-location names .*; not read/));
    const without = project({ 'doc.md': doc });
    expect(
      check(without)
        .report?.citations.filter((finding) => finding.file === 'doc.md')
        .map((finding) => finding.status),
    ).toEqual(['not-in-corpus', 'unresolvable']);
  });

  it('verifies DOIs from a .bib or CSL-JSON bibliography that git does not ignore', () => {
    const repo = gitRepo({
      '.gitignore': 'ignored/\n',
      'refs.bib': '@article{a, author = {Vaswani, Ashish}, year = 2017, doi = {10.5555/attention}}\n',
      'more.csl.json': JSON.stringify([
        { id: 'b', DOI: '10.5555/Other', author: [{ family: 'Lewis' }], issued: { 'date-parts': [[2020]] } },
      ]),
      'ignored/x.bib': '@article{c, doi = {10.5555/hidden}}\n',
      'doc.md': 'See doi:10.5555/attention, doi:10.5555/other and doi:10.5555/hidden.\n',
    });
    const run = check(repo.dir, ['--profile', 'research']);
    expect(run.report?.citations.map((finding) => `${finding.text}:${finding.status}`)).toEqual([
      '10.5555/attention:verified',
      '10.5555/other:verified',
      '10.5555/hidden:unverified',
    ]);
    repo.write({ 'refs.bib': '@article{a, title = {unclosed\n' });
    // Found in the tree, a broken bibliography is left out with a note; the documents are still checked.
    const found = check(repo.dir, ['--profile', 'research']);
    expect(found.code).toBe(0);
    expect(found.report?.coverage.notes.join('\n')).toMatch(
      /the bibliography refs\.bib, found in the tree, was skipped: Unterminated brace-value "unclosed[^"]*" at line \d+/,
    );
    expect(found.report?.citations.map((finding) => `${finding.text}:${finding.status}`)).toEqual([
      '10.5555/attention:unverified',
      '10.5555/other:verified',
      '10.5555/hidden:unverified',
    ]);
    // Named in the configuration, it is a usage error naming the file.
    repo.write({ 'aiwg-cite.config.json': JSON.stringify({ bibliography: ['refs.bib'] }) });
    const broken = runCli(['check'], { cwd: repo.dir });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(
      /^aiwg-cite: refs\.bib: Unterminated brace-value "unclosed[^"]*" at line \d+, column \d+ in "article"\n$/,
    );
  });
});

describe('aiwg-cite check --fix', () => {
  const DOC = [
    '\uFEFF# Notes',
    '',
    'Research shows it works (REF-020). We cite [REF-999] too.',
    'See doi:10.9999/unknown.7 for more. Code: [a.txt@0000000000000000, L1] and [a.txt, L1].',
    'Untouched   *markdown*  ',
    'no final newline',
  ].join('\r\n');
  const HELLO = sha16('hello\n');

  it('re-pins code citations only, keeps BOM, CRLF and the missing final newline, and says what needs a person', () => {
    const dir = project({ 'a.txt': 'hello\n', 'doc.md': DOC });
    const run = runCli(['check', '--fix'], { cwd: dir, env: ENV });
    expect(run.code).toBe(1);
    const after = readFileSync(join(dir, 'doc.md'), 'utf8');
    expect(after).toBe(DOC.replace('[a.txt@0000000000000000, L1]', `[a.txt@${HELLO}, L1]`).replace('[a.txt, L1]', `[a.txt@${HELLO}, L1]`));
    expect(run.stderr).toContain(`fixed doc.md:4:43  rlm/stale  re-pinned [a.txt@0000000000000000, L1] to ${HELLO}`);
    expect(run.stderr).toMatch(
      /fix: \d+ findings need a person: each has a suggestion \(fix:\) in the report; --fix never deletes or rewords/,
    );
    expect(run.stderr).toContain('fix: 2 changes in 1 file');
  });

  it('never deletes or rewords: a missing REF id, an unverified DOI and overclaiming wording stay as written', () => {
    const dir = project({ 'a.txt': 'hello\n', 'doc.md': DOC });
    runCli(['check', '--fix', '--profile', 'all'], { cwd: dir, env: ENV });
    const after = readFileSync(join(dir, 'doc.md'), 'utf8');
    for (const kept of ['Research shows it works (REF-020).', 'We cite [REF-999] too.', 'See doi:10.9999/unknown.7 for more.']) {
      expect(after).toContain(kept);
    }
    expect(after).not.toContain('<!--');
  });

  it('is idempotent: a second run changes nothing and leaves the file untouched on disk', () => {
    const dir = project({ 'a.txt': 'hello\n', 'doc.md': DOC });
    runCli(['check', '--fix'], { cwd: dir, env: ENV });
    const once = readFileSync(join(dir, 'doc.md'));
    const mtime = statSync(join(dir, 'doc.md')).mtimeMs;
    const second = runCli(['check', '--fix'], { cwd: dir, env: ENV });
    expect(second.stderr).toContain('fix: nothing to change');
    expect(readFileSync(join(dir, 'doc.md')).equals(once)).toBe(true);
    expect(statSync(join(dir, 'doc.md')).mtimeMs).toBe(mtime);
  });
});

describe('aiwg-cite check --report', () => {
  it('writes the Markdown report to .aiwg/reports/citation-verification.md, creating directories', () => {
    const dir = project({ 'a.txt': 'hello\n', 'doc.md': 'Per REF-018 and REF-999.\n\nCode: [a.txt, L1].\n' });
    const run = runCli(['check', '--report'], { cwd: dir, env: ENV });
    expect(run.code).toBe(1);
    const report = readFileSync(join(dir, '.aiwg/reports/citation-verification.md'), 'utf8');
    expect(report).toMatch(
      /^## Citation Verification Report\n\n\*\*File:\*\* 3 files\n\*\*Date:\*\* 2026-11-22\n\*\*Status:\*\* FAIL \(2 issues\)\n/,
    );
    expect(report).toContain('| Metric | Count |\n|---|---|\n| Citations found | ');
    expect(report).toContain('| Hallucinated | 1 |');
    expect(report).toContain(
      '1. **ERROR - Fabricated source (REF id not in corpus) (line 1)**\n   - File: `doc.md:1:17`\n   - Claim: `REF-999`',
    );
    expect(report).toContain('**WARNING - Un-versioned RLM citation (line 3)**');
    expect(report).toContain('RLM Citations: 1 total\n  ✓ Fresh: 0\n  ⚠ Stale: 0\n  ⚠ Un-versioned: 1\n  ✗ Missing: 0\n');
    expect(report).toContain('### Recommendations\n');
    expect(report).toContain('**Verdict:** FAIL');
  });

  it('--report=PATH names the file', () => {
    const dir = project({ 'doc.md': 'Per REF-018.\n' });
    const run = runCli(['check', '--report=out/r.md'], { cwd: dir, env: ENV });
    expect(run.code).toBe(0);
    expect(readFileSync(join(dir, 'out/r.md'), 'utf8')).toContain('**Status:** PASS\n');
    expect(existsSync(join(dir, '.aiwg'))).toBe(false);
  });
});

describe('aiwg-cite check: configuration', () => {
  it('reads corpus dirs, rule severities and doi placeholders from aiwg-cite.config.json', () => {
    const dir = tempDir();
    writeTree(dir, {
      'papers/REF-018-react.md': REACT,
      'aiwg-cite.config.json': JSON.stringify({
        corpus: ['papers'],
        rules: { 'doi/unverified': 'off', 'ref/missing': 'warning' },
        doi: { placeholders: ['10.5555/fake.1'] },
      }),
      'doc.md': 'REF-018, REF-999, 10.9999/unknown.1 and 10.5555/fake.1.\n',
    });
    const run = check(dir);
    const inDoc = run.report?.citations.filter((finding) => finding.file === 'doc.md');
    expect(inDoc?.map((finding) => `${finding.text}:${finding.rule}:${finding.severity}`)).toEqual([
      'REF-018:ref/found:ok',
      'REF-999:ref/not-in-corpus:warning',
      '10.5555/fake.1:doi/placeholder:error',
    ]);
  });

  it('reads the "aiwg-cite" key of package.json, and applies include/exclude globs only when no paths are given', () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'x', 'aiwg-cite': { include: ['docs/**'], exclude: ['**/draft-*.md'] } }),
      'docs/a.md': 'REF-999\n',
      'docs/draft-b.md': 'REF-998\n',
      'notes.md': 'REF-997\n',
    });
    const discovered = check(dir)
      .report?.citations.filter((finding) => finding.kind === 'ref')
      .map((finding) => finding.file);
    expect(discovered).toEqual(['docs/a.md', 'docs/references/REF-018-react.md', 'docs/references/REF-020-tot.md']);
    const explicit = check(dir, ['notes.md', 'docs/draft-b.md']).report?.citations.map((finding) => finding.file);
    expect(explicit).toEqual(['docs/draft-b.md', 'notes.md']);
  });

  it.each([
    ['{"corpus": "docs"}', /^aiwg-cite: aiwg-cite\.config\.json: `corpus` must be an array of strings, not "docs"\n$/],
    ['{"corpuz": []}', /^aiwg-cite: aiwg-cite\.config\.json: unknown key `corpuz`; did you mean `corpus`\? \(known: /],
    [
      '{"rules": {"statistics/unsourced": "off"}}',
      /^aiwg-cite: aiwg-cite\.config\.json: `rules`: unknown rule `statistics\/unsourced`; did you mean `statistic\/unsourced`\? \(`aiwg-cite rules` lists them\)\n$/,
    ],
    [
      '{"rules": {"ref/missing": "fatal"}}',
      /^aiwg-cite: aiwg-cite\.config\.json: `rules\.ref\/missing` must be one of off, info, warning, error, not "fatal"\n$/,
    ],
    [
      '{"doi": {"placeholder": []}}',
      /^aiwg-cite: aiwg-cite\.config\.json: unknown key `doi\.placeholder`; did you mean `placeholders`\? \(known: placeholders\)\n$/,
    ],
    ['{ nope', /^aiwg-cite: aiwg-cite\.config\.json: not valid JSON/],
    ['{"strict": "yes"}', /^aiwg-cite: aiwg-cite\.config\.json: `strict` must be true or false, not "yes"\n$/],
  ])('a bad config %s is exit 2 naming the file and the problem', (config, message) => {
    const dir = tempDir();
    writeTree(dir, { 'aiwg-cite.config.json': config, 'doc.md': 'x\n' });
    const run = runCli(['check'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe('');
  });
});
