import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { AiwgCiteError, applyEdits, type TextEdit } from '@aiwg-cite/core';
import { gitTopLevel, runGit, toPosix, writeFileAtomic } from '@aiwg-cite/node';
import { parseCommandArgs } from '../args.ts';
import type { CliContext, Command } from '../context.ts';

const HELP = `Usage: aiwg-cite init [--dry-run]

Installs the aiwg-cite commit hook in the current git repository, the way the project already
runs its hooks:
  - husky (a .husky/ directory or a husky dependency): a marked block in .husky/pre-commit
  - otherwise a plain git hook: a marked block in <core.hooksPath or .git/hooks>/pre-commit
  - lint-staged (a "lint-staged" key in package.json or a .lintstagedrc/.lintstagedrc.json):
    "*.md": "${'aiwg-cite check --staged'}"
An existing hook keeps all its other lines; the block sits between "# AIWG-CITE" and
"# END AIWG-CITE", once. Running init again changes nothing.

Options:
  --dry-run    print what would change, as a diff, and write nothing
  -h, --help   show this help
`;

/** The first and last line of the block init owns in a hook file (SPEC §11.2). */
export const BLOCK_START = '# AIWG-CITE';
/** The last line of the block. */
export const BLOCK_END = '# END AIWG-CITE';

/** The command lint-staged runs on staged markdown files (it appends their absolute paths). */
export const LINT_STAGED_COMMAND = 'aiwg-cite check --staged';

/**
 * The hook block. It prefers the project's own install, then one on PATH, then npx without
 * installing anything, so it works whether aiwg-cite is a local dependency or not. Exit 1 blocks
 * the commit; the report names the bypass.
 */
export const HOOK_BLOCK = [
  BLOCK_START,
  '# Blocks commits that would publish broken citations. Bypass: git commit --no-verify',
  'if [ -x ./node_modules/.bin/aiwg-cite ]; then ./node_modules/.bin/aiwg-cite check --staged',
  'elif command -v aiwg-cite >/dev/null 2>&1; then aiwg-cite check --staged',
  'else npx --no-install aiwg-cite check --staged',
  'fi || exit 1',
  BLOCK_END,
].join('\n');

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
  /** The hook file init manages, root-relative. */
  readonly hookPath: string;
  /** Where lint-staged is configured, if it is: `package.json` or a `.lintstagedrc` file. */
  readonly lintStaged: { readonly file: string; readonly inPackageJson: boolean } | null;
  /** Things init cannot do itself, said once each. */
  readonly notes: readonly string[];
}

