import { lstatSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitRepo, runCli, sha16, tempDir, writeTree } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

const numbered = (count: number, prefix = 'line') => Array.from({ length: count }, (_, at) => `${prefix} ${at + 1}`);
const text = (lines: readonly string[]) => lines.map((line) => `${line}\n`).join('');

/**
 * A repository with three artifacts cited at their first versions, then changed: `moved.ts` gained
 * lines on top, `spaces.ts` only re-indented, `edited.ts` rewrote the cited line. The document has
 * a BOM, CRLF line ends, trailing spaces and no final newline, all of which must survive.
 */
function repoWithDrift() {
  const repo = gitRepo();
  const moved = numbered(6);
  const spaces = numbered(4, 'word');
  const edited = numbered(5, 'step');
  repo.write({ 'src/moved.ts': text(moved), 'src/spaces.ts': text(spaces), 'src/edited.ts': text(edited), 'src/plain.ts': 'plain\n' });
  repo.commit('add sources');
  const hashes = { moved: sha16(text(moved)), spaces: sha16(text(spaces)), edited: sha16(text(edited)) };
  repo.write({
    'src/moved.ts': text(['// a', '// b', '// c', ...moved]),
    'src/spaces.ts': text(spaces.map((line) => `  ${line}`)),
    'src/edited.ts': text(edited.map((line) => (line === 'step 3' ? 'step three, rewritten' : line))),
  });
  repo.commit('change sources');
  const current = {
    moved: sha16(readFileSync(join(repo.dir, 'src/moved.ts'))),
    spaces: sha16(readFileSync(join(repo.dir, 'src/spaces.ts'))),
    edited: sha16(readFileSync(join(repo.dir, 'src/edited.ts'))),
    plain: sha16('plain\n'),
  };
  const document = [
    '\ufeff# Design  ',
    '',
    `Moved: [src/moved.ts@${hashes.moved}, L2-4] and plain [src/plain.ts, L1].  `,
    `Spaces: [src/spaces.ts@${hashes.spaces}, L3]; edited [src/edited.ts@${hashes.edited}, L2-4].`,
    'Made up: [src/plain.ts@00000000deadbeef, L1].',
    '',
    '## Sources',
    '',
    '- src/plain.ts (L1) [un-versioned]',
    `- src/moved.ts@${hashes.moved} (L1)`,
  ].join('\r\n');
  repo.write({ 'doc.md': document });
  return { repo, hashes, current, document };
}

