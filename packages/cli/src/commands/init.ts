import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { AiwgCiteError, applyEdits, splitLines, unifiedHunks } from '@aiwg-cite/core';
import { gitTopLevel, runGit, toPosix, writeFileAtomic } from '@aiwg-cite/node';
import {
  applyEdits as applyJsonEdits,
  type FormattingOptions,
  findNodeAtLocation,
  format,
  getNodeValue,
  type JSONPath,
  modify,
  type ParseError,
  parse as parseJsonc,
  parseTree,
  printParseErrorCode,
} from 'jsonc-parser';
import { parseCommandArgs } from '../args.ts';
import type { CliContext, Command } from '../context.ts';
import { initMessages, inputMessages, usageMessages } from '../messages.ts';
import { assertGitInstalled } from '../require-git.ts';
import { addPreCommitHook, isPreCommitHook, PRE_COMMIT_CONFIGS, PRE_COMMIT_HOOK_ID } from './init-pre-commit.ts';

const HELP = `Usage: aiwg-cite init [--dry-run] [--with husky]

Installs the aiwg-cite commit hook in the current git repository, the way the project already
runs its hooks:
  - husky (a .husky/ directory or a husky dependency): a marked block in .husky/pre-commit
  - husky and lint-staged (a "lint-staged" key in package.json or a .lintstagedrc/.lintstagedrc.json):
    lint-staged gets "*.md": "aiwg-cite check --staged", and the husky block runs lint-staged and
    \`aiwg-cite check --staged --reverse-only\` (committed documents the staged change breaks), so
    staged markdown is checked once and deleting or renaming a cited file still blocks
  - the pre-commit framework (a .pre-commit-config.yaml): a "repo: local" hook with id
    "aiwg-cite" first under its "repos:" (the hook script pre-commit generates is left alone)
  - simple-git-hooks (configured in package.json, or a dependency): its "pre-commit" command
    gains "&& ./node_modules/.bin/aiwg-cite check --staged"; run \`npx simple-git-hooks\` after
  - husky 4 ("husky": { "hooks": ... } in package.json, no .husky/): the same, in the
    "pre-commit" command of "husky.hooks"
  - lefthook: nothing is written (its install rewrites .git/hooks); a note says what to add
  - otherwise a plain git hook: a marked block in <core.hooksPath or .git/hooks>/pre-commit; that
    directory is local to this clone (teammates get no hook): --with husky shares it instead
Every hook first checks that aiwg-cite is installed, and otherwise stops the commit with one line:
"${'aiwg-cite is not installed: run npm install (or commit with --no-verify)'}".
An existing hook keeps all its other lines; the block sits between "# AIWG-CITE" and
"# END AIWG-CITE", once. Running init again changes nothing.

Options:
  --dry-run       print what would change, as a unified diff, and write nothing
  --with husky    add husky to package.json (devDependency, "prepare": "husky") and use .husky/pre-commit
  -h, --help      show this help
`;

/** The first and last line of the block init owns in a hook file (SPEC §11.2). */
export const BLOCK_START = '# AIWG-CITE';
/** The last line of the block. */
export const BLOCK_END = '# END AIWG-CITE';

/** The command lint-staged runs on staged markdown files (it appends their absolute paths). */
export const LINT_STAGED_COMMAND = 'aiwg-cite check --staged';

/** What a hook prints, on one line, when aiwg-cite is not installed in the clone that commits. */
export const NOT_INSTALLED = 'aiwg-cite is not installed: run npm install (or commit with --no-verify)';

/** What a hook prints when git runs it without node on PATH (a GUI client started outside a shell). */
export const NO_NODE = 'aiwg-cite needs node, which is not on the PATH git gave this hook (a git GUI?): add it, or commit with --no-verify';

/**
 * Finds aiwg-cite or stops the commit with one line: the root's own install, else one in a package
 * one or two directories down (a package.json in `website/` or `packages/docs/`, where git runs
 * the hook from the root), else one on PATH. Never `npx` without a local install: that would
 * fetch from the registry on every commit.
 */
