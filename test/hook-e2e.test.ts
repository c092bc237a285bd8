import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CLI_ENTRY, GIT_ENV, type GitRepo, gitRepo, PROJECT_ROOT, runCli, sha16, tempDir } from '@aiwg-cite/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';

// Real `git commit`s in temporary repositories, through the hook `aiwg-cite init` installs. The
// hook finds `aiwg-cite` on PATH: a wrapper around this repository's built CLI (build it first).

const CODE = 'export const one = 1;\nexport const two = 2;\n';
const GOOD = `Cites [src/a.ts@${sha16(CODE)}, L1-2].\n`;
const BROKEN = 'Cites [src/missing.ts, L1].\n';

let binDir = '';

/** A PATH with node and the system's tools, and no aiwg-cite (unless one is installed system-wide). */
const SYSTEM_PATH = `${dirname(process.execPath)}:/usr/bin:/bin`;

beforeAll(() => {
  if (!existsSync(CLI_ENTRY)) throw new Error(`build the CLI first: cd packages/cli && node build.mjs (${CLI_ENTRY} is missing)`);
});

/** A PATH with `aiwg-cite` on it, pointing at the built CLI. */
function pathWithCli(): string {
  if (binDir === '' || !existsSync(binDir)) {
    binDir = tempDir('aiwg-cite-bin-');
    const wrapper = join(binDir, 'aiwg-cite');
    writeFileSync(wrapper, `#!/bin/sh\nexec "${process.execPath}" "${CLI_ENTRY}" "$@"\n`);
    chmodSync(wrapper, 0o755);
  }
  return `${binDir}:${process.env.PATH ?? ''}`;
}

interface Run {
  readonly code: number;
  readonly output: string;
}

/** Runs git in the repository with the hook's PATH and a clean husky/strict environment. */
function git(repo: Pick<GitRepo, 'dir'>, args: readonly string[], extra: Record<string, string> = {}): Run {
  const env: NodeJS.ProcessEnv = { ...process.env, ...GIT_ENV, PATH: pathWithCli(), NO_COLOR: '1', ...extra };
  for (const key of ['HUSKY', 'AIWG_CITE_STRICT', 'GIT_INDEX_FILE', 'GIT_DIR']) if (!(key in extra)) delete env[key];
  const result = spawnSync('git', [...args], { cwd: repo.dir, env, encoding: 'utf8' });
  return { code: result.status ?? -1, output: `${result.stdout}${result.stderr}` };
}

const commit = (repo: Pick<GitRepo, 'dir'>, message: string, ...flags: string[]) => git(repo, ['commit', '-q', '-m', message, ...flags]);
const headMessage = (repo: GitRepo) => repo.git('log', '-1', '--format=%s');

function init(repo: GitRepo, ...args: string[]) {
  const run = runCli(['init', ...args], { cwd: repo.dir, env: { PATH: pathWithCli() } });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return run.stdout;
}

