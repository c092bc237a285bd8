import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { CLI_ENTRY, GIT_ENV, PROJECT_ROOT, sha16, tempDir } from '@aiwg-cite/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue 16's "done means", as a user runs it: the packed tarball goes into a scratch npm project
// with `npm i -D ./aiwg-cite-*.tgz` (offline, empty npm cache), `npx aiwg-cite init` wires the
// hook, and real `git commit`s are blocked or let through: plain git, husky, husky + lint-staged
// and the pre-commit framework. Deleting a cited file is blocked in every setup, and a teammate
// without node_modules gets the one-line "not installed" message.

const CODE = 'export const one = 1;\nexport const two = 2;\n';
const GOOD = `Cites [src/a.ts@${sha16(CODE)}, L1-2].\n`;
const FABRICATED = 'Cites [src/invented.ts@0123456789abcdef, L1].\n';
const NOT_INSTALLED = 'aiwg-cite is not installed: run npm install (or commit with --no-verify)';
const TIMEOUT = 600_000;

interface Run {
  readonly code: number;
  readonly output: string;
}

let tarball = '';

/** The npm pack directory, removed after the file (a hook registered inside beforeAll never ran: one leaked per run). */
let packDirectory: string | null = null;
afterAll(() => {
  if (packDirectory !== null) rmSync(packDirectory, { recursive: true, force: true });
});

beforeAll(async () => {
  if (!existsSync(CLI_ENTRY)) throw new Error(`build the CLI first: pnpm build (${CLI_ENTRY} is missing)`);
  const dest = realpathSync(mkdtempSync(join(tmpdir(), 'aiwg-cite-pack-')));
  packDirectory = dest;
  const pack = await run('npm', ['pack', '--silent', '--pack-destination', dest], join(PROJECT_ROOT, 'packages/cli'), baseEnv(dest));
  expect(pack.code).toBe(0);
  tarball = join(dest, pack.output.trim().split('\n').pop() as string);
}, TIMEOUT);

/** No aiwg-cite or lint-staged from this repository on PATH (pnpm puts its node_modules/.bin there). */
function cleanPath(): string {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter((entry) => !entry.includes('node_modules'))
    .join(delimiter);
}

function baseEnv(dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...GIT_ENV,
    PATH: cleanPath(),
    NO_COLOR: '1',
    npm_config_cache: join(dir, '.npm-cache'),
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    PRE_COMMIT_HOME: join(dir, '.pre-commit-home'),
  };
  for (const key of ['HUSKY', 'AIWG_CITE_STRICT', 'GIT_INDEX_FILE', 'GIT_DIR', 'GIT_WORK_TREE']) delete env[key];
  return env;
}

/** Runs a process without blocking the test worker; output is stdout and stderr together. */
function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, [...args], { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

/** A scratch npm project in a git repository with aiwg-cite (and `extra` packages) installed offline. */
async function project(extra: readonly string[]) {
  const dir = tempDir('aiwg-cite-adopt-');
  const env = baseEnv(dir);
  const sh = (command: string, ...args: string[]) => run(command, args, dir, env);
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'scratch', version: '1.0.0', private: true }, null, 2)}\n`);
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\n.npm-cache/\n.pre-commit-home/\n');
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'src/a.ts'), CODE);
  writeFileSync(join(dir, 'docs/ok.md'), `# OK\n\n${GOOD}`);
  expect((await sh('git', 'init', '-q', '-b', 'main')).code).toBe(0);
  await sh('git', 'config', 'commit.gpgsign', 'false');
  const install = await sh('npm', 'i', '-D', tarball, ...extra);
  expect(install.output).not.toMatch(/ERR!/);
  expect(install.code).toBe(0);
  return { dir, env, sh };
}

type Project = Awaited<ReturnType<typeof project>>;

const head = async (p: Project) => (await p.sh('git', 'log', '-1', '--format=%s')).output.trim();