const FIND_AIWG_CITE = [
  'aiwg_cite=',
  'for candidate in ./node_modules/.bin/aiwg-cite ./*/node_modules/.bin/aiwg-cite ./*/*/node_modules/.bin/aiwg-cite; do',
  '  if [ -x "$candidate" ]; then aiwg_cite=$candidate; break; fi',
  'done',
  'if [ -z "$aiwg_cite" ] && command -v aiwg-cite >/dev/null 2>&1; then aiwg_cite=aiwg-cite; fi',
  `if [ -z "$aiwg_cite" ]; then echo "${NOT_INSTALLED}" >&2; exit 1; fi`,
  `command -v node >/dev/null 2>&1 || { echo "${NO_NODE}" >&2; exit 1; }`,
];

/** The hook block: checks what the next commit contains. Exit 1 blocks the commit; the report names the bypass. */
export const HOOK_BLOCK = [
  BLOCK_START,
  '# Blocks commits that would publish broken citations. Bypass: git commit --no-verify',
  ...FIND_AIWG_CITE,
  '"$aiwg_cite" check --staged || exit 1',
  BLOCK_END,
].join('\n');

/**
 * The husky block beside lint-staged: lint-staged checks the staged markdown ("*.md" entry);
 * this adds the reverse direction, so a deleted or renamed cited file still blocks. It runs
 * lint-staged itself unless the hook already does.
 */
export function lintStagedHookBlock(runsLintStaged: boolean): string {
  return [
    BLOCK_START,
    '# lint-staged checks staged markdown ("*.md": "aiwg-cite check --staged"); the reverse check',
    '# blocks commits that break committed citations (a deleted or renamed cited file). Bypass: git commit --no-verify',
    ...FIND_AIWG_CITE,
    ...(runsLintStaged ? [] : ['./node_modules/.bin/lint-staged || exit 1']),
    '"$aiwg_cite" check --staged --reverse-only || exit 1',
    BLOCK_END,
  ].join('\n');
}

/** One file init would create or change. */
export interface PlannedChange {
  /** Root-relative POSIX path. */
  readonly path: string;
  readonly before: string | null;
  readonly after: string;
  /** Set the executable bit (hook scripts). */
  readonly executable: boolean;
  /** One line on what changes and why. */
  readonly summary: string;
}

/** How the repository runs its hooks. */
export interface HookSetup {
  readonly root: string;
  readonly isNpm: boolean;
  readonly isHusky: boolean;
  /** `--with husky`: package.json gains husky, and the hook goes to .husky/pre-commit. */
  readonly addHusky: boolean;
  /** The hook file init manages, root-relative (in a pre-commit framework setup, the one it generates). */
  readonly hookPath: string;
  /** The pre-commit framework's configuration the hook goes in, when the repository uses it (not husky). */
  readonly preCommitConfig: string | null;
  /**
   * Another manager that writes `.git/hooks` itself (and rewrites it on its next install), so init
   * writes no block there: lefthook (its configuration named by hand), simple-git-hooks (its
   * `pre-commit` command in package.json, when that is where it is configured), or husky 4 (the
   * `pre-commit` command of package.json's `husky.hooks`).
   */
  readonly otherManager: OtherManager | null;
  /** Where lint-staged is configured, if it is: `package.json` or a `.lintstagedrc` file. */
  readonly lintStaged: { readonly file: string; readonly inPackageJson: boolean } | null;
  /** Things init cannot do itself, said once each. */
  readonly notes: readonly string[];
}

/** A hook manager other than husky and the pre-commit framework, and the file it is configured in. */
export interface OtherManager {
  readonly name: 'husky 4' | 'lefthook' | 'simple-git-hooks';
  /** Root-relative; `null` when only a dependency names the manager. */
  readonly file: string | null;
}

/** Where lefthook looks for its configuration. */
const LEFTHOOK_CONFIGS = ['lefthook', '.lefthook', '.config/lefthook'].flatMap((base) =>
  ['yml', 'yaml', 'toml', 'json'].map((extension) => `${base}.${extension}`),
);

/** Where simple-git-hooks looks for its configuration besides package.json. */
const SIMPLE_GIT_HOOKS_CONFIGS = ['.simple-git-hooks', 'simple-git-hooks'].flatMap((base) =>
  ['json', 'cjs', 'js', 'mjs'].map((extension) => `${base}.${extension}`),
);