describe('plain git hook', () => {
  it('blocks a commit with a missing citation, explains it, and lets the fixed commit through', () => {
    const repo = gitRepo({ 'src/a.ts': CODE });
    const dry = init(repo, '--dry-run');
    expect(dry).toContain('+# AIWG-CITE');
    expect(existsSync(join(repo.dir, '.git/hooks/pre-commit'))).toBe(false);
    init(repo);
    const hook = join(repo.dir, '.git/hooks/pre-commit');
    expect(statSync(hook).mode & 0o111).not.toBe(0);
    const installed = readFileSync(hook, 'utf8');
    expect(init(repo)).toContain('unchanged');
    expect(readFileSync(hook, 'utf8')).toBe(installed);

    repo.write({ 'docs/new.md': BROKEN });
    repo.git('add', 'docs/new.md');
    const blocked = commit(repo, 'broken');
    expect(blocked.code).not.toBe(0);
    expect(blocked.output).toContain('docs/new.md:1:7');
    expect(blocked.output).toContain('`src/missing.ts` does not exist');
    expect(blocked.output).toContain('fix:');
    expect(blocked.output).toContain('git commit --no-verify');
    expect(headMessage(repo)).toBe('initial');

    repo.write({ 'docs/new.md': GOOD });
    repo.git('add', 'docs/new.md');
    const passed = commit(repo, 'fixed');
    expect(passed.output).toContain('PASS (0 errors, 0 warnings)');
    expect(passed.output).not.toContain('--no-verify');
    expect(passed.code).toBe(0);
    expect(headMessage(repo)).toBe('fixed');
  });

  it('checks the staged version: a staged fix passes over a broken work tree, and the reverse is refused', () => {
    const repo = gitRepo({ 'src/a.ts': CODE });
    init(repo);
    repo.write({ 'docs/new.md': GOOD });
    repo.git('add', 'docs/new.md');
    repo.write({ 'docs/new.md': BROKEN });
    expect(commit(repo, 'staged fix').code).toBe(0);
    expect(readFileSync(join(repo.dir, 'docs/new.md'), 'utf8')).toBe(BROKEN);

    repo.git('add', 'docs/new.md');
    repo.write({ 'docs/new.md': GOOD });
    const refused = commit(repo, 'staged breakage');
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain('docs/new.md:1:7');
    expect(headMessage(repo)).toBe('staged fix');
  });

  it('is bypassed by --no-verify', () => {
    const repo = gitRepo({ 'src/a.ts': CODE });
    init(repo);
    repo.write({ 'docs/new.md': BROKEN });
    repo.git('add', 'docs/new.md');
    expect(commit(repo, 'bypass', '--no-verify').code).toBe(0);
    expect(headMessage(repo)).toBe('bypass');
  });

  it('sees `git commit -a` (a temporary GIT_INDEX_FILE): deleting a cited file is refused, changing it warns', () => {
    const repo = gitRepo({ 'src/a.ts': CODE, 'docs/cites.md': GOOD });
    init(repo);
    writeFileSync(join(repo.dir, 'src/a.ts'), `${CODE}// more\n`);
    const warned = commit(repo, 'change a', '-a');
    expect(warned.code).toBe(0);
    expect(warned.output).toContain('docs/cites.md:1:7');
    expect(warned.output).toContain('this commit makes 1 citation stale');

    // Deleted in the work tree only: `commit -a` stages the deletion in its temporary index.
    rmSync(join(repo.dir, 'src/a.ts'));
    const refused = commit(repo, 'delete a', '-a');
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/docs\/cites\.md:1:7\s+error\s+rlm\/missing/);
    expect(headMessage(repo)).toBe('change a');
  });

  it('keeps an existing hook’s other lines', () => {
    const repo = gitRepo({ 'src/a.ts': CODE });
    const hook = join(repo.dir, '.git/hooks/pre-commit');
    writeFileSync(hook, '#!/bin/sh\necho "existing hook ran"\n');
    chmodSync(hook, 0o755);
    init(repo);
    expect(readFileSync(hook, 'utf8')).toMatch(/^#!\/bin\/sh\n# AIWG-CITE\n[\s\S]*# END AIWG-CITE\necho "existing hook ran"\n$/);
    repo.write({ 'docs/new.md': GOOD });
    repo.git('add', 'docs/new.md');
    expect(commit(repo, 'ok').output).toContain('existing hook ran');
  });
});

describe('core.hooksPath', () => {
  it('installs into the configured hooks directory, and init --dry-run writes nothing', () => {
    const repo = gitRepo({ 'src/a.ts': CODE, 'githooks/.keep': '' });
    repo.git('config', 'core.hooksPath', 'githooks');
    const dry = init(repo, '--dry-run');
    expect(dry).toContain('would create githooks/pre-commit');
    expect(existsSync(join(repo.dir, 'githooks/pre-commit'))).toBe(false);
    init(repo);
    expect(readFileSync(join(repo.dir, 'githooks/pre-commit'), 'utf8')).toContain('# AIWG-CITE');
    repo.write({ 'docs/new.md': BROKEN });
    repo.git('add', 'docs/new.md');
    expect(commit(repo, 'broken').code).not.toBe(0);
  });
});

