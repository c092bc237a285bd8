import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { onTestFinished } from 'vitest';

/** The repository this test suite belongs to; no test may write inside it. */
export const PROJECT_ROOT = realpathSync(fileURLToPath(new URL('../../..', import.meta.url)));

/** The built CLI entry (`pnpm build` makes it). */
export const CLI_ENTRY = join(PROJECT_ROOT, 'packages/cli/dist/cli.js');

/** The shared corpora beside the project (`../shared/corpora`; `AIWG_CITE_SHARED` names another shared directory). */
export const SHARED_CORPORA = join(process.env.AIWG_CITE_SHARED ?? join(PROJECT_ROOT, '..', 'shared'), 'corpora');

const announced = new Set<string>();

/**
 * The directory of one shared corpus, or `undefined` when it is absent (a clean clone has no
 * `../shared` beside it). When absent, one line on stderr says which tests skip and why; the
 * caller skips them with `describe.skipIf(corpus === undefined)`.
 */
export function sharedCorpus(name: string, tests: string): string | undefined {
  const dir = join(SHARED_CORPORA, name);
  if (existsSync(dir)) return dir;
  if (!announced.has(tests)) {
    announced.add(tests);
    process.stderr.write(
      `skipped: ${tests}: ../shared/corpora/${name} is absent (a clean clone has no ../shared beside it; AIWG_CITE_SHARED=DIR names one)\n`,
    );
  }
  return undefined;
}

/** A file tree: path → contents, or `{ symlink }` for a link. */
export type Tree = Record<string, string | Uint8Array | { readonly symlink: string }>;

/** Creates a realpath temporary directory, removed when the test finishes. */
export function tempDir(prefix = 'aiwg-cite-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const inside = relative(PROJECT_ROOT, dir);
  if (!inside.startsWith('..')) throw new Error(`refusing to use ${dir}: it is inside the project worktree`);
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes a tree of files under `dir`. */
export function writeTree(dir: string, tree: Tree): void {
  for (const [path, contents] of Object.entries(tree)) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    if (typeof contents === 'object' && 'symlink' in contents) symlinkSync(contents.symlink, target);
    else writeFileSync(target, contents);
  }
}

/**
 * Environment for git in tests: no user config, no signing, fixed identity, and no automatic gc
 * (a background `git gc --auto` after a large commit races the temp directory's removal).
 */
export const GIT_ENV: Record<string, string> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_COUNT: '2',
  GIT_CONFIG_KEY_0: 'gc.auto',
  GIT_CONFIG_VALUE_0: '0',
  GIT_CONFIG_KEY_1: 'maintenance.auto',
  GIT_CONFIG_VALUE_1: 'false',
  GIT_AUTHOR_NAME: 'Test Author',
  GIT_AUTHOR_EMAIL: 'author@example.test',
  GIT_COMMITTER_NAME: 'Test Committer',
  GIT_COMMITTER_EMAIL: 'committer@example.test',
};

/** A real git repository in a temporary directory. */
export interface GitRepo {
  readonly dir: string;
  /** Runs git in the repository and returns trimmed stdout; throws on failure. */
  git(...args: string[]): string;
  /** Writes files (relative to the repository). */
  write(tree: Tree): void;
  /** Stages everything and commits with a fixed, increasing date; returns the commit sha. */
  commit(message: string): string;
}