/** The command init puts in simple-git-hooks' or husky 4's `pre-commit` (run with `sh`; node_modules/.bin may not be on PATH). */
export const PACKAGE_HOOK_COMMAND = './node_modules/.bin/aiwg-cite check --staged';

/** `aiwg-cite init`. */
export const init: Command = {
  summary: 'install the commit hook (husky, lint-staged, the pre-commit framework or a plain git hook)',
  async run(args: readonly string[], context: CliContext): Promise<number> {
    const { values, positionals } = parseCommandArgs('init', args, {
      'dry-run': { type: 'boolean' },
      with: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      context.stdout.write(HELP);
      return 0;
    }
    if (positionals.length > 0) {
      throw new AiwgCiteError('USAGE', usageMessages.initArgument(positionals[0] as string));
    }
    if (values.with !== undefined && values.with !== 'husky') {
      throw new AiwgCiteError('USAGE', usageMessages.initWith(values.with));
    }
    const setup = detectSetup(context.cwd, { withHusky: values.with === 'husky' });
    const changes = planChanges(setup);
    const dryRun = values['dry-run'] === true;
    const out: string[] = [];
    out.push(
      initMessages.setup(
        setup.isHusky ? 'husky' : setup.preCommitConfig !== null ? 'pre-commit' : (setup.otherManager?.name ?? 'git'),
        setup.lintStaged !== null,
        setup.root,
      ),
    );
    for (const change of changes) {
      if (change.before === change.after) {
        out.push(initMessages.unchanged(change.path, change.summary));
        continue;
      }
      if (dryRun) {
        out.push(initMessages.wouldChange(change.before === null, change.path, change.summary));
        out.push(unifiedDiff(change.path, change.before, change.after));
        continue;
      }
      const absolute = join(setup.root, change.path);
      if (change.before === null) makeParent(absolute, change.path);
      writeFileAtomic(absolute, change.after, change.before === null ? undefined : Buffer.from(change.before, 'utf8'), change.path);
      if (change.executable) chmodSync(absolute, statSync(absolute).mode | 0o111);
      out.push(initMessages.changed(change.before === null, change.path, change.summary));
    }
    for (const change of changes) {
      const absolute = join(setup.root, change.path);
      if (!dryRun && change.executable && change.before === change.after && (statSync(absolute).mode & 0o111) === 0) {
        chmodSync(absolute, statSync(absolute).mode | 0o111);
        out.push(initMessages.madeExecutable(change.path));
      }
    }
    for (const note of setup.notes) out.push(initMessages.note(note));
    if (dryRun) out.push(initMessages.dryRun());
    context.stdout.write(`${out.join('\n')}\n`);
    return 0;
  },
};

/**
 * Makes the directory a new file goes in: `.husky/` before husky first ran, a `core.hooksPath`
 * nobody made yet. A file in the way is named in one line.
 */
function makeParent(absolute: string, label: string): void {
  try {
    mkdirSync(dirname(absolute), { recursive: true });
  } catch (error) {
    throw new AiwgCiteError('INPUT_UNREADABLE', `${label}: ${inputMessages.cannotMakeDirectory((error as Error).message)}`, {
      cause: error,
    });
  }
}

/** Works out how the repository at `cwd` runs its hooks. */
export function detectSetup(cwd: string, options: { readonly withHusky?: boolean } = {}): HookSetup {
  const top = gitTopLevel(cwd);
  if (top === null) {
    assertGitInstalled(cwd, 'init');
    throw new AiwgCiteError('NOT_A_REPOSITORY', inputMessages.notARepositoryForInit(cwd));
  }
  const root = toPosix(top);
  const notes: string[] = [];
  const packageText = readText(join(root, 'package.json'));
  let packageJson: Record<string, unknown> | null = null;
  if (packageText !== null) {
    const value = parseJsonFile(packageText, 'package.json');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new AiwgCiteError('CONFIG_INVALID', inputMessages.notJsonObject('package.json'));
    }
    packageJson = value as Record<string, unknown>;
  }
  const dependsOn = (name: string) =>
    packageJson !== null &&
    ['dependencies', 'devDependencies'].some((field) => typeof packageJson?.[field] === 'object' && name in (packageJson[field] as object));
  const hooksPath = runGit(root, ['config', '--get', 'core.hooksPath'])?.trim() ?? '';
  // husky 4 and older run the commands of package.json's "husky": { "hooks": ... } and read no .husky/.
  const huskyConfig = packageJson?.husky;
  const huskyFour =
    options.withHusky !== true &&
    !existsSync(join(root, '.husky')) &&
    typeof huskyConfig === 'object' &&
    huskyConfig !== null &&
    'hooks' in huskyConfig;
  const hasHusky = !huskyFour && (existsSync(join(root, '.husky')) || dependsOn('husky') || hooksPath.startsWith('.husky'));
  if (options.withHusky === true && packageJson === null) {
    throw new AiwgCiteError('USAGE', usageMessages.initHuskyNeedsPackage());
  }
  const addHusky = options.withHusky === true && !hasHusky;
  const isHusky = hasHusky || options.withHusky === true;
  let hookPath: string;
  if (isHusky) {
    hookPath = '.husky/pre-commit';
    if (addHusky) notes.push(initMessages.installHusky());
    else if (!hooksPath.startsWith('.husky')) {
      const scripts = packageJson?.scripts;
      const prepare = typeof scripts === 'object' && scripts !== null ? (scripts as Record<string, unknown>).prepare : undefined;
      notes.push(initMessages.huskyInactive(typeof prepare === 'string' && /\bhusky\b/.test(prepare)));
    }
  } else if (hooksPath !== '') {
    hookPath = toPosix(relative(root, resolve(root, hooksPath, 'pre-commit')));
  } else {
    const gitPath = runGit(root, ['rev-parse', '--git-path', 'hooks'])?.trim() ?? '.git/hooks';
    hookPath = toPosix(relative(root, resolve(root, gitPath, 'pre-commit')));
  }
  const preCommitConfig = isHusky ? null : (PRE_COMMIT_CONFIGS.find((name) => existsSync(join(root, name))) ?? null);
  if (preCommitConfig !== null) {
    if (addPreCommitHook(readText(join(root, preCommitConfig)) ?? '', NOT_INSTALLED) === null) {
      notes.push(initMessages.preCommitByHand(preCommitConfig, PRE_COMMIT_HOOK_ID));
    }
    if (!isPreCommitHook(readText(join(root, hookPath)))) notes.push(initMessages.preCommitInstall());
  }
  const otherManager: OtherManager | null = huskyFour
    ? { name: 'husky 4', file: 'package.json' }
    : isHusky || preCommitConfig !== null
      ? null
      : findOtherManager(root, packageJson, dependsOn, readText(join(root, hookPath)) ?? '', notes);
  if (!isHusky && preCommitConfig === null && otherManager === null && packageJson !== null && hooksPath === '') {
    notes.push(initMessages.hookLocal(hookPath));
  }
  // A linked worktree's or a submodule's hooks live in a git directory outside the root, as they
  // should; a core.hooksPath out there is shared with other repositories, and left to the user.
  if (hooksPath !== '' && hookPath.startsWith('..')) {
    throw new AiwgCiteError('CONFIG_INVALID', inputMessages.hooksPathOutside(hooksPath));
  }
  let lintStaged: HookSetup['lintStaged'] = null;
  const rcFile = ['.lintstagedrc.json', '.lintstagedrc'].find((name) => existsSync(join(root, name)));
  if (packageJson !== null && typeof packageJson['lint-staged'] === 'object' && packageJson['lint-staged'] !== null) {
    lintStaged = { file: 'package.json', inPackageJson: true };
  } else if (rcFile !== undefined) {
    lintStaged = { file: rcFile, inPackageJson: false };
  } else if (dependsOn('lint-staged')) {
    const other = [
      '.lintstagedrc.yaml',
      '.lintstagedrc.yml',
      '.lintstagedrc.mjs',
      '.lintstagedrc.cjs',
      '.lintstagedrc.js',
      'lint-staged.config.js',
      'lint-staged.config.mjs',
    ].find((name) => existsSync(join(root, name)));
    if (other === undefined) lintStaged = { file: 'package.json', inPackageJson: true };
    else notes.push(initMessages.lintStagedElsewhere(other, LINT_STAGED_COMMAND));
  }
  if (lintStaged !== null && !isHusky) {
    if (otherManager === null) notes.push(initMessages.lintStagedWithoutHusky());
    lintStaged = null;
  }
  return { root, isNpm: packageJson !== null, isHusky, addHusky, hookPath, preCommitConfig, otherManager, lintStaged, notes };
}

