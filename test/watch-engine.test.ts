/**
 * The watch engine's state transitions against real files in a real git repository: after each
 * kind of change (atomic save, delete, rename, new file, new document, document edit, mass
 * change by `git checkout`), the engine's report must equal a fresh `aiwg-cite check --format
 * json` on the same tree. Needs the built CLI (`cd packages/cli && node build.mjs`).
 */
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type HistoryFacts, pinKey } from '@aiwg-cite/core';
import { createNodeReader, discoverDocuments, nodeSha256, resolveWorkspace } from '@aiwg-cite/node';
import { type GitRepo, gitRepo, sha16 } from '@aiwg-cite/test-utils';
import { type EngineUpdate, formatVerdictChange, WatchEngine } from '@aiwg-cite/tui';
import { describe, expect, it } from 'vitest';
import { expectParity } from './watch-helpers.ts';

const A1 = 'export function a() {\n  return 1;\n}\n';
const B1 = 'export const b = 2;\nexport const bb = 3;\n';
const C1 = 'line one\nline two\nline three\n';

function docOne(): string {
  return [
    '# One',
    '',
    `Function a returns one [src/a.ts@${sha16(A1)}, L1-3].`,
    '',
    'The b constants [src/b.ts, L1-2] are un-versioned.',
    '',
    'A missing one [src/x.ts@0123456789abcdef, L1].',
    '',
    'Notes live in [NOTES.txt] once someone writes them.',
    '',
  ].join('\n');
}

function docTwo(): string {
  return ['# Two', '', `Again [src/a.ts@${sha16(A1)}, L2] and [src/c.ts@${sha16(C1)}, L1-2].`, ''].join('\n');
}

function project(): GitRepo {
  return gitRepo({ 'src/a.ts': A1, 'src/b.ts': B1, 'src/c.ts': C1, 'docs/one.md': docOne(), 'docs/two.md': docTwo() });
}

function discover(dir: string): string[] {
  return discoverDocuments(resolveWorkspace(dir, undefined), dir, []);
}

function engineFor(dir: string, options: { maxDocumentBytes?: number } = {}): WatchEngine {
  return new WatchEngine({ reader: createNodeReader(dir), sha256: nodeSha256, ...options });
}

/** An editor's atomic save: write a temporary file beside the target, then rename it over. */
function atomicSave(dir: string, path: string, contents: string): string[] {
  const temporary = `${path}.swp-${Math.random().toString(16).slice(2)}`;
  writeFileSync(join(dir, temporary), contents);
  renameSync(join(dir, temporary), join(dir, path));
  return [temporary, path];
}

function lines(update: EngineUpdate): string[] {
  return update.changes.map(formatVerdictChange);
}