/** Creates a repository with `git init -b main`, fixed identity, no signing, no gc, and commits `files` if given. */
export function gitRepo(files?: Tree): GitRepo {
  const dir = tempDir('aiwg-cite-git-');
  let tick = 0;
  const env = (): NodeJS.ProcessEnv => {
    const date = new Date(Date.UTC(2026, 0, 1) + tick * 60_000).toISOString();
    return { ...process.env, ...GIT_ENV, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  };
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: dir, env: env(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  git('init', '-q', '-b', 'main');
  git('config', 'commit.gpgsign', 'false');
  git('config', 'gc.auto', '0');
  git('config', 'core.autocrlf', 'false');
  const repo: GitRepo = {
    dir,
    git,
    write: (tree) => writeTree(dir, tree),
    commit(message) {
      tick += 1;
      git('add', '-A');
      git('commit', '-q', '--allow-empty', '-m', message);
      return git('rev-parse', 'HEAD');
    },
  };
  if (files !== undefined) {
    repo.write(files);
    repo.commit('initial');
  }
  return repo;
}

/**
 * A real-world snapshot (`<corpus>/<name>.tar.xz` of ../shared/corpora/realworld) unpacked into a
 * temporary directory and committed, as a user's checkout looks; the archive is only read. Its
 * processes run asynchronously ({@link runAsync}): the largest snapshots take seconds.
 */
export async function snapshotRepo(corpus: string, name: string): Promise<string> {
  const dir = tempDir(`aiwg-cite-rw-${name}-`);
  mkdirSync(dir, { recursive: true });
  const run = async (command: string, ...args: string[]) => {
    const done = await runAsync(command, args, { cwd: dir });
    if (done.code !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${dir}: ${done.stderr.trim()}`);
  };
  await run('tar', '-xJf', join(corpus, `${name}.tar.xz`), '-C', dir);
  await run('git', 'init', '-q', '-b', 'main');
  await run('git', 'add', '-A', '-f');
  await run('git', 'commit', '-q', '--no-verify', '-m', 'snapshot');
  return dir;
}

/** The outcome of a CLI run. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a process asynchronously with the environment {@link runCli} gives the CLI: for long runs,
 * where a synchronous spawn would starve vitest's worker RPC on a loaded machine ("Timeout calling
 * onTaskUpdate"), and beside processes the test talks to meanwhile.
 */
export function runAsync(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string | undefined> },
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...GIT_ENV, NO_COLOR: '1', FORCE_COLOR: undefined, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code: code ?? -1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
  });
}

/** The built CLI as a real process, asynchronously ({@link runAsync}). */
export function runCliAsync(args: readonly string[], options: { cwd: string; env?: Record<string, string | undefined> }): Promise<CliRun> {
  return runAsync(process.execPath, [CLI_ENTRY, ...args], options);
}

/** Runs the built CLI as a real process. */
export function runCli(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string | undefined>; input?: string },
): CliRun {
  const result = spawnSync(process.execPath, [CLI_ENTRY, ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...GIT_ENV, NO_COLOR: '1', FORCE_COLOR: undefined, ...options.env },
    encoding: 'utf8',
    input: options.input ?? '',
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** sha256 of bytes, first 16 hex: the RLM content hash, computed independently of the core. */
export function sha16(contents: string | Uint8Array): string {
  return execFileSync('sha256sum', { input: contents }).toString().slice(0, 16);
}

/**
 * Every `new AiwgCiteError(code, message)` in the `.ts`/`.tsx` files under `dir` (tests left out)
 * whose message is a sentence written in place: a string or template literal with a word outside
 * its `${…}` (either branch of a `?:`, either side of a `+`). STYLE §3 keeps sentences in the
 * package's messages module; `${path}: ${messages.x()}` passes. Each as `file:line: message`.
 */
export function inlineErrorSentences(dir: string): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(dir)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node) && node.expression.getText(source) === 'AiwgCiteError') {
        const message = node.arguments?.[1];
        if (message !== undefined && hasInlineWords(message)) {
          const { line } = source.getLineAndCharacterOfPosition(message.getStart(source));
          found.push(`${relative(dir, file)}:${line + 1}: ${message.getText(source)}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

function hasInlineWords(node: ts.Expression): boolean {
  if (ts.isParenthesizedExpression(node)) return hasInlineWords(node.expression);
  if (ts.isConditionalExpression(node)) return hasInlineWords(node.whenTrue) || hasInlineWords(node.whenFalse);
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    return hasInlineWords(node.left) || hasInlineWords(node.right);
  }
  const text =
    ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)
      ? node.text
      : ts.isTemplateExpression(node)
        ? [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ')
        : '';
  return /[A-Za-z]{2,}/.test(text);
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(path);
  }
  return out.sort();
}