/**
 * lefthook or simple-git-hooks, when one of them writes this repository's `.git/hooks`: by its
 * configuration file, a dependency, or (lefthook) the hook script it generated. Says in `notes`
 * what init cannot do itself.
 */
function findOtherManager(
  root: string,
  packageJson: Record<string, unknown> | null,
  dependsOn: (name: string) => boolean,
  hookText: string,
  notes: string[],
): OtherManager | null {
  const exists = (name: string) => existsSync(join(root, name));
  const lefthook = LEFTHOOK_CONFIGS.find(exists) ?? null;
  if (lefthook !== null || dependsOn('lefthook') || dependsOn('@evilmartians/lefthook') || /\blefthook\b/.test(hookText)) {
    notes.push(initMessages.lefthookByHand(lefthook ?? 'lefthook.yml', PACKAGE_HOOK_COMMAND));
    return { name: 'lefthook', file: lefthook };
  }
  const simple = packageJson?.['simple-git-hooks'] !== undefined ? 'package.json' : (SIMPLE_GIT_HOOKS_CONFIGS.find(exists) ?? null);
  if (simple === null && !dependsOn('simple-git-hooks')) return null;
  if (simple === null || simple === 'package.json') notes.push(initMessages.simpleGitHooksInstall());
  else notes.push(initMessages.simpleGitHooksByHand(simple, PACKAGE_HOOK_COMMAND));
  return { name: 'simple-git-hooks', file: simple };
}