describe('WatchEngine', () => {
  it('loads to the same report as check', async () => {
    const repo = project();
    const engine = engineFor(repo.dir);
    const update = await engine.load(discover(repo.dir));
    expect(update.reason).toBe('load');
    expectParity(engine, repo.dir);
    expect(engine.citing('src/a.ts')).toEqual(['docs/one.md', 'docs/two.md']);
    // A bare `[NOTES.txt]` names no file yet, but the document asked: it depends on it.
    expect(engine.isCited('NOTES.txt')).toBe(true);
    const snapshot = engine.snapshot();
    expect(snapshot.summary.rlm).toMatchObject({ fresh: 3, stale: 0, unversioned: 1, missing: 1 });
    expect(snapshot.attention.map((finding) => finding.status)).toEqual(['unversioned', 'missing']);
  });

  it('follows an atomic save, a delete, a rename, a new file, a new document and a document edit', async () => {
    const repo = project();
    const engine = engineFor(repo.dir);
    await engine.load(discover(repo.dir));

    const saved = await engine.apply({ paths: atomicSave(repo.dir, 'src/a.ts', `${A1}// edited\n`) });
    expect(saved.rechecked).toBe(2);
    expect(lines(saved)).toEqual([
      `docs/one.md:3:24 FRESH -> STALE [src/a.ts@${sha16(A1)}, L1-3]`,
      `docs/two.md:3:7 FRESH -> STALE [src/a.ts@${sha16(A1)}, L2]`,
    ]);
    expectParity(engine, repo.dir);

    rmSync(join(repo.dir, 'src/b.ts'));
    const deleted = await engine.apply({ paths: ['src/b.ts'] });
    expect(deleted.rechecked).toBe(1);
    expect(lines(deleted)).toEqual(['docs/one.md:5:17 UN-VERSIONED -> MISSING [src/b.ts, L1-2]']);
    expectParity(engine, repo.dir);

    renameSync(join(repo.dir, 'src/c.ts'), join(repo.dir, 'src/c2.ts'));
    const renamed = await engine.apply({ paths: ['src/c.ts', 'src/c2.ts'] });
    expect(lines(renamed)).toEqual([`docs/two.md:3:43 FRESH -> MISSING [src/c.ts@${sha16(C1)}, L1-2]`]);
    expectParity(engine, repo.dir);

    writeFileSync(join(repo.dir, 'NOTES.txt'), 'notes\n');
    const created = await engine.apply({ paths: ['NOTES.txt'] });
    expect(lines(created)).toEqual(['docs/one.md:9:15 (none) -> UN-VERSIONED [NOTES.txt]']);
    expectParity(engine, repo.dir);

    writeFileSync(join(repo.dir, 'docs/three.md'), `Three cites [src/c2.ts@${sha16(C1)}, L3].\n`);
    const added = await engine.apply({ paths: ['docs/three.md'], documents: discover(repo.dir) });
    expect(added.scopeChanged).toBe(true);
    expect(lines(added)).toEqual([`docs/three.md:1:13 (none) -> FRESH [src/c2.ts@${sha16(C1)}, L3]`]);
    expect(engine.citing('src/c2.ts')).toEqual(['docs/three.md']);
    expectParity(engine, repo.dir);

    // Inserting lines moves citations without changing their verdicts: no change lines.
    writeFileSync(join(repo.dir, 'docs/one.md'), `Preface.\n\n${docOne().replace('[src/x.ts@0123456789abcdef, L1]', 'nothing')}`);
    const edited = await engine.apply({ paths: ['docs/one.md'] });
    expect(lines(edited)).toEqual(['docs/one.md:7:15 MISSING -> (none) [src/x.ts@0123456789abcdef, L1]']);
    expect(engine.isCited('src/x.ts')).toBe(false);
    expectParity(engine, repo.dir);

    rmSync(join(repo.dir, 'docs/two.md'));
    const removed = await engine.apply({ paths: ['docs/two.md'], documents: discover(repo.dir) });
    expect(removed.changes.every((change) => change.file === 'docs/two.md' && change.after === null)).toBe(true);
    expect(engine.documents()).toEqual(['docs/one.md', 'docs/three.md']);
    expectParity(engine, repo.dir);
  });

  it('ends a git checkout that changes hundreds of files in the same state as check', async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 300; index += 1) files[`src/gen/f${index}.ts`] = `export const v${index} = ${index};\n`;
    const cites = (range: number[]) =>
      range.map((index) => `- [src/gen/f${index}.ts@${sha16(files[`src/gen/f${index}.ts`] as string)}]`).join('\n');
    const repo = gitRepo({
      ...files,
      'docs/low.md': `# Low\n\n${cites([...Array(150).keys()])}\n`,
      'docs/high.md': `# High\n\n${cites([...Array(150).keys()].map((index) => index + 150))}\n`,
    });
    repo.git('checkout', '-q', '-b', 'rewrite');
    const changed: Record<string, string> = {};
    for (let index = 0; index < 300; index += 2) changed[`src/gen/f${index}.ts`] = `export const v${index} = ${index + 1};\n`;
    repo.write({ ...changed, 'docs/new.md': '[src/gen/f1.ts, L1]\n' });
    rmSync(join(repo.dir, 'src/gen/f3.ts'));
    repo.commit('rewrite');
    repo.git('checkout', '-q', 'main');

    const engine = engineFor(repo.dir);
    await engine.load(discover(repo.dir));
    expectParity(engine, repo.dir);

    const touched = repo.git('diff', '--name-only', 'main', 'rewrite').split('\n');
    expect(touched.length).toBeGreaterThan(150);
    repo.git('checkout', '-q', 'rewrite');
    const update = await engine.apply({ paths: touched, documents: discover(repo.dir) });
    expect(update.paths).toBe(touched.length);
    expect(engine.snapshot().summary.rlm).toMatchObject({ stale: 150, missing: 1, unversioned: 1 });
    expectParity(engine, repo.dir);

    repo.git('checkout', '-q', 'main');
    await engine.apply({ paths: touched, documents: discover(repo.dir) });
    expectParity(engine, repo.dir);
    expect(engine.snapshot().summary.rlm).toMatchObject({ fresh: 300, stale: 0 });
  });

  it('re-reads everything under a directory that was removed or renamed', async () => {
    const repo = project();
    const engine = engineFor(repo.dir);
    await engine.load(discover(repo.dir));
    renameSync(join(repo.dir, 'src'), join(repo.dir, 'lib'));
    const update = await engine.apply({ paths: [], directories: ['src', 'lib'] });
    expect(update.rechecked).toBe(2);
    expectParity(engine, repo.dir);
    renameSync(join(repo.dir, 'lib'), join(repo.dir, 'src'));
    await engine.apply({ paths: [], directories: ['src', 'lib'] });
    expectParity(engine, repo.dir);
  });

  it('reports a binary, huge or unreadable document and skips it without failing', async () => {
    const repo = project();
    writeFileSync(join(repo.dir, 'docs/binary.md'), Uint8Array.from([0x23, 0x20, 0x00, 0x01, 0x0a]));
    writeFileSync(join(repo.dir, 'docs/huge.md'), `${'x'.repeat(5000)}\n`);
    mkdirSync(join(repo.dir, 'docs/folder.md'));
    const engine = engineFor(repo.dir, { maxDocumentBytes: 4096 });
    await engine.load([...discover(repo.dir), 'docs/folder.md']);
    expect(engine.snapshot().skipped).toEqual([
      { file: 'docs/binary.md', reason: 'binary content, not markdown' },
      { file: 'docs/folder.md', reason: 'a directory, not a file' },
      { file: 'docs/huge.md', reason: '4.9 KiB is larger than the 4.0 KiB limit' },
    ]);
    expect(engine.report().coverage.notes).toContain('docs/binary.md: skipped (binary content, not markdown)');
    // The readable documents are still checked in full.
    expect(engine.snapshot().documents).toBe(2);

    // Fixed: the document becomes text again and is checked.
    writeFileSync(join(repo.dir, 'docs/binary.md'), `Fixed [src/a.ts@${sha16(A1)}].\n`);
    const update = await engine.apply({ paths: ['docs/binary.md'] });
    expect(lines(update)).toEqual([`docs/binary.md:1:7 (none) -> FRESH [src/a.ts@${sha16(A1)}]`]);
    expect(engine.snapshot().skipped.map((skipped) => skipped.file)).toEqual(['docs/folder.md', 'docs/huge.md']);

    if (process.getuid?.() !== 0) {
      chmodSync(join(repo.dir, 'docs/two.md'), 0o000);
      await engine.apply({ paths: ['docs/two.md'] });
      expect(engine.snapshot().skipped.map((skipped) => skipped.file)).toContain('docs/two.md');
      chmodSync(join(repo.dir, 'docs/two.md'), 0o644);
    }
  });

  it('keeps its retained state flat over thousands of saves (soak)', async () => {
    const repo = project();
    const engine = engineFor(repo.dir);
    await engine.load(discover(repo.dir));
    const baseline = engine.stats();
    // Six artifacts: the five cited, and `docs/src/x.ts`, where the missing `[src/x.ts@…]` is read from its document's folder.
    expect(baseline).toEqual({ documents: 2, findings: 5, artifacts: 6, edges: 7, skipped: 0 });
    for (let save = 0; save < 3000; save += 1) {
      const contents = save % 2 === 0 ? `${A1}// ${save}\n` : A1;
      await engine.apply({ paths: atomicSave(repo.dir, 'src/a.ts', contents) });
      if (save % 10 === 0) {
        writeFileSync(join(repo.dir, 'docs/two.md'), save % 20 === 0 ? `${docTwo()}\nMore [src/tmp${save}.ts, L1].\n` : docTwo());
        await engine.apply({ paths: ['docs/two.md'] });
      }
    }
    writeFileSync(join(repo.dir, 'docs/two.md'), docTwo());
    await engine.apply({ paths: ['docs/two.md'] });
    expect(engine.stats()).toEqual(baseline);
    expectParity(engine, repo.dir);
  });

  it('after git moved, checks again only the documents whose pins git answers otherwise', async () => {
    const old = 'export const old = 0;\n';
    const repo = gitRepo({
      'src/a.ts': A1,
      'docs/moves.md': `# Moves\n\nOld [src/a.ts@${sha16(old)}, L1].\n`,
      'docs/stays.md': `# Stays\n\nMade up [src/a.ts@0123456789abcdef, L1].\n`,
      'docs/fresh.md': `# Fresh\n\nNow [src/a.ts@${sha16(A1)}, L1].\n`,
    });
    // Git's facts as a port the test controls (the real one is tested with real refs in
    // watch-serve.test.ts): which pinned versions some ref or the index holds, and each lookup's pins.
    const known = new Set<string>();
    const asked: number[] = [];
    const history: HistoryFacts = {
      lookup: async (pins) => {
        asked.push(pins.length);
        const facts = new Map(pins.map((pin) => [pinKey(pin), { tracked: true, known: known.has(pin.hash), workingTree: null }]));
        return { kind: 'facts', facts, searched: ['history', 'index'] };
      },
    };
    const engine = new WatchEngine({ reader: createNodeReader(repo.dir), sha256: nodeSha256, history });
    await engine.load(discover(repo.dir));
    const statusOf = (file: string) => {
      const outcome = engine.outcomeOf(file);
      return outcome?.kind === 'checked' ? outcome.findings.find((finding) => finding.kind === 'rlm')?.status : undefined;
    };
    expect([statusOf('docs/moves.md'), statusOf('docs/stays.md')]).toEqual(['unknown-hash', 'unknown-hash']);
    // Git moved without changing its answer for these pins: one lookup, nothing checked again.
    asked.length = 0;
    const still = await engine.apply({ paths: [], history: true });
    expect(asked).toEqual([2]);
    expect(still.rechecked).toBe(0);
    // A ref brings the old version: only the document pinning it is checked again, and goes stale.
    known.add(sha16(old));
    const moved = await engine.apply({ paths: [], history: true });
    expect(moved.rechecked).toBe(1);
    expect(lines(moved).join('\n')).toContain('docs/moves.md');
    expect([statusOf('docs/moves.md'), statusOf('docs/stays.md'), statusOf('docs/fresh.md')]).toEqual(['stale', 'unknown-hash', 'fresh']);
    // Edited to pin nothing stale any more: no longer asked about.
    writeFileSync(join(repo.dir, 'docs/moves.md'), `# Moves\n\nNow [src/a.ts@${sha16(A1)}, L1].\n`);
    await engine.apply({ paths: ['docs/moves.md'] });
    asked.length = 0;
    known.delete(sha16(old));
    expect((await engine.apply({ paths: [], history: true })).rechecked).toBe(0);
    expect(asked).toEqual([1]);
  });
  it('keeps a history note only while a document that left one is not checked again without it', async () => {
    const repo = gitRepo({
      'src/a.ts': A1,
      'docs/pinned.md': `# Pinned\n\nMade up [src/a.ts@0123456789abcdef, L1].\n`,
      'docs/other.md': `# Other\n\nNow [src/a.ts@${sha16(A1)}, L1].\n`,
    });
    // Git says the pinned file is untracked: the history stage notes it, over the whole run.
    let tracked = false;
    const history: HistoryFacts = {
      lookup: async (pins) => ({
        kind: 'facts',
        facts: new Map(pins.map((pin) => [pinKey(pin), { tracked, known: false, workingTree: null }])),
        searched: ['history'],
      }),
    };
    const engine = new WatchEngine({ reader: createNodeReader(repo.dir), sha256: nodeSha256, history });
    await engine.load(discover(repo.dir));
    expect(engine.hasHistoryNotes).toBe(true);
    // Another document checked again: the note still stands (its document was not).
    writeFileSync(join(repo.dir, 'docs/other.md'), `# Other\n\nStill [src/a.ts@${sha16(A1)}, L1].\n`);
    await engine.apply({ paths: ['docs/other.md'] });
    expect(engine.hasHistoryNotes).toBe(true);
    // Git now tracks it: the pinned document is checked again, without a note, and the note goes.
    tracked = true;
    await engine.apply({ paths: [], history: true });
    expect(engine.hasHistoryNotes).toBe(false);
    expect(engine.report().coverage.notes).toEqual([]);
    // Untracked again, then the document is deleted: the note goes with it.
    tracked = false;
    await engine.apply({ paths: [], history: true });
    expect(engine.hasHistoryNotes).toBe(true);
    rmSync(join(repo.dir, 'docs/pinned.md'));
    await engine.apply({ paths: ['docs/pinned.md'], documents: discover(repo.dir) });
    expect(engine.hasHistoryNotes).toBe(false);
  });
});