describe('a package below the root', () => {
  it('finds aiwg-cite installed in website/ (git runs the hook from the root), and says when it is installed nowhere', () => {
    const repo = gitRepo({ 'website/package.json': '{ "name": "site" }\n', '.gitignore': 'node_modules/\n', 'src/a.ts': CODE });
    pathWithCli();
    mkdirSync(join(repo.dir, 'website/node_modules/.bin'), { recursive: true });
    symlinkSync(join(binDir, 'aiwg-cite'), join(repo.dir, 'website/node_modules/.bin/aiwg-cite'));
    const run = runCli(['init'], { cwd: join(repo.dir, 'website') });
    expect(run.code).toBe(0);
    repo.write({ 'docs/new.md': BROKEN });
    repo.git('add', 'docs/new.md');
    // No aiwg-cite on PATH: only the package's install can answer.
    const blocked = git(repo, ['commit', '-q', '-m', 'broken'], { PATH: SYSTEM_PATH });
    expect(blocked.code).not.toBe(0);
    expect(blocked.output).toContain('docs/new.md:1:7');
    // git started without node on PATH (a GUI client): one line saying so, not a shim's error.
    const gitOnly = tempDir('aiwg-cite-git-only-');
    symlinkSync(spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim(), join(gitOnly, 'git'));
    const noNode = git(repo, ['commit', '-q', '-m', 'broken'], { PATH: gitOnly });
    expect(noNode.code).not.toBe(0);
    expect(noNode.output).toBe(
      'aiwg-cite needs node, which is not on the PATH git gave this hook (a git GUI?): add it, or commit with --no-verify\n',
    );
    rmSync(join(repo.dir, 'website/node_modules'), { recursive: true });
    const nowhere = git(repo, ['commit', '-q', '-m', 'broken'], { PATH: SYSTEM_PATH });
    expect(nowhere.code).not.toBe(0);
    expect(nowhere.output).toBe('aiwg-cite is not installed: run npm install (or commit with --no-verify)\n');
  });
});

describe('a git directory outside the root', () => {
  it('installs into the common hooks of a linked worktree and of a submodule, and the hook blocks there', () => {
    const main = gitRepo({ 'src/a.ts': CODE });
    const feature = join(tempDir(), 'feature');
    main.git('worktree', 'add', '-q', feature);
    const sub = gitRepo({ 'src/a.ts': CODE });
    main.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub.dir, 'vendor/sub');
    main.commit('add the submodule');
    for (const dir of [feature, join(main.dir, 'vendor/sub')]) {
      const run = runCli(['init'], { cwd: dir, env: { PATH: pathWithCli() } });
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(/created {4}\.\.\/\S*hooks\/pre-commit/);
      writeFileSync(join(dir, 'new.md'), BROKEN);
      main.git('-C', dir, 'add', 'new.md');
      const blocked = commit({ dir }, 'broken');
      expect(blocked.code).not.toBe(0);
      expect(blocked.output).toContain('new.md:1:7');
    }
  });
});