/** The changes init makes for a setup; a file already set up comes back unchanged. */
export function planChanges(setup: HookSetup): PlannedChange[] {
  const changes: PlannedChange[] = [];
  if (setup.preCommitConfig !== null) {
    const before = readText(join(setup.root, setup.preCommitConfig));
    const after = addPreCommitHook(before ?? '', NOT_INSTALLED);
    // A configuration init cannot add to is left as it is (detectSetup's note says what to add).
    if (after === null) return changes;
    changes.push({
      path: setup.preCommitConfig,
      before,
      after,
      executable: false,
      summary: initMessages.preCommitHook(PRE_COMMIT_HOOK_ID),
    });
    return changes;
  }
  if (setup.otherManager !== null) {
    // lefthook, or simple-git-hooks configured in a file of its own: detectSetup's note says what to add;
    // simple-git-hooks in package.json and husky 4 keep their command there.
    const { name, file } = setup.otherManager;
    if (name === 'lefthook' || (file !== null && file !== 'package.json')) return changes;
    const before = readText(join(setup.root, 'package.json'));
    const where = name === 'husky 4' ? ['husky', 'hooks'] : ['simple-git-hooks'];
    const after = addPackageHookCommand(before ?? '{}\n', 'package.json', where);
    changes.push({
      path: 'package.json',
      before,
      after,
      executable: false,
      summary: initMessages.packageHookEntry(where.join('.'), PACKAGE_HOOK_COMMAND),
    });
    return changes;
  }
  const hookBefore = readText(join(setup.root, setup.hookPath));
  const withLintStaged = setup.lintStaged !== null;
  changes.push({
    path: setup.hookPath,
    before: hookBefore,
    after: addHookBlock(hookBefore, setup.isHusky, withLintStaged),
    executable: true,
    summary: withLintStaged ? initMessages.hookWithLintStaged() : setup.isHusky ? initMessages.huskyHook() : initMessages.gitHook(),
  });
  if (setup.lintStaged !== null) {
    const before = readText(join(setup.root, setup.lintStaged.file));
    const after = setup.lintStaged.inPackageJson
      ? addLintStagedToPackageJson(before ?? '{}\n', setup.lintStaged.file)
      : addLintStagedEntry(before ?? '{}\n', [], setup.lintStaged.file);
    changes.push({
      path: setup.lintStaged.file,
      before,
      after,
      executable: false,
      summary: initMessages.lintStagedEntry(LINT_STAGED_COMMAND),
    });
  }
  if (setup.addHusky) {
    const path = 'package.json';
    const index = changes.findIndex((change) => change.path === path);
    const before = index === -1 ? readText(join(setup.root, path)) : (changes[index] as PlannedChange).before;
    const base = index === -1 ? (before ?? '{}\n') : (changes[index] as PlannedChange).after;
    const change = {
      path,
      before,
      after: addHuskyToPackageJson(base, path),
      executable: false,
      summary: initMessages.huskyPackage(),
    };
    if (index === -1) changes.push(change);
    else changes[index] = { ...change, summary: `${(changes[index] as PlannedChange).summary}; ${change.summary}` };
  }
  return changes;
}