/** `aiwg-cite init`. */
export const init: Command = {
  summary: 'install the commit hook (husky, lint-staged or a plain git hook)',
  async run(args: readonly string[], context: CliContext): Promise<number> {
    const { values, positionals } = parseCommandArgs('init', args, {
      'dry-run': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      context.stdout.write(HELP);
      return 0;
    }
    if (positionals.length > 0) {
      throw new AiwgCiteError('USAGE', `init: unexpected argument \`${positionals[0]}\`; run \`aiwg-cite init --help\``);
    }
    const setup = detectSetup(context.cwd);
    const changes = planChanges(setup);
    const dryRun = values['dry-run'] === true;
    const out: string[] = [];
    out.push(
      `aiwg-cite init: ${setup.isHusky ? 'husky' : 'plain git hook'}${setup.lintStaged === null ? '' : ' + lint-staged'} in ${setup.root}`,
    );
    for (const change of changes) {
      if (change.before === change.after) {
        out.push(`  unchanged  ${change.path} (${change.summary})`);
        continue;
      }
      if (dryRun) {
        out.push(`  would ${change.before === null ? 'create' : 'update'} ${change.path} (${change.summary})`);
        out.push(unifiedDiff(change.path, change.before, change.after));
        continue;
      }
      const absolute = join(setup.root, change.path);
      writeFileAtomic(absolute, change.after, change.before === null ? undefined : Buffer.from(change.before, 'utf8'), change.path);
      if (change.executable) chmodSync(absolute, statSync(absolute).mode | 0o111);
      out.push(`  ${change.before === null ? 'created' : 'updated'}    ${change.path} (${change.summary})`);
    }
    for (const change of changes) {
      const absolute = join(setup.root, change.path);
      if (!dryRun && change.executable && change.before === change.after && (statSync(absolute).mode & 0o111) === 0) {
        chmodSync(absolute, statSync(absolute).mode | 0o111);
        out.push(`  chmod +x   ${change.path} (git skips hooks that are not executable)`);
      }
    }
    for (const note of setup.notes) out.push(`  note: ${note}`);
    if (dryRun) out.push('  (dry run: nothing was written)');
    context.stdout.write(`${out.join('\n')}\n`);
    return 0;
  },
};

/** Works out how the repository at `cwd` runs its hooks. */
export function detectSetup(cwd: string): HookSetup {
  const top = gitTopLevel(cwd);
  if (top === null) throw new AiwgCiteError('NOT_A_REPOSITORY', `${cwd}: init needs a git repository (run \`git init\` first)`);
  const root = toPosix(top);
  const notes: string[] = [];
  const packageText = readText(join(root, 'package.json'));
  let packageJson: Record<string, unknown> | null = null;
  if (packageText !== null) {
    try {
      packageJson = JSON.parse(packageText) as Record<string, unknown>;
    } catch (error) {
      throw new AiwgCiteError('CONFIG_INVALID', `package.json: not valid JSON (${(error as Error).message})`, { cause: error });
    }
  }
  const dependsOn = (name: string) =>
    packageJson !== null &&
    ['dependencies', 'devDependencies'].some((field) => typeof packageJson?.[field] === 'object' && name in (packageJson[field] as object));
  const hooksPath = runGit(root, ['config', '--get', 'core.hooksPath'])?.trim() ?? '';
  const isHusky = existsSync(join(root, '.husky')) || dependsOn('husky') || hooksPath.startsWith('.husky');
  let hookPath: string;
  if (isHusky) {
    hookPath = '.husky/pre-commit';
    if (!hooksPath.startsWith('.husky'))
      notes.push('husky is not active yet: run `npx husky` (or add `"prepare": "husky"` and `npm install`)');
  } else if (hooksPath !== '') {
    hookPath = toPosix(relative(root, resolve(root, hooksPath, 'pre-commit')));
  } else {
    const gitPath = runGit(root, ['rev-parse', '--git-path', 'hooks'])?.trim() ?? '.git/hooks';
    hookPath = toPosix(relative(root, resolve(root, gitPath, 'pre-commit')));
  }
  if (!isHusky && packageJson !== null) {
    notes.push('package.json found but no husky: installed a plain git hook (with husky, run init again to use .husky/pre-commit)');
  }
  if (hookPath.startsWith('..')) {
    throw new AiwgCiteError(
      'CONFIG_INVALID',
      `core.hooksPath ${hooksPath} lies outside the repository; add the hook there by hand (see hooks/pre-commit)`,
    );
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
    else notes.push(`lint-staged is configured in ${other}; add "*.md": "${LINT_STAGED_COMMAND}" there by hand`);
  }
  if (lintStaged !== null && isHusky) {
    notes.push(
      'the husky block checks the whole commit (including committed documents it breaks); lint-staged checks each staged markdown file',
    );
  }
  return { root, isNpm: packageJson !== null, isHusky, hookPath, lintStaged, notes };
}

/** The changes init makes for a setup; a file already set up comes back unchanged. */
export function planChanges(setup: HookSetup): PlannedChange[] {
  const changes: PlannedChange[] = [];
  const hookBefore = readText(join(setup.root, setup.hookPath));
  changes.push({
    path: setup.hookPath,
    before: hookBefore,
    after: addHookBlock(hookBefore, setup.isHusky),
    executable: true,
    summary: setup.isHusky ? 'husky v9 pre-commit: run `aiwg-cite check --staged`' : 'git pre-commit: run `aiwg-cite check --staged`',
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
      summary: `lint-staged: "*.md": "${LINT_STAGED_COMMAND}"`,
    });
  }
  return changes;
}

/**
 * Adds the marked block to a hook script, or refreshes it if an older one is there. A new husky v9
 * hook is plain sh (no shebang, no husky.sh line); a new git hook gets `#!/bin/sh`. In an existing
 * hook the block goes after the shebang, before commands that might `exit 0` early.
 */
