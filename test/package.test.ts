import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_ENTRY, GIT_ENV, PROJECT_ROOT, sha16, tempDir } from '@aiwg-cite/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The publishable package as a user gets it: `npm pack` in packages/cli, then `npm i -D` of the
// tarball into a scratch npm project, offline and with an empty npm cache (the package has no
// runtime dependencies: everything it needs is in the tarball).

const CLI_DIR = join(PROJECT_ROOT, 'packages/cli');
const CODE = 'export const one = 1;\n';

interface PackedFile {
  readonly path: string;
}

let tarball = '';
let files: string[] = [];

/** The npm pack directory, removed after the file (a hook registered inside beforeAll never ran: one leaked per run). */
let packDirectory: string | null = null;
afterAll(() => {
  if (packDirectory !== null) rmSync(packDirectory, { recursive: true, force: true });
});

beforeAll(async () => {
  if (!existsSync(CLI_ENTRY)) throw new Error(`build the CLI first: pnpm build (${CLI_ENTRY} is missing)`);
  const dest = realpathSync(mkdtempSync(join(tmpdir(), 'aiwg-cite-pack-')));
  packDirectory = dest;
  const pack = await run('npm', ['pack', '--json', '--pack-destination', dest], CLI_DIR, npmEnv(dest));
  // npm warns about npm_config_* variables that pnpm sets for scripts (verify-deps-before-run): not ours.
  expect(pack.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('npm warn Unknown env config'))).toEqual([]);
  const [packed] = JSON.parse(pack.stdout) as [{ filename: string; files: PackedFile[] }];
  tarball = join(dest, packed.filename);
  files = packed.files.map((file) => file.path);
});

/** npm with an empty cache of its own, offline, and no audit or funding chatter. */
function npmEnv(dir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...GIT_ENV,
    npm_config_cache: join(dir, '.npm-cache'),
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    NO_COLOR: '1',
  };
}

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a process without blocking the test worker (npm takes many seconds on a busy machine). */
function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, [...args], { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('npm pack of packages/cli', () => {
  it('holds the README, LICENSE, CHANGELOG, the bundle and its types, and no sources or source maps', () => {
    for (const name of [
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
      'package.json',
      'bin/aiwg-cite.js',
      'dist/cli.js',
      'dist/api.js',
      'dist/api.d.ts',
      'dist/report-types.d.ts',
    ]) {
      expect(files).toContain(name);
    }
    expect(files.filter((file) => file.endsWith('.map') || (file.endsWith('.ts') && !file.endsWith('.d.ts')))).toEqual([]);
    expect(
      files.filter((file) => !/^(README\.md|LICENSE|CHANGELOG\.md|package\.json|bin\/|dist\/|schema\/aiwg-cite\.schema\.json$)/.test(file)),
    ).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(CLI_DIR, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.exports).toMatchObject({ '.': { types: './dist/api.d.ts', default: './dist/api.js' } });
  });

  it('installs offline into a scratch npm project, where npx aiwg-cite check (and deno run npm:aiwg-cite check), init and the typed API work', {
    timeout: 300_000,
  }, async () => {
    const dir = tempDir('aiwg-cite-scratch-');
    const env = npmEnv(dir);
    writeFileSync(
      join(dir, 'package.json'),
      `${JSON.stringify({ name: 'scratch', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
    );
    expect((await run('git', ['init', '-q', '-b', 'main'], dir, env)).code).toBe(0);
    const install = await run('npm', ['i', '-D', tarball], dir, env);
    expect(install.stderr).not.toMatch(/ERR!/);
    expect(install.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).devDependencies['aiwg-cite']).toMatch(/aiwg-cite-.*\.tgz$/);

    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src/a.ts'), CODE);
    writeFileSync(join(dir, 'good.md'), `Cites [src/a.ts@${sha16(CODE)}, L1].\n`);
    const good = await run('npx', ['aiwg-cite', 'check', 'good.md'], dir, env);
    expect(good.stdout).toContain('PASS');
    expect(good.code).toBe(0);
    writeFileSync(join(dir, 'bad.md'), 'Cites [src/invented.ts@0123456789abcdef, L1].\n');
    const bad = await run('npx', ['aiwg-cite', 'check'], dir, env);
    expect(bad.stdout).toContain('bad.md:1:7');
    expect(bad.code).toBe(1);

    // Deno 2 runs the same installed package: a package.json project resolves npm: from node_modules.
    const deno = await run(join(PROJECT_ROOT, 'node_modules/.bin/deno'), ['run', '-A', 'npm:aiwg-cite', 'check'], dir, {
      ...env,
      DENO_NO_UPDATE_CHECK: '1',
    });
    expect(deno.stdout).toBe(bad.stdout);
    expect(deno.code).toBe(1);

    const init = await run('npx', ['aiwg-cite', 'init'], dir, env);
    expect(init.code).toBe(0);
    expect(readFileSync(join(dir, '.git/hooks/pre-commit'), 'utf8')).toContain('"$aiwg_cite" check --staged || exit 1');

    // The programmatic API, typed: tsc checks a consumer against dist/api.d.ts, node runs it.
    writeFileSync(
      join(dir, 'use.ts'),
      "import { check, type Report } from 'aiwg-cite';\nconst report: Report = await check({ paths: ['good.md', 'bad.md'] });\n" +
        "const errors: string[] = report.citations.filter((item) => item.severity === 'error').map((item) => item.file + ':' + item.line + ' ' + item.rule);\n" +
        'console.log(report.verdict, errors.join(","));\n',
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: [] },
      }),
    );
    const tsc = await run(process.execPath, [join(PROJECT_ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'], dir, env);
    expect(tsc.stdout).toBe('');
    expect(tsc.code).toBe(0);
    writeFileSync(
      join(dir, 'use.mjs'),
      readFileSync(join(dir, 'use.ts'), 'utf8').replace(', type Report', '').replace(': Report', '').replace(': string[]', ''),
    );
    const api = await run(process.execPath, ['use.mjs'], dir, env);
    expect(api.stdout).toBe('FAIL bad.md:1 rlm/missing\n');
  });
});