/** The commits every setup must get right, through whatever hook it installed. */
async function commitsBehave(p: Project, framework = false): Promise<void> {
  expect((await p.sh('git', 'add', '-A')).code).toBe(0);
  const wired = await p.sh('git', 'commit', '-q', '-m', 'wire the hook');
  expect(wired.output).not.toMatch(/:\d+:\d+\s+error/);
  expect(wired.code).toBe(0);

  writeFileSync(join(p.dir, 'docs/new.md'), `# New\n\n${FABRICATED}`);
  await p.sh('git', 'add', 'docs/new.md');
  const blocked = await p.sh('git', 'commit', '-q', '-m', 'fabricated');
  expect(blocked.output).toContain('docs/new.md:3:7');
  expect(blocked.code).not.toBe(0);
  expect(await head(p)).toBe('wire the hook');

  writeFileSync(join(p.dir, 'docs/new.md'), `# New\n\n${GOOD}`);
  await p.sh('git', 'add', 'docs/new.md');
  const passed = await p.sh('git', 'commit', '-q', '-m', 'good citation');
  expect(passed.code).toBe(0);
  expect(await head(p)).toBe('good citation');

  // Deleting a cited source file, no markdown staged: the reverse check blocks it.
  await p.sh('git', 'rm', '-q', 'src/a.ts');
  const deleted = await p.sh('git', 'commit', '-q', '-m', 'delete a cited file');
  expect(deleted.output).toContain('src/a.ts');
  expect(deleted.code).not.toBe(0);
  expect(await head(p)).toBe('good citation');
  await p.sh('git', 'reset', '-q', '--hard');

  // A teammate who pulled but did not install: one line, and the commit stops.
  renameSync(join(p.dir, 'node_modules'), join(p.dir, 'node_modules.off'));
  writeFileSync(join(p.dir, 'docs/ok.md'), `# OK, edited\n\n${GOOD}`);
  await p.sh('git', 'add', 'docs/ok.md');
  const teammate = await p.sh('git', 'commit', '-q', '-m', 'no install');
  // The pre-commit framework frames a hook's output with its own lines, and husky adds one
  // (`husky - pre-commit script failed`); the hook itself prints the one line alone.
  const lines = teammate.output.trim().split('\n');
  if (framework) expect(lines).toContain(NOT_INSTALLED);
  else expect(lines.filter((line) => !line.startsWith('husky - '))).toEqual([NOT_INSTALLED]);
  expect(teammate.code).not.toBe(0);
  renameSync(join(p.dir, 'node_modules.off'), join(p.dir, 'node_modules'));
}

const pkgDir = (name: string) => realpathSync(join(PROJECT_ROOT, 'node_modules', name));

describe('adopting aiwg-cite from the packed tarball', () => {
  it('plain git: init writes .git/hooks/pre-commit and says it is local to this clone', { timeout: TIMEOUT }, async () => {
    const p = await project([]);
    const init = await p.sh('npx', 'aiwg-cite', 'init');
    expect(init.code).toBe(0);
    expect(init.output).toContain('.git/hooks/pre-commit is local to this clone');
    expect(init.output).toContain('--with husky');
    await commitsBehave(p);
  });

  it('husky: init writes .husky/pre-commit', { timeout: TIMEOUT }, async () => {
    const p = await project([pkgDir('husky')]);
    expect((await p.sh('npx', 'husky')).code).toBe(0);
    const init = await p.sh('npx', 'aiwg-cite', 'init');
    expect(init.output).toContain('created    .husky/pre-commit');
    expect(init.code).toBe(0);
    await commitsBehave(p);
  });

  it('husky + lint-staged: markdown is checked once, by lint-staged; the hook adds the reverse check', { timeout: TIMEOUT }, async () => {
    const p = await project([pkgDir('husky'), pkgDir('lint-staged')]);
    expect((await p.sh('npx', 'husky')).code).toBe(0);
    const dry = await p.sh('npx', 'aiwg-cite', 'init', '--dry-run');
    expect(dry.output).toContain('+++ b/package.json');
    expect(dry.output).toContain('+  "lint-staged": {');
    const init = await p.sh('npx', 'aiwg-cite', 'init');
    expect(init.code).toBe(0);
    const hook = readFileSync(join(p.dir, '.husky/pre-commit'), 'utf8');
    expect(hook).toContain('./node_modules/.bin/lint-staged || exit 1');
    expect(hook).toContain('check --staged --reverse-only');
    expect(JSON.parse(readFileSync(join(p.dir, 'package.json'), 'utf8'))['lint-staged']).toEqual({ '*.md': 'aiwg-cite check --staged' });
    await commitsBehave(p);
  });

  it('the pre-commit framework: the hook from this repository installs and runs (pre-commit install, try-repo)', {
    timeout: TIMEOUT,
  }, async (context) => {
    const version = await run('pre-commit', ['--version'], PROJECT_ROOT, process.env);
    if (version.code !== 0) {
      process.stderr.write('skipped: the pre-commit framework test: pre-commit is not installed (apt-get install pre-commit)\n');
      context.skip();
    }
    const p = await project([]);
    const rev = (await run('git', ['rev-parse', 'HEAD'], PROJECT_ROOT, process.env)).output.trim();
    writeFileSync(
      join(p.dir, '.pre-commit-config.yaml'),
      `repos:\n  - repo: ${PROJECT_ROOT}\n    rev: ${rev}\n    hooks:\n      - id: aiwg-cite\n`,
    );
    expect((await p.sh('pre-commit', 'install')).code).toBe(0);
    await commitsBehave(p, true);

    // try-repo runs the hook definitions of this checkout as they are, uncommitted changes included.
    writeFileSync(join(p.dir, 'docs/tried.md'), FABRICATED);
    await p.sh('git', 'add', 'docs/tried.md');
    const tried = await p.sh('pre-commit', 'try-repo', PROJECT_ROOT, 'aiwg-cite');
    expect(tried.output).toContain('docs/tried.md:1:7');
    expect(tried.code).toBe(1);
  });
});