export function addHookBlock(existing: string | null, isHusky: boolean): string {
  if (existing === null || existing.trim() === '') return isHusky ? `${HOOK_BLOCK}\n` : `#!/bin/sh\n${HOOK_BLOCK}\n`;
  const newline = existing.includes('\r\n') ? '\r\n' : '\n';
  const block = HOOK_BLOCK.split('\n').join(newline);
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
// JSON edited by byte range: the user's formatting, key order and comments-free layout survive.

type JsonNode =
  | { readonly type: 'object'; readonly start: number; readonly end: number; readonly members: readonly JsonMember[] }
  | { readonly type: 'array'; readonly start: number; readonly end: number; readonly items: readonly JsonNode[] }
  | { readonly type: 'string'; readonly start: number; readonly end: number; readonly value: string }
  | { readonly type: 'other'; readonly start: number; readonly end: number };

interface JsonMember {
  readonly key: string;
  readonly keyStart: number;
  readonly value: JsonNode;
}

/** Parses JSON (RFC 8259) keeping the offsets of every value; throws `CONFIG_INVALID` naming the file. */
export function parseJsonWithOffsets(text: string, file: string): JsonNode {
  let at = 0;
  const fail = (what: string): never => {
    throw new AiwgCiteError('CONFIG_INVALID', `${file}: not valid JSON (${what} at offset ${at})`);
  };
  const space = () => {
    while (at < text.length && ' \t\n\r\uFEFF'.includes(text[at] as string)) at += 1;
  };
  const string = (): { start: number; end: number; value: string } => {
    const start = at;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: RFC 8259 forbids raw control characters in strings
    const pattern = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (match === null) return fail('a bad string');
    at += match[0].length;
    return { start, end: at, value: JSON.parse(match[0]) as string };
  };
  const value = (): JsonNode => {
    space();
    const start = at;
    const char = text[at];
    if (char === '{') {
      at += 1;
      const members: JsonMember[] = [];
      space();
      if (text[at] === '}') {
        at += 1;
        return { type: 'object', start, end: at, members };
      }
      for (;;) {
        space();
        if (text[at] !== '"') fail('a key expected');
        const key = string();
        space();
        if (text[at] !== ':') fail('`:` expected');
        at += 1;
        members.push({ key: key.value, keyStart: key.start, value: value() });
        space();
        if (text[at] === ',') {
          at += 1;
          continue;
        }
        if (text[at] === '}') {
          at += 1;
          return { type: 'object', start, end: at, members };
        }
        fail('`,` or `}` expected');
      }
    }
    if (char === '[') {
      at += 1;
      const items: JsonNode[] = [];
      space();
      if (text[at] === ']') {
        at += 1;
        return { type: 'array', start, end: at, items };
      }
      for (;;) {
        items.push(value());
        space();
        if (text[at] === ',') {
          at += 1;
          continue;
        }
        if (text[at] === ']') {
          at += 1;
          return { type: 'array', start, end: at, items };
        }
        fail('`,` or `]` expected');
      }
    }
    if (char === '"') return { type: 'string', ...string() };
    const literalPattern = /true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    literalPattern.lastIndex = at;
    const literal = literalPattern.exec(text);
    if (literal === null) return fail('a value expected');
    at += literal[0].length;
    return { type: 'other', start, end: at };
  };
  const root = value();
  space();
  if (at !== text.length) fail('trailing characters');
  return root;
}

/** The indentation of the line holding `offset`. */
function indentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

/** An edit that adds `"key": raw` as the last member of an object, in the object's own style. */
function appendMember(text: string, object: Extract<JsonNode, { type: 'object' }>, key: string, raw: string): TextEdit {
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const last = object.members[object.members.length - 1];
  if (last === undefined) {
    const outer = indentAt(text, object.start);
    const unit = detectIndentUnit(text);
    return {
      start: object.start + 1,
      end: object.end - 1,
      text: `${newline}${outer}${unit}${JSON.stringify(key)}: ${raw}${newline}${outer}`,
    };
  }
  const multiline = text.slice(object.start, last.keyStart).includes('\n');
  const separator = multiline ? `,${newline}${indentAt(text, last.keyStart)}` : ', ';
  return { start: last.value.end, end: last.value.end, text: `${separator}${JSON.stringify(key)}: ${raw}` };
}

function detectIndentUnit(text: string): string {
  const match = /\n([ \t]+)"/.exec(text);
  return match?.[1] ?? '  ';
}

/**
 * Adds `"*.md": "aiwg-cite check --staged"` to the lint-staged object at `path` (member keys from
 * the root; `[]` is the root itself). An existing `*.md` entry keeps its commands and gains ours.
 */
export function addLintStagedEntry(text: string, path: readonly string[], file: string): string {
  const root = parseJsonWithOffsets(text, file);
  let node: JsonNode = root;
  for (const key of path) {
    if (node.type !== 'object') throw new AiwgCiteError('CONFIG_INVALID', `${file}: \`${key}\` is not an object`);
    const member: JsonMember | undefined = node.members.find((candidate) => candidate.key === key);
    if (member === undefined) throw new AiwgCiteError('CONFIG_INVALID', `${file}: no \`${key}\` key`);
    node = member.value;
  }
  if (node.type !== 'object') throw new AiwgCiteError('CONFIG_INVALID', `${file}: the lint-staged configuration is not an object`);
  const command = JSON.stringify(LINT_STAGED_COMMAND);
  const existing = node.members.find((member) => member.key === '*.md');
  if (existing === undefined) return applyEdits(text, [appendMember(text, node, '*.md', command)]).text;
  const value = existing.value;
  if (value.type === 'string') {
    if (value.value.includes('aiwg-cite')) return text;
    return applyEdits(text, [{ start: value.start, end: value.end, text: `[${text.slice(value.start, value.end)}, ${command}]` }]).text;
  }
  if (value.type === 'array') {
    if (value.items.some((item) => item.type === 'string' && item.value.includes('aiwg-cite'))) return text;
    const last = value.items[value.items.length - 1];
    const edit =
      last === undefined
        ? { start: value.start + 1, end: value.end - 1, text: command }
        : { start: last.end, end: last.end, text: `, ${command}` };
    return applyEdits(text, [edit]).text;
  }
  throw new AiwgCiteError(
    'CONFIG_INVALID',
    `${file}: the lint-staged "*.md" entry is neither a command nor a list of commands; add ${command} by hand`,
  );
}

/** Adds the entry under package.json's `lint-staged` key, creating the key when it is absent. */
export function addLintStagedToPackageJson(text: string, file: string): string {
  const root = parseJsonWithOffsets(text, file);
  if (root.type !== 'object') throw new AiwgCiteError('CONFIG_INVALID', `${file}: not a JSON object`);
  if (root.members.some((member) => member.key === 'lint-staged')) return addLintStagedEntry(text, ['lint-staged'], file);
  return applyEdits(text, [appendMember(text, root, 'lint-staged', `{ "*.md": ${JSON.stringify(LINT_STAGED_COMMAND)} }`)]).text;
}

// ---------------------------------------------------------------------------------------------

/** A unified diff of two texts (whole-line LCS, three lines of context), for `--dry-run`. */
export function unifiedDiff(path: string, before: string | null, after: string): string {
  const a = before === null ? [] : splitLines(before);
  const b = splitLines(after);
  const rows = a.length + 1;
  const cols = b.length + 1;
  const lcs = new Uint32Array(rows * cols);
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      lcs[i * cols + j] =
        a[i] === b[j]
          ? (lcs[(i + 1) * cols + j + 1] as number) + 1
          : Math.max(lcs[(i + 1) * cols + j] as number, lcs[i * cols + j + 1] as number);
    }
  }
  const ops: { kind: ' ' | '-' | '+'; line: string; aLine: number; bLine: number }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i] as string, aLine: i, bLine: j });
      i += 1;
      j += 1;
    } else if (j < b.length && (i === a.length || (lcs[i * cols + j + 1] as number) >= (lcs[(i + 1) * cols + j] as number))) {
      ops.push({ kind: '+', line: b[j] as string, aLine: i, bLine: j });
      j += 1;
    } else {
      ops.push({ kind: '-', line: a[i] as string, aLine: i, bLine: j });
      i += 1;
    }
  }
  const out = [`--- ${before === null ? '/dev/null' : `a/${path}`}`, `+++ b/${path}`];
  const context = 3;
  const changed = ops.flatMap((op, index) => (op.kind === ' ' ? [] : [index]));
  let group = 0;
  while (group < changed.length) {
    let last = group;
    while (last + 1 < changed.length && (changed[last + 1] as number) - (changed[last] as number) <= context * 2 + 1) last += 1;
    const from = Math.max(0, (changed[group] as number) - context);
    const to = Math.min(ops.length, (changed[last] as number) + context + 1);
    const hunk = ops.slice(from, to);
    const first = hunk[0] as (typeof ops)[number];
    const aCount = hunk.filter((op) => op.kind !== '+').length;
    const bCount = hunk.filter((op) => op.kind !== '-').length;
    out.push(`@@ -${aCount === 0 ? first.aLine : first.aLine + 1},${aCount} +${bCount === 0 ? first.bLine : first.bLine + 1},${bCount} @@`);
    for (const op of hunk) out.push(`${op.kind}${op.line}`);
    group = last + 1;
  }
  return out.join('\n');
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