describe('aiwg-cite stamp', () => {
  it('pins un-versioned citations and re-pins moved and whitespace ones, byte-exact elsewhere, and is idempotent', () => {
    const { repo, hashes, current, document } = repoWithDrift();
    const run = runCli(['stamp', 'doc.md'], { cwd: repo.dir });
    expect(run.stderr).toBe('');
    const expected = document
      .replace(`[src/moved.ts@${hashes.moved}, L2-4]`, `[src/moved.ts@${current.moved}, L5-7]`)
      .replace('[src/plain.ts, L1]', `[src/plain.ts@${current.plain}, L1]`)
      .replace(`[src/spaces.ts@${hashes.spaces}, L3]`, `[src/spaces.ts@${current.spaces}, L3]`)
      .replace('- src/plain.ts (L1) [un-versioned]', `- src/plain.ts@${current.plain} (L1)`)
      .replace(`- src/moved.ts@${hashes.moved} (L1)`, `- src/moved.ts@${current.moved} (L4)`);
    expect(readFileSync(join(repo.dir, 'doc.md'))).toEqual(Buffer.from(expected, 'utf8'));
    expect(readFileSync(join(repo.dir, 'doc.md')).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(run.stdout).toContain(
      `doc.md:3:8  [src/moved.ts@${hashes.moved}, L2-4] → [src/moved.ts@${current.moved}, L5-7]  moved: re-pinned, L2-4 → L5-7`,
    );
    expect(run.stdout).toContain(`[src/edited.ts@${hashes.edited}, L2-4]  changed: left alone`);
    expect(run.stdout).toContain('[src/plain.ts@00000000deadbeef, L1]  unknown-hash: left alone');
    expect(run.stdout).toMatch(/Stamped 5 citations in 1 file\.\n$/);
    expect(run.code).toBe(1);

    const again = runCli(['stamp', 'doc.md'], { cwd: repo.dir });
    expect(readFileSync(join(repo.dir, 'doc.md'))).toEqual(Buffer.from(expected, 'utf8'));
    expect(again.stdout).toMatch(/No changes: every citation in 1 file is already stamped or needs review\.\n$/);
    expect(again.code).toBe(1);
  });

  it('--dry-run prints a unified diff and writes nothing', () => {
    const { repo, hashes, current, document } = repoWithDrift();
    const run = runCli(['stamp', '--dry-run'], { cwd: repo.dir });
    expect(readFileSync(join(repo.dir, 'doc.md'), 'utf8')).toBe(document);
    expect(run.stdout).toContain('--- a/doc.md\n+++ b/doc.md\n@@ -1,10 +1,10 @@\n');
    expect(run.stdout).toContain(
      [
        '-- src/plain.ts (L1) [un-versioned]',
        `-- src/moved.ts@${hashes.moved} (L1)`,
        `+- src/plain.ts@${current.plain} (L1)`,
        `+- src/moved.ts@${current.moved} (L4)`,
      ].join('\n'),
    );
    expect(run.stdout).toMatch(/Would stamp 5 citations in 1 file \(dry run: nothing written\)\.\n$/);
  });

  it('--accept re-pins a changed citation after review; then check --strict passes but for the fabricated one', () => {
    const { repo, current } = repoWithDrift();
    const run = runCli(['stamp', 'doc.md', '--accept', 'doc.md:4'], { cwd: repo.dir });
    expect(run.stdout).toContain(`→ [src/edited.ts@${current.edited}, L2-4]  changed: re-pinned as accepted`);
    expect(run.code).toBe(1);
    const check = runCli(['check', 'doc.md', '--strict', '--format', 'json'], { cwd: repo.dir });
    const report = JSON.parse(check.stdout) as { citations: { line: number; status: string }[] };
    expect(report.citations.filter((finding) => finding.status !== 'fresh')).toEqual([
      expect.objectContaining({ line: 5, status: 'unknown-hash' }),
    ]);

    const unused = runCli(['stamp', 'doc.md', '--accept', 'doc.md:1'], { cwd: repo.dir });
    expect(unused.stdout).toContain('--accept doc.md:1: no stale citation there to accept');
    const bad = runCli(['stamp', '--accept', 'doc.md'], { cwd: repo.dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('aiwg-cite: stamp: --accept takes FILE:LINE (for example docs/guide.md:12), not `doc.md`\n');
  });

  it('re-pins a citation of the staged (uncommitted) version whose lines then moved in the working tree', () => {
    const repo = gitRepo({ 'a.ts': 'one\n' });
    const staged = text(numbered(4));
    repo.write({ 'a.ts': staged });
    repo.git('add', 'a.ts');
    repo.write({ 'a.ts': text(['new top', ...numbered(4)]), 'doc.md': `See [a.ts@${sha16(staged)}, L2-3].\n` });
    const blame = runCli(['blame', 'doc.md', '--format', 'json'], { cwd: repo.dir });
    expect(JSON.parse(blame.stdout)).toEqual([expect.objectContaining({ pinned: null, drift: 'uncommitted', newLines: 'L3-4' })]);
    const run = runCli(['stamp', 'doc.md'], { cwd: repo.dir });
    expect(run.code).toBe(0);
    expect(readFileSync(join(repo.dir, 'doc.md'), 'utf8')).toBe(`See [a.ts@${sha16(text(['new top', ...numbered(4)]))}, L3-4].\n`);
  });

  it('edits a document reached through a symlink once, through its target, and keeps the link', () => {
    const repo = gitRepo({ 'a.txt': 'hello\n', 'linked.md': 'Also [a.txt, L1].\n', 'alias.md': { symlink: 'linked.md' } });
    const run = runCli(['stamp'], { cwd: repo.dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(lstatSync(join(repo.dir, 'alias.md')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(repo.dir, 'linked.md'), 'utf8')).toBe('Also [a.txt@5891b5b522d5df08, L1].\n');
    expect(run.stdout).toMatch(/Stamped 1 citation in 1 file\.\n$/);
  });

  it('outside git, stamps un-versioned citations and leaves stale ones alone, saying why; exit 0 when all is done', () => {
    const dir = tempDir();
    writeTree(dir, { 'a.txt': 'hello\n', 'doc.md': 'See [a.txt, L1].\n' });
    const env = { GIT_CEILING_DIRECTORIES: join(dir, '..') };
    const run = runCli(['stamp'], { cwd: dir, env });
    expect(run.code).toBe(0);
    expect(readFileSync(join(dir, 'doc.md'), 'utf8')).toBe('See [a.txt@5891b5b522d5df08, L1].\n');
    writeTree(dir, { 'a.txt': 'hello, world\n' });
    const stale = runCli(['stamp'], { cwd: dir, env });
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain('stale, but outside git the change cannot be classified: left alone');
    expect(readFileSync(join(dir, 'doc.md'), 'utf8')).toBe('See [a.txt@5891b5b522d5df08, L1].\n');
  });

  it('edits a UTF-16 document (PowerShell writes them) in its own encoding, both by stamp and by check --fix', () => {
    const utf16 = (content: string, littleEndian: boolean) => {
      const le = Buffer.from(`\ufeff${content}`, 'utf16le');
      return littleEndian ? le : le.swap16();
    };
    const repo = gitRepo({ 'a.txt': 'hello\n' });
    const doc = '# Caf\u00e9 \u{1F600}\r\nSee [a.txt, L1].\r\n';
    const stamped = doc.replace('[a.txt, L1]', '[a.txt@5891b5b522d5df08, L1]');
    writeFileSync(join(repo.dir, 'le.md'), utf16(doc, true));
    writeFileSync(join(repo.dir, 'be.md'), utf16(doc, false));
    const run = runCli(['stamp', 'le.md'], { cwd: repo.dir });
    expect(run.stdout).toMatch(/Stamped 1 citation in 1 file\.\n$/);
    expect(readFileSync(join(repo.dir, 'le.md')).equals(utf16(stamped, true))).toBe(true);
    const fix = runCli(['check', '--fix', 'be.md'], { cwd: repo.dir });
    expect(fix.code).toBe(0);
    expect(readFileSync(join(repo.dir, 'be.md')).equals(utf16(stamped, false))).toBe(true);
    // A second run changes nothing.
    expect(runCli(['stamp', 'le.md', 'be.md'], { cwd: repo.dir }).stdout).toMatch(/^No changes/);
  });

  it('leaves a document alone that is neither UTF-8 nor UTF-16 with a byte-order mark, and says so', () => {
    const repo = gitRepo({ 'a.txt': 'hello\n' });
    const latin1 = Buffer.from('Caf\xe9: see [a.txt, L1].\n', 'latin1');
    writeFileSync(join(repo.dir, 'doc.md'), latin1);
    const run = runCli(['stamp', 'doc.md'], { cwd: repo.dir });
    expect(run.stdout).toContain('doc.md: neither UTF-8 nor UTF-16 with a byte-order mark; stamp does not edit it');
    expect(readFileSync(join(repo.dir, 'doc.md')).equals(latin1)).toBe(true);
  });
});