/** Whether a hook, outside init's block, already runs lint-staged. */
function runsLintStaged(hook: string): boolean {
  const start = findLine(hook, BLOCK_START);
  const end = start === -1 ? -1 : findLine(hook, BLOCK_END, start);
  const outside = start === -1 || end === -1 ? hook : hook.slice(0, start) + hook.slice(end + BLOCK_END.length);
  return /(^|[\s/])lint-staged\b/m.test(outside.replace(/^\s*#.*$/gm, ''));
}

/**
 * Adds the marked block to a hook script, or refreshes it if an older one is there. A new husky v9
 * hook is plain sh (no shebang, no husky.sh line); a new git hook gets `#!/bin/sh`. In an existing
 * hook the block goes after the shebang, before commands that might `exit 0` early. With
 * lint-staged the block is the reverse check, plus lint-staged when the hook does not run it yet.
 */
export function addHookBlock(existing: string | null, isHusky: boolean, lintStaged = false): string {
  const blockText = lintStaged ? lintStagedHookBlock(existing !== null && runsLintStaged(existing)) : HOOK_BLOCK;
  if (existing === null || existing.trim() === '') return isHusky ? `${blockText}\n` : `#!/bin/sh\n${blockText}\n`;
  const newline = existing.includes('\r\n') ? '\r\n' : '\n';
  const block = blockText.split('\n').join(newline);
  const start = findLine(existing, BLOCK_START);
  if (start !== -1) {
    const endLine = findLine(existing, BLOCK_END, start);
    if (endLine !== -1) {
      const end = endLine + BLOCK_END.length;
      return applyEdits(existing, [{ start, end, text: block }]).text;
    }
  }
  let at = 0;
  if (existing.startsWith('#!')) {
    const eol = existing.indexOf('\n');
    if (eol === -1) return `${existing}${newline}${block}${newline}`;
    at = eol + 1;
  }
  return applyEdits(existing, [{ start: at, end: at, text: `${block}${newline}` }]).text;
}

function findLine(text: string, line: string, from = 0): number {
  for (let at = text.indexOf(line, from); at !== -1; at = text.indexOf(line, at + 1)) {
    const startsLine = at === 0 || text[at - 1] === '\n';
    const after = text[at + line.length];
    if (startsLine && (after === undefined || after === '\n' || after === '\r')) return at;
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------
// JSON edited with jsonc-parser (`modify` + `applyEdits`): only the keys init adds change; the
// file's indentation, line endings, key order and comments stay as they were.

/** Parses JSON or JSONC; throws `CONFIG_INVALID` naming the file and the first problem. */
export function parseJsonFile(text: string, file: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first !== undefined) {
    throw new AiwgCiteError(
      'CONFIG_INVALID',
      inputMessages.notJson(file, inputMessages.jsonParseError(printParseErrorCode(first.error), first.offset)),
    );
  }
  return value;
}

/** The file's own indentation and line ending, for the text jsonc-parser inserts. */
function formattingOf(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return indent.startsWith('\t') ? { insertSpaces: false, tabSize: 1, eol } : { insertSpaces: true, tabSize: indent.length, eol };
}

/**
 * Adds `value` at `path` in a JSON text, changing nothing else: jsonc-parser's `modify` gives the
 * raw insertion, and `format` lays out only the inserted text (modify's own formatting would
 * reflow the neighbouring lines). The new member follows the container's layout: on its own line
 * in a multi-line object, inline in a one-line one; a trailing line comment stays on its line.
 */
function setJson(text: string, path: JSONPath, value: unknown, options: { arrayInsertion?: boolean } = {}): string {
  const tree = parseTree(text);
  if (tree === undefined) return text;
  // A missing parent: add the outermost missing key, holding the rest as nested objects.
  for (let depth = 1; depth < path.length; depth += 1) {
    if (findNodeAtLocation(tree, path.slice(0, depth)) === undefined) {
      const nested = path.slice(depth).reduceRight<unknown>((inner, key) => ({ [String(key)]: inner }), value);
      return setJson(text, path.slice(0, depth), nested);
    }
  }
  const [edit] = modify(text, path, value, options.arrayInsertion === true ? { isArrayInsertion: true } : {});
  if (edit === undefined) return text;
  const container = path.length === 1 ? tree : findNodeAtLocation(tree, path.slice(0, -1));
  const containerText = container === undefined ? '' : text.slice(container.offset, container.offset + container.length);
  const formatting: FormattingOptions = { ...formattingOf(text), keepLines: !containerText.includes('\n') };
  if (edit.length !== 0 || container === undefined) {
    // A value replaced in place (a command becoming a list of commands): laid out inline.
    return applyJsonEdits(text, [{ ...edit, content: inlineJson(value) }]);
  }
  if (!edit.content.startsWith(',')) {
    // The first member of an empty container: lay out the whole (empty) container.
    if (container !== tree && !text.trim().includes('\n')) {
      const name = options.arrayInsertion === true ? '' : `${JSON.stringify(String(path[path.length - 1]))}: `;
      return applyJsonEdits(text, [{ ...edit, content: `${name}${inlineJson(value)}` }]);
    }
    const inserted = applyJsonEdits(text, [edit]);
    const range = { offset: container.offset, length: container.length + edit.content.length };
    return applyJsonEdits(inserted, format(inserted, range, { ...formattingOf(text), keepLines: false }));
  }
  const key = options.arrayInsertion === true ? '' : `${JSON.stringify(String(path[path.length - 1]))}: `;
  let at = edit.offset;
  let next = text;
  let member: string;
  if (formatting.keepLines) {
    member = `, ${key}${inlineJson(value)}`;
  } else {
    const eol = formatting.eol ?? '\n';
    const unit = formatting.insertSpaces === false ? '\t' : ' '.repeat(formatting.tabSize ?? 2);
    const sibling = text.slice(text.lastIndexOf('\n', at - 1) + 1, at);
    const indent = /^[ \t]*/.exec(sibling)?.[0] ?? '';
    const body = JSON.stringify(value, null, unit).split('\n').join(`${eol}${indent}`);
    member = `,${eol}${indent}${key}${body}`;
    const rest = /^[^\r\n]*/.exec(text.slice(at))?.[0] ?? '';
    if (/^\s*\/\//.test(rest)) {
      // `"a": 1 // note`: the comma goes after the value, the new member after the comment.
      next = `${text.slice(0, at)},${text.slice(at)}`;
      at += 1 + rest.length;
      member = member.slice(1);
    }
  }
  return `${next.slice(0, at)}${member}${next.slice(at)}`;
}

/** JSON on one line with a space after `:` and `,`, as a one-line object or array reads. */
function inlineJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inlineJson).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{ ${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${inlineJson(item)}`)
      .join(', ')} }`;
  }
  return JSON.stringify(value);
}

/**
 * Adds `"*.md": "aiwg-cite check --staged"` to the lint-staged object at `path` (member keys from
 * the root; `[]` is the root itself). An existing `*.md` entry keeps its commands and gains ours.
 */
export function addLintStagedEntry(text: string, path: readonly string[], file: string): string {
  parseJsonFile(text, file);
  const tree = parseTree(text);
  const config = tree === undefined ? undefined : path.length === 0 ? tree : findNodeAtLocation(tree, [...path]);
  if (config === undefined || config.type !== 'object') {
    throw new AiwgCiteError('CONFIG_INVALID', inputMessages.lintStagedNotObject(file));
  }
  const existing = findNodeAtLocation(config, ['*.md']);
  if (existing === undefined) return setJson(text, [...path, '*.md'], LINT_STAGED_COMMAND);
  const value = getNodeValue(existing) as unknown;
  if (typeof value === 'string') {
    if (value.includes('aiwg-cite')) return text;
    return setJson(text, [...path, '*.md'], [value, LINT_STAGED_COMMAND]);
  }
  if (Array.isArray(value)) {
    if (value.some((item) => typeof item === 'string' && item.includes('aiwg-cite'))) return text;
    return setJson(text, [...path, '*.md', value.length], LINT_STAGED_COMMAND, { arrayInsertion: true });
  }
  throw new AiwgCiteError('CONFIG_INVALID', inputMessages.lintStagedEntry(file, LINT_STAGED_COMMAND));
}

/** Adds the entry under package.json's `lint-staged` key, creating the key when it is absent. */
export function addLintStagedToPackageJson(text: string, file: string): string {
  const value = parseJsonFile(text, file);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new AiwgCiteError('CONFIG_INVALID', inputMessages.notJsonObject(file));
  }
  if ('lint-staged' in value) return addLintStagedEntry(text, ['lint-staged'], file);
  return setJson(text, ['lint-staged'], { '*.md': LINT_STAGED_COMMAND });
}

/**
 * Adds aiwg-cite to the `pre-commit` command a hook manager keeps in package.json, under `where`
 * (`simple-git-hooks`, or husky 4's `husky.hooks`): the command alone, or after the one already
 * there (`&&`, so either failing blocks); a command that runs aiwg-cite is kept.
 */
export function addPackageHookCommand(text: string, file: string, where: readonly string[]): string {
  let hooks: unknown = parseJsonFile(text, file);
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) {
    throw new AiwgCiteError('CONFIG_INVALID', inputMessages.notJsonObject(file));
  }
  for (const key of where) {
    hooks = (hooks as Record<string, unknown> | undefined)?.[key];
    if (hooks !== undefined && (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks))) {
      throw new AiwgCiteError('CONFIG_INVALID', inputMessages.hooksNotObject(file, where.join('.')));
    }
  }
  const existing = (hooks as Record<string, unknown> | undefined)?.['pre-commit'];
  if (typeof existing === 'string' && /\baiwg-cite\b/.test(existing)) return text;
  const command = typeof existing === 'string' && existing.trim() !== '' ? `${existing} && ${PACKAGE_HOOK_COMMAND}` : PACKAGE_HOOK_COMMAND;
  return setJson(text, [...where, 'pre-commit'], command);
}