describe('a hook directory that does not exist yet', () => {
  /** Runs husky's own bin in the repository, as its "prepare" script does on install. */
  function runHusky(repo: GitRepo): void {
    const husky = spawnSync(process.execPath, [join(PROJECT_ROOT, 'node_modules/husky/bin.js')], {
      cwd: repo.dir,
      env: { ...process.env, ...GIT_ENV, HUSKY: '' },
      encoding: 'utf8',
    });
    expect(husky.status).toBe(0);
  }

  it('makes .husky/ in a project that depends on husky but never ran it; the hook blocks once husky runs', () => {
    const repo = gitRepo({
      'package.json': '{\n  "name": "demo",\n  "scripts": { "prepare": "husky" },\n  "devDependencies": { "husky": "^9.1.7" }\n}\n',
      'src/a.ts': CODE,
    });
    expect(existsSync(join(repo.dir, '.husky'))).toBe(false);
    const out = init(repo);
    expect(out).toContain('created    .husky/pre-commit');
    expect(out).toContain('run `npm install` (its "prepare" script runs `husky`)');
    expect(statSync(join(repo.dir, '.husky/pre-commit')).mode & 0o111).not.toBe(0);
    runHusky(repo);
    repo.write({ 'docs/new.md': BROKEN });
    repo.git('add', 'docs/new.md');
    expect(commit(repo, 'broken').code).not.toBe(0);
    expect(headMessage(repo)).toBe('initial');
  });

  it('init --with husky in a project without .husky/ writes the hook and package.json; a second init changes nothing', () => {
    const repo = gitRepo({ 'package.json': '{\n  "name": "demo"\n}\n', 'src/a.ts': CODE });
    const out = init(repo, '--with', 'husky');
    expect(out).toContain('created    .husky/pre-commit');
    expect(JSON.parse(readFileSync(join(repo.dir, 'package.json'), 'utf8'))).toEqual({
      name: 'demo',
      devDependencies: { husky: '^9.1.7' },
      scripts: { prepare: 'husky' },
    });
    const hook = readFileSync(join(repo.dir, '.husky/pre-commit'), 'utf8');
    expect(init(repo, '--with', 'husky')).not.toMatch(/created|updated/);
    expect(readFileSync(join(repo.dir, '.husky/pre-commit'), 'utf8')).toBe(hook);
    runHusky(repo);
    repo.write({ 'docs/new.md': BROKEN });
    repo.git('add', 'docs/new.md');
    expect(commit(repo, 'broken').code).not.toBe(0);
  });

  it('makes a core.hooksPath directory nobody made, and names a file in its way in one line', () => {
    const repo = gitRepo({ 'src/a.ts': CODE, 'in-the-way': 'a file\n' });
    repo.git('config', 'core.hooksPath', 'tools/hooks');
    expect(init(repo)).toContain('created    tools/hooks/pre-commit');
    repo.write({ 'docs/new.md': BROKEN });
    repo.git('add', 'docs/new.md');
    expect(commit(repo, 'broken').code).not.toBe(0);

    repo.git('config', 'core.hooksPath', 'in-the-way/hooks');
    const blocked = runCli(['init'], { cwd: repo.dir, env: { PATH: pathWithCli() } });
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toMatch(/^aiwg-cite: in-the-way\/hooks\/pre-commit: cannot make its directory \(ENOTDIR[^\n]*\)\n$/);
    expect(readFileSync(join(repo.dir, 'in-the-way'), 'utf8')).toBe('a file\n');
  });
});

