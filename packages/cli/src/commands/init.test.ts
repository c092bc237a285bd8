import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gitRepo, PROJECT_ROOT } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import {
  addHookBlock,
  addHuskyToPackageJson,
  addLintStagedEntry,
  addLintStagedToPackageJson,
  BLOCK_END,
  BLOCK_START,
  detectSetup,
  HOOK_BLOCK,
  LINT_STAGED_COMMAND,
  lintStagedHookBlock,
  parseJsonFile,
  planChanges,
  unifiedDiff,
} from './init.ts';

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('addHookBlock', () => {
  it('creates a husky v9 hook as plain sh and a git hook with a shebang', () => {
    expect(addHookBlock(null, true)).toBe(`${HOOK_BLOCK}\n`);
    expect(addHookBlock(null, false)).toBe(`#!/bin/sh\n${HOOK_BLOCK}\n`);
    expect(addHookBlock(null, true)).not.toMatch(/#!|husky\.sh/);
  });

  it('adds the block after the shebang of an existing hook and keeps every other byte', () => {
    const existing = '#!/usr/bin/env bash\nset -e\nnpm test\nexit 0\n';
    const after = addHookBlock(existing, false);
    expect(after).toBe(`#!/usr/bin/env bash\n${HOOK_BLOCK}\nset -e\nnpm test\nexit 0\n`);
    expect(after.replace(`${HOOK_BLOCK}\n`, '')).toBe(existing);
  });

  it('is idempotent and refreshes an older block in place', () => {
    const once = addHookBlock('npx lint-staged\n', true);
    expect(addHookBlock(once, true)).toBe(once);
    expect(count(once, BLOCK_START)).toBe(1);
    const old = `npx lint-staged\n${BLOCK_START}\naiwg-cite check --staged\n${BLOCK_END}\necho done\n`;
    expect(addHookBlock(old, true)).toBe(`npx lint-staged\n${HOOK_BLOCK}\necho done\n`);
  });

  it('beside lint-staged: the reverse check, plus lint-staged only when the hook does not run it already', () => {
    expect(addHookBlock(null, true, true)).toBe(`${lintStagedHookBlock(false)}\n`);
    expect(lintStagedHookBlock(false)).toContain('./node_modules/.bin/lint-staged || exit 1');
    expect(lintStagedHookBlock(false)).toContain('"$aiwg_cite" check --staged --reverse-only || exit 1');
    const withLintStaged = addHookBlock('npx lint-staged\n', true, true);
    expect(withLintStaged).toBe(`${lintStagedHookBlock(true)}\nnpx lint-staged\n`);
    expect(lintStagedHookBlock(true)).not.toContain('node_modules/.bin/lint-staged');
    expect(addHookBlock(withLintStaged, true, true)).toBe(withLintStaged);
  });

  it('keeps CRLF line endings', () => {
    const after = addHookBlock('#!/bin/sh\r\necho hi\r\n', false);
    expect(after).toBe(`#!/bin/sh\r\n${HOOK_BLOCK.split('\n').join('\r\n')}\r\necho hi\r\n`);
  });

  it('ships the same block in hooks/', () => {
    for (const file of ['hooks/pre-commit', 'hooks/husky-pre-commit']) {
      const text = readFileSync(join(PROJECT_ROOT, file), 'utf8');
      expect(text).toContain(HOOK_BLOCK);
      expect(statSync(join(PROJECT_ROOT, file)).mode & 0o111).not.toBe(0);
    }
    expect(readFileSync(join(PROJECT_ROOT, 'hooks/husky-pre-commit'), 'utf8')).not.toMatch(/^#!|^\. .*husky\.sh/m);
    expect(JSON.parse(readFileSync(join(PROJECT_ROOT, 'hooks/lint-staged.json'), 'utf8'))).toEqual({ '*.md': LINT_STAGED_COMMAND });
  });
});

describe('.pre-commit-hooks.yaml', () => {
  it('declares aiwg-cite and aiwg-cite-online as SPEC §11.2 lists them', () => {
    const text = readFileSync(join(PROJECT_ROOT, '.pre-commit-hooks.yaml'), 'utf8');
    // One `- id:` block per hook, flat `key: value` lines: enough to read this file without a YAML parser.
    const hooks = text
      .split(/^- /m)
      .slice(1)
      .map((block) => {
        const hook: Record<string, string> = {};
        for (const line of block.split('\n')) {
          const match = /^\s*([a-z_]+): (.*)$/.exec(line);
          if (match !== null) hook[match[1] as string] = match[2] as string;
        }
        return hook;
      });
    expect(hooks.map((hook) => hook.id)).toEqual(['aiwg-cite', 'aiwg-cite-online']);
    expect(hooks[0]).toMatchObject({
      entry: 'hooks/pre-commit-framework',
      language: 'script',
      always_run: 'true',
      pass_filenames: 'false',
      minimum_pre_commit_version: '3.0.0',
    });
    expect(hooks[0]?.stages).toBeUndefined();
    expect(hooks[1]).toMatchObject({ entry: 'hooks/pre-commit-framework online', language: 'script', stages: '[manual]' });
    expect(statSync(join(PROJECT_ROOT, 'hooks/pre-commit-framework')).mode & 0o111).not.toBe(0);
  });
});

describe('lint-staged configuration, edited by byte range', () => {
  const command = JSON.stringify(LINT_STAGED_COMMAND);

  it('adds the *.md entry in the file’s own indentation, leaving the rest untouched', () => {
    const text = '{\n    "name": "x",\n    "lint-staged": {\n        "*.ts": ["biome check"]\n    },\n    "private": true\n}\n';
    const after = addLintStagedToPackageJson(text, 'package.json');
    expect(after).toBe(
      `{\n    "name": "x",\n    "lint-staged": {\n        "*.ts": ["biome check"],\n        "*.md": ${command}\n    },\n    "private": true\n}\n`,
    );
    expect(addLintStagedToPackageJson(after, 'package.json')).toBe(after);
  });

  it('adds to an existing *.md command or list of commands', () => {
    expect(addLintStagedEntry('{ "*.md": "prettier --check" }', [], 'x')).toBe(`{ "*.md": ["prettier --check", ${command}] }`);
    expect(addLintStagedEntry('{"*.md": ["a", "b"]}', [], 'x')).toBe(`{"*.md": ["a", "b", ${command}]}`);
    expect(addLintStagedEntry('{"*.md": []}', [], 'x')).toBe(`{"*.md": [${command}]}`);
    expect(addLintStagedEntry('{"*.md": "aiwg-cite check"}', [], 'x')).toBe('{"*.md": "aiwg-cite check"}');
  });

  it('fills an empty object and creates the package.json key when absent', () => {
    expect(addLintStagedEntry('{}\n', [], '.lintstagedrc')).toBe(`{\n  "*.md": ${command}\n}\n`);
    expect(addLintStagedToPackageJson('{\n  "name": "x"\n}\n', 'package.json')).toBe(
      `{\n  "name": "x",\n  "lint-staged": {\n    "*.md": ${command}\n  }\n}\n`,
    );
  });

  it('refuses invalid JSON with one line naming the file', () => {
    expect(() => parseJsonFile('{"a": 1,, }', 'package.json')).toThrow(
      /^package\.json: not valid JSON \(PropertyNameExpected at offset 8\)$/,
    );
    expect(() => addLintStagedEntry('{"*.md": 3}', [], '.lintstagedrc')).toThrow(/\.lintstagedrc: the lint-staged "\*\.md" entry/);
  });

  it('keeps comments, tabs, odd indentation and CRLF: only the added keys change', () => {
    const text = '{\r\n\t// the app\r\n\t"name": "x", /* inline */\r\n\t"lint-staged": {\r\n\t\t"*.ts": "tsc" // types\r\n\t}\r\n}\r\n';
    const after = addLintStagedToPackageJson(text, 'package.json');
    expect(after).toBe(
      '{\r\n\t// the app\r\n\t"name": "x", /* inline */\r\n\t"lint-staged": {\r\n\t\t"*.ts": "tsc", // types\r\n\t\t"*.md": "aiwg-cite check --staged"\r\n\t}\r\n}\r\n',
    );
    const odd = '{\n   "name": "x",\n   "scripts": { "test": "vitest" }\n}\n';
    const husky = addHuskyToPackageJson(odd, 'package.json');
    expect(husky).toBe(
      '{\n   "name": "x",\n   "scripts": { "test": "vitest", "prepare": "husky" },\n   "devDependencies": {\n      "husky": "^9.1.7"\n   }\n}\n',
    );
    expect(addHuskyToPackageJson(husky, 'package.json')).toBe(husky);
  });
});

describe('unifiedDiff', () => {
  it('shows an insertion with three lines of context and correct hunk ranges', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\n';
    const after = 'a\nb\nc\nd\nNEW\ne\nf\ng\n';
    expect(unifiedDiff('x', before, after)).toBe(
      ['--- a/x', '+++ b/x', '@@ -2,6 +2,7 @@', ' b', ' c', ' d', '+NEW', ' e', ' f', ' g'].join('\n'),
    );
    expect(unifiedDiff('new', null, 'one\n')).toBe(['--- /dev/null', '+++ b/new', '@@ -0,0 +1 @@', '+one'].join('\n'));
  });
});

describe('detectSetup and planChanges', () => {
  it('uses husky when the project depends on it, and says when husky is not active yet', () => {
    const repo = gitRepo({ 'package.json': '{ "devDependencies": { "husky": "^9" } }\n' });
    const setup = detectSetup(repo.dir);
    expect(setup).toMatchObject({ isNpm: true, isHusky: true, hookPath: '.husky/pre-commit', lintStaged: null });
    expect(setup.notes.join('\n')).toContain('npx husky');
    expect(planChanges(setup)).toEqual([
      expect.objectContaining({ path: '.husky/pre-commit', before: null, after: `${HOOK_BLOCK}\n`, executable: true }),
    ]);
  });

  it('finds lint-staged in .lintstagedrc.json, and names a configuration it cannot edit', () => {
    const rc = gitRepo({ '.husky/pre-commit': 'npx lint-staged\n', '.lintstagedrc.json': '{\n  "*.ts": "tsc"\n}\n' });
    const setup = detectSetup(rc.dir);
    expect(setup.lintStaged).toEqual({ file: '.lintstagedrc.json', inPackageJson: false });
    const lint = planChanges(setup).find((change) => change.path === '.lintstagedrc.json');
    expect(lint?.after).toBe(`{\n  "*.ts": "tsc",\n  "*.md": "${LINT_STAGED_COMMAND}"\n}\n`);

    const yaml = gitRepo({ 'package.json': '{ "devDependencies": { "lint-staged": "^16" } }\n', '.lintstagedrc.yaml': '"*.ts": tsc\n' });
    const other = detectSetup(yaml.dir);
    expect(other.lintStaged).toBeNull();
    expect(other.notes.join('\n')).toContain('.lintstagedrc.yaml');
    expect(other).toMatchObject({ isHusky: false, hookPath: '.git/hooks/pre-commit' });
    expect(other.notes.join('\n')).toContain('.git/hooks/pre-commit is local to this clone');
  });

  it('refuses a package.json that is not JSON, naming it', () => {
    const repo = gitRepo({ 'package.json': '{ nope\n' });
    expect(() => detectSetup(repo.dir)).toThrow(/^package\.json: not valid JSON/);
  });
});
