/**
 * Issue 15, item 3: a citation of a file inside a submodule was fresh in `check` and MISSING in
 * `check --staged` (the index holds only the submodule's commit). Paths inside a submodule now
 * resolve in every mode (`check --staged` reads them at the commit the index records); when the
 * submodule is not checked out they are `unchecked`, a note, never missing; a file missing from a
 * checked-out submodule is missing in every mode (`check` had called it unchecked).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { GIT_ENV, gitRepo, runCli, sha16, tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

const LIB = 'export function lib() {\n  return 1;\n}\n';

interface JsonFinding {
  readonly status: string;
  readonly severity: string;
  readonly message: string;
}

function findings(stdout: string): JsonFinding[] {
  return (JSON.parse(stdout) as { citations: JsonFinding[] }).citations;
}

/** A superproject with `vendor/sub` as a submodule holding `lib.ts`, and a document citing it. */
function superproject() {
  const sub = gitRepo({ 'lib.ts': LIB });
  const main = gitRepo({ 'README.md': '# main\n' });
  main.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub.dir, 'vendor/sub');
  main.write({ 'docs/uses.md': `It returns one [vendor/sub/lib.ts@${sha16(LIB)}, L2].\n` });
  main.commit('add the submodule and a document');
  return main;
}

describe('fault 15.3: paths inside submodules', () => {
  it('resolve in check and in check --staged alike: fresh, not missing', () => {
    const main = superproject();
    const check = runCli(['check', '--format', 'json'], { cwd: main.dir });
    expect(findings(check.stdout).map((finding) => finding.status)).toEqual(['fresh']);

    main.write({ 'docs/uses.md': `It returns one [vendor/sub/lib.ts@${sha16(LIB)}, L2]; still.\n` });
    main.git('add', 'docs/uses.md');
    const staged = runCli(['check', '--staged', '--format', 'json'], { cwd: main.dir });
    expect(staged.stderr).toBe('');
    expect(findings(staged.stdout).map((finding) => finding.status)).toEqual(['fresh']);
    expect(staged.code).toBe(0);
  });

  it('a file missing from a checked-out submodule is MISSING in check and check --staged alike', () => {
    const main = superproject();
    main.write({ 'docs/gone.md': 'Also [vendor/sub/nope.ts, L1].\n' });
    main.git('add', 'docs/gone.md');
    for (const args of [['check'], ['check', '--staged']]) {
      const run = runCli([...args, '--format', 'json', 'docs/gone.md'], { cwd: main.dir });
      expect(run.code).toBe(1);
      expect(findings(run.stdout)).toEqual([expect.objectContaining({ status: 'missing', severity: 'error' })]);
    }
  });

  it('a submodule that is not checked out gives an `unchecked` note in every mode, never MISSING', () => {
    const origin = superproject();
    const clone = join(tempDir(), 'clone');
    execFileSync('git', ['clone', '-q', origin.dir, clone], { env: { ...process.env, ...GIT_ENV } });
    const check = runCli(['check', '--format', 'json'], { cwd: clone });
    const staged = runCli(['check', '--staged', '--format', 'json', 'docs/uses.md'], { cwd: clone });
    for (const run of [check, staged]) {
      expect(run.code).toBe(0);
      const [finding] = findings(run.stdout);
      expect(finding).toMatchObject({ status: 'unchecked', severity: 'info' });
      expect(finding?.message).toContain('inside submodule `vendor/sub`');
    }
  });
});