describe('the pre-commit framework', () => {
  const hasPreCommit = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' }).status === 0;
  if (!hasPreCommit)
    process.stderr.write('skipped: init with the pre-commit framework: pre-commit is not installed (apt-get install pre-commit)\n');

  it.skipIf(!hasPreCommit)(
    'init adds a local hook to .pre-commit-config.yaml that blocks, passes and says when aiwg-cite is missing',
    () => {
      const config =
        'repos:\n  - repo: local\n    hooks:\n      - id: hello\n        name: hello\n        entry: echo hello-from-pre-commit\n        language: system\n        pass_filenames: false\n';
      const repo = gitRepo({ 'src/a.ts': CODE, '.pre-commit-config.yaml': config });
      const home = { PRE_COMMIT_HOME: tempDir('aiwg-cite-pre-commit-home-') };
      const first = init(repo);
      expect(first).toContain('the pre-commit framework');
      expect(first).toContain('run `pre-commit install`');
      expect(existsSync(join(repo.dir, '.git/hooks/pre-commit'))).toBe(false);
      const written = readFileSync(join(repo.dir, '.pre-commit-config.yaml'), 'utf8');
      expect(written.startsWith('repos:\n  - repo: local\n    hooks:\n      - id: aiwg-cite\n')).toBe(true);
      expect(written.endsWith(config.slice('repos:\n'.length))).toBe(true);
      expect(git(repo, ['add', '.pre-commit-config.yaml']).code).toBe(0);
      expect(spawnSync('pre-commit', ['install'], { cwd: repo.dir, env: { ...process.env, ...home }, encoding: 'utf8' }).status).toBe(0);
      expect(init(repo)).not.toMatch(/created|updated|note:/);

      repo.write({ 'docs/new.md': BROKEN });
      repo.git('add', 'docs/new.md');
      const blocked = git(repo, ['commit', '-q', '-m', 'broken'], home);
      expect(blocked.code).not.toBe(0);
      expect(blocked.output).toContain('docs/new.md:1:7');
      expect(blocked.output).toMatch(/^hello\.+Passed$/m);
      expect(headMessage(repo)).toBe('initial');

      const withoutCli = git(repo, ['commit', '-q', '-m', 'broken'], { ...home, PATH: '/usr/bin:/bin' });
      expect(withoutCli.code).not.toBe(0);
      expect(withoutCli.output).toContain('\naiwg-cite is not installed: run npm install (or commit with --no-verify)\n');

      repo.write({ 'docs/new.md': GOOD });
      repo.git('add', 'docs/new.md');
      expect(git(repo, ['commit', '-q', '-m', 'fixed'], home).code).toBe(0);
      expect(headMessage(repo)).toBe('fixed');
      // Deleting the cited file blocks too: the hook checks the whole staged change, markdown or not.
      repo.git('rm', '-q', 'src/a.ts');
      expect(git(repo, ['commit', '-q', '-m', 'delete a'], home).code).not.toBe(0);
      expect(headMessage(repo)).toBe('fixed');
    },
  );
});

