import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitRepo, PROJECT_ROOT, runCli, runCliAsync, sha16, tempDir, writeTree } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

const HELLO = 'hello\n';
const HELLO_HASH = '5891b5b522d5df08';

function json(stdout: string) {
  return JSON.parse(stdout) as {
    version: number;
    verdict: string;
    summary: { files: number; citations: number; errors: number; warnings: number; rlm: Record<string, number> };
    citations: Record<string, unknown>[];
  };
}

describe('aiwg-cite check: exit codes', () => {
  it('exits 0 when every citation is fresh', () => {
    const dir = tempDir();
    writeTree(dir, { 'a.txt': HELLO, 'doc.md': `[a.txt@${HELLO_HASH}, L1]\n` });
    const run = runCli(['check'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('PASS (0 errors, 0 warnings): 1 file, 1 citation\n');
  });

  it('exits 0 with warnings, and 1 with warnings under --strict or AIWG_CITE_STRICT=1', () => {
    const dir = tempDir();
    writeTree(dir, { 'a.txt': HELLO, 'doc.md': '[a.txt, L1]\n' });
    expect(runCli(['check'], { cwd: dir }).code).toBe(0);
    expect(runCli(['check', '--strict'], { cwd: dir }).code).toBe(1);
    expect(runCli(['check'], { cwd: dir, env: { AIWG_CITE_STRICT: '1' } }).code).toBe(1);
    expect(runCli(['check', '--max-warnings', '0'], { cwd: dir }).code).toBe(1);
  });

  it('exits 1 on a missing citation', () => {
    const dir = tempDir();
    writeTree(dir, { 'doc.md': '[src/gone.ts, L1]\n' });
    const run = runCli(['check'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('doc.md:1:1  error    rlm/missing  MISSING [src/gone.ts, L1]');
  });

  it.each([
    [['check', '--frobnicate'], /^aiwg-cite: check: Unknown option '--frobnicate'; run `aiwg-cite check --help`\n$/],
    [['check', '--format', 'xml'], /^aiwg-cite: check: --format must be one of .*, not `xml`\n$/],
    [['check', 'nope.md'], /^aiwg-cite: nope\.md: no such file or directory\n$/],
    [['check', '--root', 'nowhere'], /nowhere: the root directory does not exist\n$/],
    [['frobnicate'], /^aiwg-cite: unknown command `frobnicate`; run `aiwg-cite --help`\n$/],
  ])('exits 2 with one clear line for %j', (args, message) => {
    const dir = tempDir();
    const run = runCli(args, { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe('');
  });

  it('exits 2 for a document outside the root', () => {
    const dir = tempDir();
    writeTree(dir, { 'root/doc.md': 'x\n', 'elsewhere.md': 'y\n' });
    const run = runCli(['check', '--root', 'root', 'elsewhere.md'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^aiwg-cite: elsewhere\.md: outside the root /);
  });
});

describe('aiwg-cite check: a glob the shell did not expand', () => {
  const tree = {
    'README.md': '# r\n',
    'docs/a.md': '[src/gone.ts, L1]\n',
    'docs/deep/b.md': 'b\n',
    '.aiwg/notes/c.md': 'c\n',
    'docs/[draft].md': 'd\n',
  };
  const files = (stdout: string) => (JSON.parse(stdout) as { summary: { files: number } }).summary.files;

  it('matches the documents as config globs do, from the current directory, in git and outside it', () => {
    for (const dir of [
      gitRepo(tree).dir,
      (() => {
        const plain = tempDir();
        writeTree(plain, tree);
        return plain;
      })(),
    ]) {
      const direct = runCli(['check', '--format', 'json', 'docs/*.md'], { cwd: dir });
      expect(direct.code).toBe(1);
      expect(files(direct.stdout)).toBe(2);
      expect(files(runCli(['check', '--format', 'json', '**/*.md'], { cwd: dir }).stdout)).toBe(5);
      expect(files(runCli(['check', '--format', 'json', '.aiwg/**/*.md', 'README.md'], { cwd: dir }).stdout)).toBe(2);
      expect(files(runCli(['check', '--format', 'json', '*.md'], { cwd: join(dir, 'docs/deep') }).stdout)).toBe(1);
      // From a symlink to the directory, as from the directory.
      const link = join(tempDir(), 'link');
      symlinkSync(join(dir, 'docs'), link);
      expect(files(runCli(['check', '--format', 'json', '--root', dir, '*.md'], { cwd: link }).stdout)).toBe(2);
      // A file whose name has glob characters is that file, not a pattern.
      expect(files(runCli(['check', '--format', 'json', 'docs/[draft].md'], { cwd: dir }).stdout)).toBe(1);
    }
  });

  it('exits 2 with one line when nothing matches, or the pattern leaves the root', () => {
    const dir = tempDir();
    writeTree(dir, { 'root/doc.md': 'x\n' });
    const none = runCli(['check', 'docs/**/*.md'], { cwd: join(dir, 'root') });
    expect(none.code).toBe(2);
    expect(none.stderr).toBe('aiwg-cite: docs/**/*.md: no markdown file matches this pattern\n');
    const outside = runCli(['check', '--root', 'root', '*.md'], { cwd: dir });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/^aiwg-cite: \*\.md: outside the root .*\n$/);
  });
});

describe('aiwg-cite check --files-from', () => {
  const tree = { 'good.md': 'Fine.\n', 'bad.md': 'See [src/gone.ts, L1].\n', '-dash.md': 'Fine too.\n', 'docs/c.md': 'c\n' };
  const report = (stdout: string) => JSON.parse(stdout) as { verdict: string; summary: { files: number }; citations: { file: string }[] };

  it('checks the listed paths with the command line’s, one per line or NUL-separated, from a file or stdin', () => {
    const repo = gitRepo(tree);
    const lines = runCli(['check', '--format', 'json', '--files-from', '-'], { cwd: repo.dir, input: 'good.md\r\n\nbad.md\n' });
    expect(lines.code).toBe(1);
    expect(report(lines.stdout).summary.files).toBe(2);
    expect(lines.stdout).toBe(runCli(['check', '--format', 'json', 'good.md', 'bad.md'], { cwd: repo.dir }).stdout);

    repo.write({ 'list.txt': 'good.md\0-dash.md\0' });
    const nul = runCli(['check', '--format', 'json', '--files-from=list.txt', 'docs/c.md'], { cwd: repo.dir });
    expect(nul.code).toBe(0);
    expect(report(nul.stdout).summary.files).toBe(3);
  });

  it('checks nothing for an empty list, with --staged too, instead of everything', () => {
    const repo = gitRepo(tree);
    for (const args of [['check'], ['check', '--staged']]) {
      const run = runCli([...args, '--format', 'json', '--files-from', '-'], { cwd: repo.dir, input: '\n' });
      expect(run.code).toBe(0);
      expect(report(run.stdout)).toMatchObject({ verdict: 'PASS', summary: { files: 0 } });
    }
    repo.write({ 'bad.md': 'Still [src/gone.ts, L2].\n' });
    repo.git('add', 'bad.md');
    const staged = runCli(['check', '--staged', '--format', 'json', '--files-from', '-'], { cwd: repo.dir, input: 'bad.md\n' });
    expect(staged.code).toBe(1);
    expect(report(staged.stdout).citations.map((citation) => citation.file)).toEqual(['bad.md']);
  });

  it('hands a helper thread the listed paths, not the list to read again', async () => {
    const repo = gitRepo(tree);
    // A named pipe can be read once: a helper thread that opened it again would wait for ever.
    const fifo = join(tempDir(), 'list');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', `printf 'bad.md\\ngood.md\\n' > '${fifo}'`]);
    const helped = await runCliAsync(['check', '--format', 'json', '--no-cache', '--files-from', fifo], {
      cwd: repo.dir,
      env: { AIWG_CITE_THREADS: '2' },
    });
    writer.kill();
    expect(helped.stderr).toBe('');
    expect(helped.stdout).toBe(runCli(['check', '--format', 'json', '--no-cache', 'bad.md', 'good.md'], { cwd: repo.dir }).stdout);
  }, 20_000);

  it('exits 2 with one line for a list it cannot read, or beside --changed', () => {
    const repo = gitRepo(tree);
    expect(runCli(['check', '--files-from', 'nope.txt'], { cwd: repo.dir })).toMatchObject({
      code: 2,
      stderr: 'aiwg-cite: nope.txt: cannot read (no such file)\n',
    });
    expect(runCli(['check', '--changed', '--files-from', '-'], { cwd: repo.dir, input: 'good.md\n' }).code).toBe(2);
  });
});

describe('aiwg-cite check: hashing real bytes', () => {
  it.each([
    ['LF', 'a\nb\n'],
    ['CRLF', 'a\r\nb\r\n'],
    ['BOM', '\ufeffa\nb\n'],
    ['no final newline', 'a\nb'],
  ])('a %s file is FRESH with the hash of `sha256sum | cut -c1-16`', (_name, contents) => {
    const dir = tempDir();
    const hash = sha16(contents);
    writeTree(dir, { 'src/f.txt': contents, 'doc.md': `[src/f.txt@${hash}, L1-2]\n` });
    const run = runCli(['check', '--format', 'json'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(json(run.stdout).citations[0]).toMatchObject({ status: 'fresh', currentHash: hash });
  });

  it('a CRLF document gives the same positions as an LF one', () => {
    const dir = tempDir();
    writeTree(dir, { 'crlf.md': '# T\r\n\r\nsee [x/gone.ts, L1]\r\n', 'lf.md': '# T\n\nsee [x/gone.ts, L1]\n' });
    const { citations } = json(runCli(['check', '--format', 'json'], { cwd: dir }).stdout);
    expect(citations.map((finding) => [finding.file, finding.line, finding.column])).toEqual([
      ['crlf.md', 3, 5],
      ['lf.md', 3, 5],
    ]);
  });
});

describe('aiwg-cite check: output', () => {
  it('--format json prints only the contract document', () => {
    const dir = tempDir();
    writeTree(dir, { 'a.txt': HELLO, 'docs/doc.md': `Intro [a.txt@${HELLO_HASH}, L1] and [a.txt@0000000000000000].\n` });
    const run = runCli(['check', '--format', 'json'], { cwd: dir });
    const report = json(run.stdout);
    expect(Object.keys(report)).toEqual(['version', 'verdict', 'summary', 'citations', 'coverage']);
    expect(report.version).toBe(1);
    expect(report.summary.rlm).toEqual({ total: 2, fresh: 1, stale: 1, unversioned: 0, missing: 0, malformed: 0, invalidRange: 0 });
    for (const finding of report.citations) {
      expect(Object.keys(finding).slice(0, 14)).toEqual([
        'file',
        'line',
        'column',
        'kind',
        'text',
        'status',
        'severity',
        'rule',
        'message',
        'fix',
        'artifact',
        'hash',
        'currentHash',
        'lines',
      ]);
    }
    expect(report.citations[1]).toMatchObject({ file: 'docs/doc.md', line: 1, column: 40, status: 'stale', currentHash: HELLO_HASH });
  });

  it('pretty output: findings, a summary with each status under its severity, RLM explained once, the verdict; no colour under NO_COLOR', () => {
    const dir = tempDir();
    writeTree(dir, {
      'a.txt': HELLO,
      'doc.md': `[a.txt@${HELLO_HASH}] [a.txt@0000000000000000, L1] [a.txt, L1]\n\n\`\`\`\n[a.txt, L1]\n\`\`\`\n`,
    });
    const run = runCli(['check'], { cwd: dir });
    expect(run.stdout).not.toContain('\u001b[');
    expect(run.stdout).not.toContain('RLM Citations');
    expect(run.stdout).toContain(
      `doc.md:1:26  warning  rlm/stale  STALE [a.txt@0000000000000000, L1]\n    \`a.txt\` changed since it was cited: hash \`0000000000000000\` is now \`${HELLO_HASH}\`\n`,
    );
    expect(run.stdout).toContain('doc.md:1:55  warning  rlm/unversioned  UN-VERSIONED [a.txt, L1]\n');
    expect(run.stdout).toContain(
      [
        '',
        'warnings 2: rlm/stale 1, rlm/unversioned 1',
        'ok 1: rlm/fresh 1',
        'Checked 1 file: rlm 3; rlm = code citations pinned to a file, lines and a content hash; 1 in code skipped (--include-code checks them).',
        'PASS (0 errors, 2 warnings)',
        '',
      ].join('\n'),
    );
  });

  it('groups repeated findings of one rule, and --verbose lists them all', () => {
    const dir = tempDir();
    writeTree(dir, { 'doc.md': Array.from({ length: 7 }, (_, index) => `[gone/f${index}.ts, L1]`).join('\n\n') });
    const run = runCli(['check'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'error    rlm/missing  7 findings, the first:\n  doc.md:1:1  error    rlm/missing  MISSING [gone/f0.ts, L1]',
    );
    expect(run.stdout).toContain('    doc.md:5:1  MISSING [gone/f2.ts, L1]\n');
    expect(run.stdout).toContain('    and 3 more (--verbose lists them)\n');
    expect(run.stdout).not.toContain('f6.ts');
    expect(runCli(['check', '--verbose'], { cwd: dir }).stdout).toContain('doc.md:13:1  error    rlm/missing  MISSING [gone/f6.ts, L1]');
  });

  it('colours only when forced or on a TTY', () => {
    const dir = tempDir();
    writeTree(dir, { 'doc.md': '[x/gone.ts]\n' });
    expect(runCli(['check'], { cwd: dir, env: { NO_COLOR: undefined, FORCE_COLOR: '1' } }).stdout).toContain('\u001b[31m');
    expect(runCli(['check'], { cwd: dir, env: { NO_COLOR: '1', FORCE_COLOR: '1' } }).stdout).not.toContain('\u001b[');
  });

  it('--include-code checks citations in code', () => {
    const dir = tempDir();
    writeTree(dir, { 'doc.md': '`[x/gone.ts]`\n' });
    expect(runCli(['check'], { cwd: dir }).code).toBe(0);
    expect(runCli(['check', '--include-code'], { cwd: dir }).code).toBe(1);
  });
});

describe('aiwg-cite check: which documents', () => {
  it('in git: tracked and untracked markdown, not ignored files or node_modules', () => {
    const repo = gitRepo({
      '.gitignore': 'ignored.md\nbuild/\n',
      'tracked.md': '[gone/tracked.ts]\n',
      'node_modules/pkg/readme.md': '[gone/dep.ts]\n',
    });
    repo.write({ 'untracked.md': '[gone/untracked.ts]\n', 'ignored.md': '[gone/ignored.ts]\n', 'build/out.md': '[gone/build.ts]\n' });
    const report = json(runCli(['check', '--format', 'json'], { cwd: join(repo.dir) }).stdout);
    expect(report.citations.map((finding) => finding.file)).toEqual(['tracked.md', 'untracked.md']);
  });

  it('finds the git top level from a subdirectory, and reports paths relative to it', () => {
    const repo = gitRepo({ 'docs/a.md': '[src/x.ts]\n', 'src/x.ts': HELLO });
    const report = json(runCli(['check', '--format', 'json'], { cwd: join(repo.dir, 'docs') }).stdout);
    expect(report.citations.map((finding) => [finding.file, finding.artifact, finding.status])).toEqual([
      ['docs/a.md', 'src/x.ts', 'unversioned'],
    ]);
  });

  it('outside git: every .md file outside node_modules', () => {
    const dir = tempDir();
    writeTree(dir, {
      'a.md': '[gone/a.ts]\n',
      'sub/b.md': '[gone/b.ts]\n',
      'node_modules/x/c.md': '[gone/c.ts]\n',
      'notes.txt': '[gone/d.ts]\n',
    });
    const report = json(runCli(['check', '--format', 'json'], { cwd: dir }).stdout);
    expect(report.citations.map((finding) => finding.file)).toEqual(['a.md', 'sub/b.md']);
  });

  it('explicit paths (relative, absolute, directories) never widen the run', () => {
    const repo = gitRepo({
      'a.md': '[gone/a.ts]\n',
      'docs/b.md': '[gone/b.ts]\n',
      'docs/c.md': '[gone/c.ts]\n',
      'other.md': '[gone/o.ts]\n',
    });
    const run = runCli(['check', '--format', 'json', 'a.md', join(repo.dir, 'docs/b.md')], { cwd: repo.dir });
    expect(json(run.stdout).citations.map((finding) => finding.file)).toEqual(['a.md', 'docs/b.md']);
    const directory = runCli(['check', '--format', 'json', 'docs'], { cwd: repo.dir });
    expect(json(directory.stdout).citations.map((finding) => finding.file)).toEqual(['docs/b.md', 'docs/c.md']);
  });

  it('several invocations over parts of a file list give the same verdicts as one run', () => {
    const repo = gitRepo({ 'src/x.ts': HELLO, 'a.md': `[src/x.ts@${HELLO_HASH}]\n`, 'b.md': '[src/x.ts, L2]\n', 'c.md': '[src/y.ts]\n' });
    const whole = json(runCli(['check', '--format', 'json', 'a.md', 'b.md', 'c.md'], { cwd: repo.dir }).stdout).citations;
    const parts = ['a.md', 'b.md', 'c.md'].flatMap(
      (file) => json(runCli(['check', '--format', 'json', join(repo.dir, file)], { cwd: repo.dir }).stdout).citations,
    );
    expect(parts).toEqual(whole);
  });
});

describe('aiwg-cite check: path-only citations (the model and the grammar together)', () => {
  it('makes an absolute path in brackets an outside-root error, and pricing and slash words no citation', () => {
    const outside = tempDir();
    writeTree(outside, { 'secret.txt': 'not to be read\n' });
    const dir = tempDir();
    const secret = join(outside, 'secret.txt');
    writeTree(dir, {
      'a.txt': HELLO,
      'doc.md': [
        `Pro costs $5[/mo] or $50[/yr]; the template writes $[/mo]; type [/help] in the chat.`,
        `Rated [>4.0/5.0], owner [n/a], see [a.txt].`,
        '',
        '<<< @/a.txt#region [a.txt]',
        '',
        `Do not read [${secret}] or [/etc/hostname].`,
        '',
      ].join('\n'),
    });
    const run = runCli(['check', '--format', 'json'], { cwd: dir });
    const report = json(run.stdout);
    expect(report.citations.map((citation) => [citation.text, citation.status])).toEqual([
      ['[a.txt]', 'unversioned'],
      [`[${secret}]`, 'outside-root'],
      ['[/etc/hostname]', 'outside-root'],
    ]);
    expect(run.code).toBe(1);
  });
});

describe('the demo project', () => {
  it('shows every verdict', () => {
    // A clone, so the history lookups (and their cache under the git dir) never touch this project's .git.
    const clone = join(tempDir(), 'clone');
    execFileSync('git', ['clone', '-q', '--local', PROJECT_ROOT, clone]);
    const run = runCli(['check', '--root', 'examples/rlm-demo', '--format', 'json'], { cwd: clone });
    expect(run.code).toBe(1);
    const report = json(run.stdout);
    expect(report.summary.rlm).toEqual({ total: 10, fresh: 3, stale: 2, unversioned: 2, missing: 1, malformed: 1, invalidRange: 1 });
    expect(new Set(report.citations.map((finding) => finding.status))).toEqual(
      new Set(['fresh', 'stale', 'unknown-hash', 'unversioned', 'missing', 'malformed', 'invalid-range']),
    );
  });
});

describe('aiwg-cite check: a kept answer in process', () => {
  it('prints the same text to an output that takes strings (the programmatic API), a non-ASCII report included', async () => {
    const { main } = await import('../src/main.ts');
    const repo = gitRepo({ 'src/a.ts': 'a\n', 'docs/é.md': '# Café\n\nSee [src/a.ts, L1] and [src/b.ts, L1].\n' });
    const env = { ...process.env, XDG_CACHE_HOME: tempDir(), AIWG_CITE_RESULT_CACHE_STATS: '1', NO_COLOR: '1' };
    const run = async (args = ['check', '--format', 'json']) => {
      let stdout = '';
      let stderr = '';
      const code = await main(args, {
        cwd: repo.dir,
        env,
        stdout: { write: (text: string) => (stdout += text) },
        stderr: { write: (text: string) => (stderr += text) },
      });
      return { code, stdout, stderr };
    };
    const runs = [await run(), await run(), await run()];
    expect(runs[2]?.stderr).toContain("result cache: the last run's answer, its 1 documents unchanged");
    expect(runs[0]?.stdout).toContain('docs/é.md');
    for (const each of runs) {
      expect(each.stdout).toBe(runs[0]?.stdout);
      expect(each.code).toBe(1);
    }
    // A splice copies the kept output of the unchanged document (1.5 MB, a third of it three-byte
    // characters of its name, read 1 MiB at a time: a chunk ends inside one) and writes the edited one's again.
    const citations = Array.from({ length: 4000 }, (_, at) => `See [src/gone-${at}.ts, L1].`).join('\n');
    writeFileSync(join(repo.dir, `docs/${'€'.repeat(60)}.md`), `# Große\n\n${citations}\n`);
    // One document changed among more than four: a splice (check-answer.ts, SPLICE_SHARE).
    for (const name of ['n1', 'n2', 'n3', 'n4']) writeFileSync(join(repo.dir, `docs/${name}.md`), `# ${name}\n\nSee [src/a.ts, L1].\n`);
    await run();
    await run();
    const edited = join(repo.dir, 'docs/é.md');
    appendFileSync(edited, '\nAnd [src/c.ts, L1].\n');
    const spliced = await run();
    expect(spliced.stderr).toContain("result cache: the last run's answer, built again with 1 documents checked");
    const whole = await run(['check', '--format', 'json', '--no-cache']);
    expect(whole.code).toBe(1);
    expect(spliced.stdout.length).toBeGreaterThan(1_500_000);
    expect(spliced.stdout).toContain('src/c.ts');
    expect(spliced.stdout).not.toContain('\uFFFD');
    expect(spliced.stdout).toBe(whole.stdout);
  });
});
