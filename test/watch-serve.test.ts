/**
 * A running `aiwg-cite watch` answers `check --rlm` (commands/watch-serve.ts, watch-client.ts):
 * real processes in real git repositories. Every answer is compared byte for byte with a check of
 * its own (`--no-watch`) on the same tree, right after each edit, and the check is asked before
 * any pause, so the watch must have taken the edit's events first. Needs the built CLI.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CLI_ENTRY, type CliRun, GIT_ENV, gitRepo, runCli, runCliAsync, sha16, sharedCorpus, snapshotRepo } from '@aiwg-cite/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';

const A1 = 'export const a = 1;\nexport const b = 2;\n';
const B1 = 'export const c = 3;\n';

interface Watching {
  readonly child: ChildProcess;
  readonly stderr: string[];
}

/** The watches started by the running test: their stderr and exit status go into a failing assertion's message. */
let watches: Watching[] = [];

function described(): string {
  return watches
    .map((one, at) => `watch ${at + 1} (exit ${String(one.child.exitCode ?? one.child.signalCode)}): ${one.stderr.join(' | ')}`)
    .join('\n');
}

function startWatch(cwd: string, args: string[] = [], env: Record<string, string> = {}): Watching {
  const child = spawn(process.execPath, [CLI_ENTRY, 'watch', '--no-tui', ...args], {
    cwd,
    env: { ...process.env, ...GIT_ENV, NO_COLOR: '1', FORCE_COLOR: undefined, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    watches = [];
  });
  const watching = { child, stderr };
  watches.push(watching);
  return watching;
}

const socketOf = (dir: string) => join(dir, '.git/aiwg-cite/watch.sock');

async function until(condition: () => boolean, what: string, deadlineMs = 20_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A check asked of the watch (with the client's trace on) and the same check run by itself. */
function both(dir: string, args: string[], env: Record<string, string> = {}) {
  const served = runCli(['check', ...args], { cwd: dir, env: { ...env, AIWG_CITE_WATCH: 'trace' } });
  const own = runCli(['check', '--no-watch', ...args], { cwd: dir, env });
  return { served, own };
}

function expectServed(dir: string, args: string[], label: string): void {
  const { served, own } = both(dir, args);
  expect(served.stderr, `${label}\n${described()}`).toBe('aiwg-cite: answered by the running watch\n');
  expect(own.stderr, label).toBe('');
  expect({ code: served.code, stdout: served.stdout }, label).toEqual({ code: own.code, stdout: own.stdout });
}

function expectDeclined(dir: string, args: string[], why: string, env: Record<string, string> = {}): void {
  const { served, own } = both(dir, args, env);
  expect(served.stderr, described()).toContain(`aiwg-cite: the watch does not answer this check (${why}); checking\n`);
  expect({ code: served.code, stdout: served.stdout }).toEqual({ code: own.code, stdout: own.stdout });
}

function project() {
  return gitRepo({
    'src/a.ts': A1,
    'src/b.ts': B1,
    'docs/guide.md': `# Guide\n\nSee [src/a.ts@${sha16(A1)}, L1-2], [src/b.ts, L1] and [src/gone.ts, L1].\n`,
    'docs/notes.md': `# Notes\n\nOnly [src/b.ts@${sha16(B1)}, L1].\n`,
    'docs/copy.md': `# Notes\n\nOnly [src/b.ts@${sha16(B1)}, L1].\n`,
  });
}

describe('check answered by a running watch', () => {
  it('prints what a check of its own prints, after every kind of edit, in every format', async () => {
    const repo = project();
    // A burst of events waits 3 s for quiet before the watch takes it, unless a check asks first.
    startWatch(repo.dir, ['--debounce', '3000']);
    await until(() => existsSync(socketOf(repo.dir)), 'the watch to answer');
    const formats = [[], ['--format', 'json'], ['--format', 'sarif'], ['--max-warnings', '0']];
    const step = (label: string) => {
      for (const format of formats) expectServed(repo.dir, ['--rlm', ...format], `${label} ${format.join(' ')}`);
    };
    step('at start');
    writeFileSync(join(repo.dir, 'docs/guide.md'), `# Guide\n\nNow [src/a.ts@${sha16(A1)}, L2] and [src/b.ts@0123456789abcdef, L1].\n`);
    step('a document edited');
    // One more citation that checks out: the document counts what it counted, once more.
    writeFileSync(
      join(repo.dir, 'docs/guide.md'),
      `# Guide\n\nNow [src/a.ts@${sha16(A1)}, L2], [src/a.ts@${sha16(A1)}, L1] and [src/b.ts@0123456789abcdef, L1].\n`,
    );
    step('a citation added');
    writeFileSync(join(repo.dir, 'src/a.ts'), `${A1}// edited\n`);
    step('a cited file edited');
    rmSync(join(repo.dir, 'src/b.ts'));
    step('a cited file deleted');
    writeFileSync(join(repo.dir, 'src/gone.ts'), 'back\n');
    step('a missing file created');
    mkdirSync(join(repo.dir, 'new/deeper'), { recursive: true });
    writeFileSync(join(repo.dir, 'new/deeper/fresh.md'), `# Fresh\n\n[src/a.ts, L1]\n`);
    step('a document in a new directory');
    writeFileSync(join(repo.dir, 'docs/notes.md'), `# Notes changed\n\nOnly [src/a.ts, L1].\n`);
    step('a copy that no longer repeats the other');
    writeFileSync(join(repo.dir, 'docs/notes.md'), `# Notes\n\nOnly [src/b.ts@${sha16(B1)}, L1].\n`);
    step('a copy once more');
    rmSync(join(repo.dir, 'docs/guide.md'));
    step('a document deleted');
    for (let at = 0; at < 12; at += 1) writeFileSync(join(repo.dir, `docs/burst-${at}.md`), `# ${at}\n\n[src/a.ts, L${at + 1}]\n`);
    writeFileSync(join(repo.dir, 'src/a.ts'), `${A1}// edited again\n`);
    step('a burst of edits');
  });

  it('sees a document written into a directory that held none: untracked and empty, tracked with other files, just unignored', async () => {
    const repo = gitRepo({
      'src/a.ts': A1,
      'src/lib/util.ts': B1,
      'docs/guide.md': `# Guide\n\nSee [src/a.ts@${sha16(A1)}, L1].\n`,
      'build/out.txt': 'generated\n',
      '.gitignore': 'build/\n',
    });
    mkdirSync(join(repo.dir, 'notes/empty'), { recursive: true });
    startWatch(repo.dir);
    await until(() => existsSync(socketOf(repo.dir)), 'the watch to answer');
    expectServed(repo.dir, ['--rlm'], 'at start');
    writeFileSync(join(repo.dir, 'notes/empty/n.md'), '# N\n\nSee [src/gone.ts, L1].\n');
    expectServed(repo.dir, ['--rlm'], 'a document in an empty untracked directory');
    writeFileSync(join(repo.dir, 'src/lib/README.md'), '# Lib\n\nSee [src/lib/util.ts@0123456789abcdef, L1].\n');
    expectServed(repo.dir, ['--rlm', '--format', 'json'], 'a document beside a file no document cites');
    writeFileSync(join(repo.dir, '.gitignore'), '');
    expectServed(repo.dir, ['--rlm'], 'a directory git stopped ignoring');
    writeFileSync(join(repo.dir, 'build/notes.md'), '# Build\n\nSee [src/missing.ts, L1].\n');
    expectServed(repo.dir, ['--rlm'], 'a document in it');
  });

  it('follows the ignore rules git keeps outside the tree: info/exclude and core.excludesFile', async () => {
    const repo = gitRepo({ 'src/a.ts': A1, 'docs/guide.md': `# Guide\n\nSee [src/a.ts@${sha16(A1)}, L1].\n` });
    const excludes = join(mkdtempSync(join(tmpdir(), 'aiwg-cite-excludes-')), 'ignore');
    onTestFinished(() => rmSync(dirname(excludes), { recursive: true, force: true }));
    repo.git('config', 'core.excludesFile', excludes);
    mkdirSync(join(repo.dir, 'drafts'));
    writeFileSync(join(repo.dir, 'drafts/todo.md'), '# Todo\n\nSee [src/gone.ts, L1].\n');
    writeFileSync(join(repo.dir, 'scratch.md'), '# Scratch\n\nSee [src/a.ts@0123456789abcdef, L1].\n');
    startWatch(repo.dir);
    await until(() => existsSync(socketOf(repo.dir)), 'the watch to answer');
    expectServed(repo.dir, ['--rlm'], 'at start: two untracked documents with findings');
    const exclude = join(repo.dir, '.git/info/exclude');
    appendFileSync(exclude, 'drafts/\n');
    expectServed(repo.dir, ['--rlm'], 'a folder named in info/exclude');
    writeFileSync(excludes, 'scratch.md\n');
    expectServed(repo.dir, ['--rlm', '--format', 'json'], 'a document named in core.excludesFile');
    writeFileSync(exclude, '');
    expectServed(repo.dir, ['--rlm'], 'info/exclude emptied');
    rmSync(excludes);
    expectServed(repo.dir, ['--rlm'], 'core.excludesFile removed');
    // The answers changed as the rules did: the check of its own saw each of them.
    expect(runCli(['check', '--no-watch', '--rlm'], { cwd: repo.dir }).stdout).toContain('scratch.md');
  });

  it('with more directories than it watches, says so and leaves check to run by itself', async () => {
    const repo = gitRepo({ 'src/a.ts': A1, 'docs/guide.md': `# Guide\n\nSee [src/a.ts@${sha16(A1)}, L1].\n` });
    for (let at = 0; at < 8200; at += 1) mkdirSync(join(repo.dir, `many/d${at}`), { recursive: true });
    const watching = startWatch(repo.dir);
    await until(() => existsSync(socketOf(repo.dir)), 'the watch to listen');
    await until(() => watching.stderr.some((line) => line.includes('directories, more than 8192')), 'the watch to say why');
    expectDeclined(repo.dir, ['--rlm'], 'the watch does not watch every directory');
  });

  it('follows git: a ref made by plumbing, a commit and a deleted branch change its answer, though no file did', async () => {
    const later = 'export const later = 1;\n';
    const repo = gitRepo({
      'src/a.ts': A1,
      // A pin of a version of src/a.ts that no ref holds yet: an unknown hash, until a ref brings it.
      'docs/pinned.md': `# Pinned\n\nSee [src/a.ts@${sha16(later)}, L1].\n`,
      'docs/plain.md': `# Plain\n\nSee [src/a.ts@${sha16(A1)}, L1].\n`,
    });
    const git = (args: readonly string[], input?: string, env: Record<string, string> = {}) =>
      execFileSync('git', args, { cwd: repo.dir, env: { ...process.env, ...GIT_ENV, ...env }, encoding: 'utf8', input }).trim();
    startWatch(repo.dir);
    await until(() => existsSync(socketOf(repo.dir)), 'the watch to answer');
    const statusOf = () => {
      const own = runCli(['check', '--no-watch', '--rlm', '--format', 'json'], { cwd: repo.dir });
      const report = JSON.parse(own.stdout) as { citations: { file: string; status: string }[] };
      return report.citations.find((citation) => citation.file === 'docs/pinned.md')?.status;
    };
    const step = (label: string) => {
      for (const format of [[], ['--format', 'json']]) expectServed(repo.dir, ['--rlm', ...format], `${label} ${format.join(' ')}`);
    };
    step('at start');
    expect(statusOf()).toBe('unknown-hash');
    // A commit on a new ref, made with plumbing (as a fetch brings one): neither the index nor the working tree moves.
    const index = { GIT_INDEX_FILE: join(repo.dir, '.git/side-index') };
    const blob = git(['hash-object', '-w', '--stdin'], later);
    git(['read-tree', 'HEAD'], undefined, index);
    git(['update-index', '--add', '--cacheinfo', `100644,${blob},src/a.ts`], undefined, index);
    const commit = git(['commit-tree', git(['write-tree'], undefined, index), '-p', 'HEAD', '-m', 'side'], undefined, index);
    git(['update-ref', 'refs/heads/side', commit]);
    step('a ref that brings the pinned version');
    expect(statusOf()).toBe('stale');
    git(['update-ref', '-d', 'refs/heads/side']);
    step('the ref deleted');
    expect(statusOf()).toBe('unknown-hash');
    // Staged: the index holds the pinned version (git's facts count it), the working tree does not.
    git(['update-index', '--cacheinfo', `100644,${blob},src/a.ts`]);
    step('the pinned version staged');
    expect(statusOf()).toBe('stale');
    git(['commit', '-q', '-m', 'pinned version']);
    git(['checkout', '-q', 'HEAD', '--', 'src/a.ts']);
    step('committed and checked out');
  });

  it('answers from the root and from a folder below it without starting git to find the root', async () => {
    const repo = project();
    const trace = join(repo.dir, '.git', 'trace.txt');
    writeFileSync(trace, '');
    const env = { GIT_TRACE: trace };
    startWatch(repo.dir, [], env);
    await until(() => existsSync(socketOf(repo.dir)), 'the watch to answer');
    const rootLooks = () =>
      readFileSync(trace, 'utf8')
        .split('\n')
        .filter((line) => line.includes('git rev-parse --show-toplevel')).length;
    const before = rootLooks();
    for (const cwd of [repo.dir, join(repo.dir, 'docs')]) {
      const served = runCli(['check', '--rlm'], { cwd, env: { ...env, AIWG_CITE_WATCH: 'trace' } });
      expect(served.stderr, described()).toBe('aiwg-cite: answered by the running watch\n');
      expect(served.stdout).toBe(runCli(['check', '--rlm', '--no-watch'], { cwd: repo.dir }).stdout);
    }
    expect(rootLooks()).toBe(before);
  });

  it('declines what it could answer differently, and the check runs by itself', async () => {
    const repo = project();
    startWatch(repo.dir);
    await until(() => existsSync(socketOf(repo.dir)), 'the watch to answer');
    expectDeclined(repo.dir, [], 'not --rlm');
    expectDeclined(repo.dir, ['--rlm', 'docs/guide.md'], 'paths');
    expectDeclined(repo.dir, ['--rlm', '--shard', '1/2'], '--shard');
    expectDeclined(repo.dir, ['--rlm', '--changed'], '--changed');
    expectDeclined(repo.dir, ['--rlm', '--strict'], 'another --strict');
    expectDeclined(repo.dir, ['--rlm'], 'another environment', { AIWG_CITE_STRICT: '1' });
    expectDeclined(repo.dir, ['--rlm', '--config', 'aiwg-cite.config.json'], 'another --config');
    // A configuration changed before the question: the watch reads it again, then answers by it.
    const before = runCli(['check', '--rlm', '--no-watch'], { cwd: repo.dir }).stdout;
    writeFileSync(join(repo.dir, 'aiwg-cite.config.json'), `${JSON.stringify({ rules: { 'rlm/unversioned': 'off' } })}\n`);
    expectServed(repo.dir, ['--rlm'], 'the configuration changed, and the watch read it again');
    expect(runCli(['check', '--rlm', '--no-watch'], { cwd: repo.dir }).stdout).not.toBe(before);
    // Never asked: the client says nothing at all.
    for (const run of [
      runCli(['check', '--rlm', '--no-watch'], { cwd: repo.dir, env: { AIWG_CITE_WATCH: 'trace' } }),
      runCli(['check', '--rlm'], { cwd: repo.dir, env: { AIWG_CITE_WATCH: '0' } }),
    ]) {
      expect(run.stderr).toBe('');
    }
  });

  it('with --scholarly answers check itself, after edits of every kind, the corpus too', async () => {
    const reference = '# REF-001: A real paper\n\n**Authors**: Smith, J.\n**Year**: 2020\n';
    const repo = gitRepo({
      'docs/references/REF-001-real.md': reference,
      'src/a.ts': A1,
      'docs/research.md': `# Findings\n\nPer REF-001 (Smith, 2020), 42% of agents act [src/a.ts@${sha16(A1)}, L1]; see @docs/plan.md.\n`,
      'notes/meeting.md': '# Meeting\n\nAbout 80% agreed, and REF-077 came up.\n',
      'notes/copy.md': '# Meeting\n\nAbout 80% agreed, and REF-077 came up.\n',
    });
    startWatch(repo.dir, ['--scholarly', '--debounce', '3000'], { AIWG_CITE_DATE: '2026-11-22' });
    await until(() => existsSync(socketOf(repo.dir)), 'the watch to answer');
    const env = { AIWG_CITE_DATE: '2026-11-22' };
    const step = (label: string) => {
      for (const format of [[], ['--format', 'json'], ['--verbose'], ['--format', 'sarif']]) {
        const served = runCli(['check', ...format], { cwd: repo.dir, env: { ...env, AIWG_CITE_WATCH: 'trace' } });
        const own = runCli(['check', '--no-watch', ...format], { cwd: repo.dir, env });
        expect(served.stderr, `${label}\n${described()}`).toBe('aiwg-cite: answered by the running watch\n');
        expect({ code: served.code, stdout: served.stdout }, `${label} ${format.join(' ')}`).toEqual({
          code: own.code,
          stdout: own.stdout,
        });
      }
    };
    step('at start');
    writeFileSync(join(repo.dir, 'docs/plan.md'), '# Plan\n');
    step('the file a mention names written');
    writeFileSync(join(repo.dir, 'notes/meeting.md'), '# Meeting\n\nAbout 80% agreed; 15% did not. REF-001 and REF-078 came up.\n');
    step('a note edited: other numbers held back, another id, no copy any more');
    writeFileSync(join(repo.dir, 'docs/research.md'), `# Findings\n\nPer (Smith, 2021) and (Doe, 2019), see @docs/plan.md.\n`);
    step('research edited: author-years that do not match');
    rmSync(join(repo.dir, 'docs/plan.md'));
    step('the file a mention names removed');
    rmSync(join(repo.dir, 'notes/copy.md'));
    step('a document with held-back numbers deleted');
    const { served } = both(repo.dir, ['--rlm'], env);
    expect(served.stderr).toContain('(--rlm, and the watch runs every check)');
    // A source added to the corpus before the question: the watch reads the corpus again, then answers by it.
    writeFileSync(join(repo.dir, 'docs/references/REF-078-other.md'), '# REF-078: Another paper\n');
    step('a source added to the corpus');
    rmSync(join(repo.dir, 'docs/references/REF-078-other.md'));
    step('the corpus as it was');
    // The `.aiwg` directory moved (`.aiwg-location`) to a git-ignored folder with a corpus of its
    // own: the watch reads its settings again. It does not watch that folder, so every answer reads
    // them anew, and one that finds them changed since is left to the check.
    writeFileSync(join(repo.dir, '.gitignore'), 'alt/\n');
    mkdirSync(join(repo.dir, 'alt/research/sources'), { recursive: true });
    writeFileSync(join(repo.dir, 'alt/research/sources/REF-077-moved.md'), '# REF-077: A moved paper\n');
    step('a git-ignored folder with a corpus');
    writeFileSync(join(repo.dir, '.aiwg-location'), 'alt\n');
    step('the .aiwg directory moved there');
    writeFileSync(join(repo.dir, 'alt/research/sources/REF-078-other.md'), '# REF-078: Another paper\n');
    const unseen = both(repo.dir, [], env);
    expect(unseen.served.stderr).toContain('(the corpus, the configuration or the month changed since the watch read them)');
    expect({ code: unseen.served.code, stdout: unseen.served.stdout }).toEqual({ code: unseen.own.code, stdout: unseen.own.stdout });
  });

  it('with --scholarly answers by the settings it read last, without reading them for the answer, while it watches where they come from', async () => {
    const repo = gitRepo({
      'docs/references/REF-001-real.md': '# REF-001: A real paper\n',
      'refs/library.bib': '@article{smith2020, title={A real paper}, author={Smith, J.}, year={2020}}\n',
      'docs/research.md': '# Findings\n\nPer REF-001 and REF-002.\n',
    });
    const trace = join(repo.dir, '.git', 'trace.txt');
    writeFileSync(trace, '');
    const env = { AIWG_CITE_DATE: '2026-11-22', GIT_TRACE: trace };
    startWatch(repo.dir, ['--scholarly'], env);
    await until(() => existsSync(socketOf(repo.dir)), 'the watch to answer');
    // The bibliographies are listed by git: a `check` that reads its settings lists them. (The
    // first answer waits for the watch's own look at its settings after it started, which may.)
    const listings = () =>
      readFileSync(trace, 'utf8')
        .split('\n')
        .filter((line) => / built-in: git ls-files .*\.bib/.test(line)).length;
    const own = runCli(['check', '--no-watch'], { cwd: repo.dir, env: { AIWG_CITE_DATE: '2026-11-22' } }).stdout;
    for (const answer of [1, 2, 3]) {
      const before = listings();
      const served = runCli(['check'], { cwd: repo.dir, env: { ...env, AIWG_CITE_WATCH: 'trace' } });
      expect(served.stderr, described()).toBe('aiwg-cite: answered by the running watch\n');
      expect(served.stdout).toBe(own);
      if (answer > 1) expect(listings(), `answer ${answer}`).toBe(before);
    }
  });

  it('with --scholarly leaves the check to itself while the settings it read last could not be read again', async () => {
    const library = '@article{smith2020, title={A real paper}, author={Smith, J.}, year={2020}}\n';
    const repo = gitRepo({
      'aiwg-cite.config.json': `${JSON.stringify({ bibliography: ['refs/library.bib'] })}\n`,
      'refs/library.bib': library,
      'docs/research.md': '# Findings\n\nAs (Smith, 2020) found.\n',
    });
    startWatch(repo.dir, ['--scholarly']);
    await until(() => existsSync(socketOf(repo.dir)), 'the watch to answer');
    expectServed(repo.dir, [], 'at start');
    // A named bibliography that no longer parses: a check of its own fails (exit 2), and so does this one.
    writeFileSync(join(repo.dir, 'refs/library.bib'), '@article{smith2020, title={A real paper\n');
    const broken = both(repo.dir, []);
    expect(broken.served.stderr).not.toContain('answered by the running watch');
    expect(broken.own.code).toBe(2);
    expect({ code: broken.served.code, stdout: broken.served.stdout }).toEqual({ code: broken.own.code, stdout: broken.own.stdout });
    writeFileSync(join(repo.dir, 'refs/library.bib'), library);
    expectServed(repo.dir, [], 'mended');
  });

  it('with --scholarly follows .gitignore for mentions of files that are not there (git-ignored: ignored, not missing)', async () => {
    const repo = gitRepo({
      'notes.md': '# Notes\n\nSee @drafts/plan.md and @docs/guide.md.\n',
      'docs/readme.md': '# Docs\n\nSee @docs/gone.md.\n',
    });
    startWatch(repo.dir, ['--scholarly']);
    await until(() => existsSync(socketOf(repo.dir)), 'the watch to answer');
    for (const format of [[], ['--format', 'json']]) expectServed(repo.dir, format, 'at start');
    writeFileSync(join(repo.dir, '.gitignore'), 'drafts/\n');
    for (const format of [[], ['--format', 'json']]) expectServed(repo.dir, format, 'drafts/ ignored at the root');
    writeFileSync(join(repo.dir, 'docs', '.gitignore'), 'gone.md\n');
    for (const format of [[], ['--format', 'json']]) expectServed(repo.dir, format, 'a file ignored in a folder');
    rmSync(join(repo.dir, '.gitignore'));
    for (const format of [[], ['--format', 'json']]) expectServed(repo.dir, format, 'the root .gitignore removed');
  });

  it('answers as the watch was started: --strict and --include-code', async () => {
    const repo = project();
    startWatch(repo.dir, ['--strict', '--include-code']);
    await until(() => existsSync(socketOf(repo.dir)), 'the watch to answer');
    expectServed(repo.dir, ['--rlm', '--strict', '--include-code'], 'strict');
    expectDeclined(repo.dir, ['--rlm', '--include-code'], 'another --strict');
    expectDeclined(repo.dir, ['--rlm', '--strict'], 'another --include-code');
  });

  it('leaves a socket a killed watch left behind to the check, and a new watch takes it over', async () => {
    const repo = project();
    const first = startWatch(repo.dir);
    await until(() => existsSync(socketOf(repo.dir)), 'the watch to answer');
    first.child.kill('SIGKILL');
    await until(() => first.child.exitCode !== null || first.child.signalCode !== null, 'the watch to die');
    expect(existsSync(socketOf(repo.dir))).toBe(true);
    const { served, own } = both(repo.dir, ['--rlm']);
    expect(served.stderr).toBe('aiwg-cite: the watch did not answer; checking\n');
    expect({ code: served.code, stdout: served.stdout }).toEqual({ code: own.code, stdout: own.stdout });
    startWatch(repo.dir);
    await until(() => both(repo.dir, ['--rlm']).served.stderr.includes('answered by the running watch'), 'the new watch to answer');
    expectServed(repo.dir, ['--rlm'], 'the new watch');
  });

  it('lets one watch answer; a second says so and watches on; the socket goes with the watch that made it', async () => {
    const repo = project();
    const first = startWatch(repo.dir);
    await until(() => existsSync(socketOf(repo.dir)), 'the watch to answer');
    const second = startWatch(repo.dir);
    await until(() => second.stderr.some((line) => line.includes('another aiwg-cite watch answers check')), 'the second watch to say so');
    expectServed(repo.dir, ['--rlm'], 'the first watch');
    second.child.kill('SIGTERM');
    await until(() => second.child.exitCode !== null, 'the second watch to stop');
    expect(second.child.exitCode).toBe(0);
    expectServed(repo.dir, ['--rlm'], 'after the second stopped');
    first.child.kill('SIGTERM');
    await until(() => first.child.exitCode !== null, 'the first watch to stop');
    expect(first.child.exitCode).toBe(0);
    expect(existsSync(socketOf(repo.dir))).toBe(false);
  });
});

/** One CLI process, run asynchronously (the watch answers meanwhile), on the snapshots' date. */
function cli(args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<CliRun> {
  return runCliAsync(args, { cwd, env: { AIWG_CITE_DATE: '2026-11-22', ...env } });
}

const REALWORLD = sharedCorpus('realworld', 'the served-check tests over real-world snapshots');

describe.skipIf(REALWORLD === undefined)('check answered by a watch, over real-world snapshots', { timeout: 300_000 }, () => {
  // Agent-written repositories: generated copies under agent folders, many findings of every kind.
  // A watch of code citations answers `check --rlm`; a `watch --scholarly`, `check` itself (REF ids,
  // mentions, author-year, statistics the profile holds back, the corpus stage's notes).
  it.each([
    ['aiwg', 'rlm'],
    ['fortemi', 'rlm'],
    ['aiwg', 'scholarly'],
    ['fortemi', 'scholarly'],
  ])('%s, %s: the same report as the check by itself, before and after an edit', async (name, mode) => {
    const dir = await snapshotRepo(REALWORLD as string, name);
    startWatch(dir, mode === 'rlm' ? [] : ['--scholarly'], { AIWG_CITE_DATE: '2026-11-22' });
    await until(() => existsSync(socketOf(dir)), 'the watch to answer', 240_000);
    const asked = mode === 'rlm' ? ['--rlm'] : [];
    const compare = async (label: string) => {
      for (const format of [[], ['--format', 'json'], ['--verbose']]) {
        const served = await cli(['check', ...asked, ...format], dir, { AIWG_CITE_WATCH: 'trace' });
        const own = await cli(['check', ...asked, '--no-watch', ...format], dir);
        expect(served.stderr, label).toBe('aiwg-cite: answered by the running watch\n');
        expect({ code: served.code, stdout: served.stdout }, `${label} ${format.join(' ')}`).toEqual({
          code: own.code,
          stdout: own.stdout,
        });
      }
    };
    await compare('as committed');
    const document = execFileSync('git', ['ls-files', '*.md'], { cwd: dir, encoding: 'utf8' }).split('\n')[0] as string;
    appendFileSync(
      join(dir, document),
      '\nSee [src/not-there.ts, L1-2] and [README.md, L1], @docs/not-yet.md, REF-998 and (Okafor, 2019): 37% of runs.\n',
    );
    await compare('after an edit');
    if (mode === 'scholarly') {
      writeFileSync(join(dir, 'docs/not-yet.md'), '# Now here\n');
      await compare('after the file a mention names was written');
    }
  });
});