/** The husky version `init --with husky` adds. */
export const HUSKY_RANGE = '^9.1.7';

/** Adds husky to package.json: a devDependency and a `prepare` script that activates it on install. */
export function addHuskyToPackageJson(text: string, file: string): string {
  const value = parseJsonFile(text, file);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new AiwgCiteError('CONFIG_INVALID', inputMessages.notJsonObject(file));
  }
  const manifest = value as {
    devDependencies?: Record<string, unknown>;
    dependencies?: Record<string, unknown>;
    scripts?: Record<string, unknown>;
  };
  let out = text;
  if (manifest.devDependencies?.husky === undefined && manifest.dependencies?.husky === undefined) {
    out = setJson(out, ['devDependencies', 'husky'], HUSKY_RANGE);
  }
  const prepare = manifest.scripts?.prepare;
  if (prepare === undefined) out = setJson(out, ['scripts', 'prepare'], 'husky');
  else if (typeof prepare === 'string' && !/\bhusky\b/.test(prepare)) out = setJson(out, ['scripts', 'prepare'], `${prepare} && husky`);
  return out;
}

// ---------------------------------------------------------------------------------------------

/** A unified diff of a planned change (the core's line diff, three lines of context), for `--dry-run`. */
export function unifiedDiff(path: string, before: string | null, after: string): string {
  const hunks = unifiedHunks(before === null ? [] : splitLines(before), splitLines(after));
  return [`--- ${before === null ? '/dev/null' : `a/${path}`}`, `+++ b/${path}`, ...hunks].join('\n');
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