describe('simple-git-hooks', () => {
  it('init adds aiwg-cite to its pre-commit command; once simple-git-hooks writes the hook, it blocks', () => {
    const repo = gitRepo({
      'package.json': '{\n  "name": "demo",\n  "simple-git-hooks": {\n    "pre-commit": "echo from-simple-git-hooks"\n  }\n}\n',
      '.gitignore': 'node_modules/\n',
      'src/a.ts': CODE,
    });
    // The project's own install of aiwg-cite, which the command names.
    mkdirSync(join(repo.dir, 'node_modules/.bin'), { recursive: true });
    pathWithCli();
    symlinkSync(join(binDir, 'aiwg-cite'), join(repo.dir, 'node_modules/.bin/aiwg-cite'));
    const out = init(repo);
    expect(out).toContain('aiwg-cite init: simple-git-hooks in');
    expect(out).toContain('npx simple-git-hooks');
    expect(existsSync(join(repo.dir, '.git/hooks/pre-commit'))).toBe(false);
    const cli = join(PROJECT_ROOT, 'node_modules/simple-git-hooks/cli.js');
    const set = spawnSync(process.execPath, [cli], { cwd: repo.dir, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8' });
    expect(set.status).toBe(0);
    expect(readFileSync(join(repo.dir, '.git/hooks/pre-commit'), 'utf8')).toContain(
      'echo from-simple-git-hooks && ./node_modules/.bin/aiwg-cite check --staged',
    );

    repo.write({ 'docs/new.md': BROKEN });
    repo.git('add', 'docs/new.md');
    const blocked = commit(repo, 'broken');
    expect(blocked.code).not.toBe(0);
    expect(blocked.output).toContain('from-simple-git-hooks');
    expect(blocked.output).toContain('docs/new.md:1:7');
    repo.write({ 'docs/new.md': GOOD });
    repo.git('add', 'docs/new.md');
    expect(commit(repo, 'fixed').code).toBe(0);
    expect(headMessage(repo)).toBe('fixed');
  });
});

/** A repository set up the way a husky v9 project is: package.json, `husky` run, `.husky/pre-commit`. */
function huskyRepo(files: Record<string, string>): GitRepo {
  const repo = gitRepo({
    'package.json': '{\n  "name": "demo",\n  "private": true,\n  "devDependencies": {\n    "husky": "^9.1.7"\n  }\n}\n',
    ...files,
  });
  const husky = spawnSync(process.execPath, [join(PROJECT_ROOT, 'node_modules/husky/bin.js')], {
    cwd: repo.dir,
    env: { ...process.env, ...GIT_ENV, HUSKY: '' },
    encoding: 'utf8',
  });
  expect(husky.status).toBe(0);
  expect(repo.git('config', 'core.hooksPath')).toBe('.husky/_');
  return repo;
}

describe('husky', () => {
  it('installs into .husky/pre-commit, blocks with the HUSKY=0 hint, and HUSKY=0 skips', () => {
    const repo = huskyRepo({ 'src/a.ts': CODE });
    const out = init(repo);
    expect(out).toContain('husky');
    const hook = readFileSync(join(repo.dir, '.husky/pre-commit'), 'utf8');
    expect(hook.startsWith('# AIWG-CITE\n')).toBe(true);
    expect(hook).not.toMatch(/^#!|husky\.sh/m);

    repo.write({ 'docs/new.md': BROKEN });
    repo.git('add', 'docs/new.md');
    const blocked = commit(repo, 'broken');
    expect(blocked.code).not.toBe(0);
    expect(blocked.output).toContain('docs/new.md:1:7');
    expect(blocked.output).toContain('HUSKY=0');
    expect(headMessage(repo)).toBe('initial');

    const skipped = git(repo, ['commit', '-q', '-m', 'skipped'], { HUSKY: '0' });
    expect(skipped.code).toBe(0);
    expect(headMessage(repo)).toBe('skipped');
  });

  it('with lint-staged, a partially staged file is checked as staged', () => {
    const lintStaged = join(PROJECT_ROOT, 'node_modules/.bin/lint-staged');
    const repo = huskyRepo({ 'src/a.ts': CODE, 'docs/page.md': '# Page\n\nIntro.\n' });
    const pkg = JSON.parse(readFileSync(join(repo.dir, 'package.json'), 'utf8'));
    writeFileSync(join(repo.dir, 'package.json'), `${JSON.stringify({ ...pkg, 'lint-staged': {} }, null, 2)}\n`);
    writeFileSync(join(repo.dir, '.husky/pre-commit'), `${lintStaged}\n`);
    repo.git('add', '-A');
    repo.git('commit', '-q', '--no-verify', '-m', 'lint-staged');
    init(repo);
    const config = JSON.parse(readFileSync(join(repo.dir, 'package.json'), 'utf8'));
    expect(config['lint-staged']).toEqual({ '*.md': 'aiwg-cite check --staged' });
    expect(readFileSync(join(repo.dir, '.husky/pre-commit'), 'utf8')).toContain(`# END AIWG-CITE\n${lintStaged}\n`);
    repo.git('add', 'package.json', '.husky/pre-commit');
    expect(commit(repo, 'init').code).toBe(0);

    // Staged: a good citation. Unstaged, in the same file: a broken one. lint-staged hides the
    // unstaged hunk while it runs; both checks see only what is committed.
    const staged = `# Page\n\nIntro.\n\n${GOOD}`;
    writeFileSync(join(repo.dir, 'docs/page.md'), staged);
    repo.git('add', 'docs/page.md');
    writeFileSync(join(repo.dir, 'docs/page.md'), `${staged}\n${BROKEN}`);
    const direct = spawnSync(lintStaged, [], { cwd: repo.dir, env: { ...process.env, ...GIT_ENV, PATH: pathWithCli() }, encoding: 'utf8' });
    expect(direct.status).toBe(0);
    const passed = commit(repo, 'partial');
    expect(passed.code).toBe(0);
    expect(headMessage(repo)).toBe('partial');
    expect(readFileSync(join(repo.dir, 'docs/page.md'), 'utf8')).toBe(`${staged}\n${BROKEN}`);

    // The reverse: the broken hunk staged, the fix only in the work tree.
    repo.git('add', 'docs/page.md');
    writeFileSync(join(repo.dir, 'docs/page.md'), staged);
    const lintOnly = spawnSync(lintStaged, ['--quiet'], {
      cwd: repo.dir,
      env: { ...process.env, ...GIT_ENV, PATH: pathWithCli() },
      encoding: 'utf8',
    });
    expect(lintOnly.status).not.toBe(0);
    expect(`${lintOnly.stdout}${lintOnly.stderr}`).toContain('src/missing.ts');
    const refused = commit(repo, 'broken partial');
    expect(refused.code).not.toBe(0);
    expect(headMessage(repo)).toBe('partial');
    expect(readFileSync(join(repo.dir, 'docs/page.md'), 'utf8')).toBe(staged);
  });
});

describe('check --staged as a command', () => {
  it('says a cited file is here but not in the commit when git does not track it (untracked or ignored), and blocks', () => {
    const repo = gitRepo({ '.gitignore': 'dist/\n', 'src/a.ts': CODE });
    repo.write({
      'dist/out.js': 'built\n',
      'notes.txt': 'draft\n',
      'docs/new.md': 'See [dist/out.js, L1], [notes.txt, L1] and [src/gone.ts, L1].\n',
    });
    repo.git('add', 'docs/new.md');
    const run = runCli(['check', '--staged', '--format', 'json'], { cwd: repo.dir });
    expect(run.code).toBe(1);
    const citations = (JSON.parse(run.stdout) as { citations: { artifact: string; status: string; message: string; fix: string }[] })
      .citations;
    expect(citations.map((citation) => [citation.artifact, citation.status])).toEqual([
      ['dist/out.js', 'missing'],
      ['notes.txt', 'missing'],
      ['src/gone.ts', 'missing'],
    ]);
    expect(citations[0]?.message).toBe('`dist/out.js` is not in the commit: it is in the working tree, but git does not track it');
    expect(citations[1]?.fix).toContain('git add notes.txt');
    expect(citations[2]?.message).toBe('`src/gone.ts` does not exist');
    // Staged, it is in the commit.
    repo.git('add', 'notes.txt');
    repo.git('add', '-f', 'dist/out.js');
    const after = runCli(['check', '--staged', '--format', 'json'], { cwd: repo.dir });
    expect((JSON.parse(after.stdout) as { citations: { status: string }[] }).citations.map((citation) => citation.status)).toEqual([
      'unversioned',
      'unversioned',
      'missing',
    ]);
  });

  it('exits 2 outside git and on an unmerged index, with one line naming the problem', () => {
    const outside = tempDir();
    const notGit = runCli(['check', '--staged'], { cwd: outside, env: { GIT_CEILING_DIRECTORIES: outside } });
    expect(notGit.code).toBe(2);
    expect(notGit.stderr).toMatch(/^aiwg-cite: .*--staged needs a git repository/);

    const repo = gitRepo({ 'docs/a.md': 'base\n' });
    repo.git('checkout', '-q', '-b', 'other');
    repo.write({ 'docs/a.md': 'other\n' });
    repo.commit('other');
    repo.git('checkout', '-q', 'main');
    repo.write({ 'docs/a.md': 'main\n' });
    repo.commit('main');
    expect(git(repo, ['merge', '-q', 'other']).code).not.toBe(0);
    const unmerged = runCli(['check', '--staged'], { cwd: repo.dir });
    expect(unmerged.code).toBe(2);
    expect(unmerged.stderr.trim().split('\n')).toHaveLength(1);
    expect(unmerged.stderr).toContain('docs/a.md');
  });

  it('blocks a fabricated REF id in a staged document, checked against the research corpus', () => {
    const repo = gitRepo({
      'docs/references/REF-018-react.md': '# REF-018: ReAct - Synergizing Reasoning and Acting\n\n## Citation\n\nYao, S. (2023). ReAct.\n',
    });
    init(repo);
    repo.write({ 'docs/new.md': 'Per REF-999, agents act.\n' });
    repo.git('add', 'docs/new.md');
    const blocked = commit(repo, 'fabricated');
    expect(blocked.code).not.toBe(0);
    expect(blocked.output).toMatch(/docs\/new\.md:1:5\s+error\s+ref\/not-in-corpus/);
    repo.write({ 'docs/new.md': 'Per REF-018, agents act.\n' });
    repo.git('add', 'docs/new.md');
    expect(commit(repo, 'real source').code).toBe(0);
    const fix = runCli(['check', '--staged', '--fix'], { cwd: repo.dir });
    expect(fix.code).toBe(2);
    expect(fix.stderr).toContain('--fix');
  });

  it('configured rule severities apply in the hook: rlm/stale as an error blocks a change that stales a committed citation', () => {
    const repo = gitRepo({ 'src/a.ts': CODE, 'docs/cites.md': GOOD, 'aiwg-cite.config.json': '{ "rules": { "rlm/stale": "error" } }\n' });
    init(repo);
    writeFileSync(join(repo.dir, 'src/a.ts'), `${CODE}// more\n`);
    const refused = commit(repo, 'stales a citation', '-a');
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/docs\/cites\.md:1:7\s+error\s+rlm\/stale/);
    expect(headMessage(repo)).toBe('initial');
  });

  it('AIWG_CITE_STRICT=1 makes staged warnings block', () => {
    const repo = gitRepo({ 'src/a.ts': CODE });
    init(repo);
    repo.write({ 'docs/new.md': 'Un-versioned [src/a.ts, L1].\n' });
    repo.git('add', 'docs/new.md');
    expect(git(repo, ['commit', '-q', '-m', 'strict'], { AIWG_CITE_STRICT: '1' }).code).not.toBe(0);
    expect(commit(repo, 'lenient').code).toBe(0);
  });

  it('`"strict": true` in the config makes staged warnings block, like AIWG_CITE_STRICT=1', () => {
    const repo = gitRepo({ 'src/a.ts': CODE, 'aiwg-cite.config.json': '{ "strict": true }\n' });
    init(repo);
    repo.write({ 'docs/new.md': 'Un-versioned [src/a.ts, L1].\n' });
    repo.git('add', 'docs/new.md');
    const refused = commit(repo, 'strict by config');
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/docs\/new\.md:1:14\s+error\s+rlm\/unversioned/);
    repo.write({ 'aiwg-cite.config.json': '{ "strict": false }\n' });
    repo.git('add', 'aiwg-cite.config.json');
    expect(commit(repo, 'lenient by config').code).toBe(0);
  });

  it('writes SARIF, GitHub annotations and JUnit for the staged check', () => {
    const repo = gitRepo({ 'src/a.ts': CODE });
    repo.write({ 'docs/new.md': BROKEN });
    repo.git('add', 'docs/new.md');
    const sarif = runCli(['check', '--staged', '--format', 'sarif'], { cwd: repo.dir });
    expect(sarif.code).toBe(1);
    const log = JSON.parse(sarif.stdout);
    expect(log.version).toBe('2.1.0');
    expect(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe('docs/new.md');
    const github = runCli(['check', '--staged', '--format', 'github'], { cwd: repo.dir });
    expect(github.stdout.split('\n')[0]).toMatch(/^::error file=docs\/new\.md,line=1,col=7,/);
    const junit = runCli(['check', '--staged', '--format', 'junit'], { cwd: repo.dir });
    expect(junit.stdout).toContain('<testsuite name="docs/new.md" tests="1" failures="1"');
    expect(github.stdout + junit.stdout).not.toContain('--no-verify');
  });
});
