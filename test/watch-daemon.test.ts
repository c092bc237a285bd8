/**
 * The daemon with a real chokidar watcher on a real git repository: after each kind of change,
 * made the way editors and git make them, the engine reaches the same state as a fresh
 * `aiwg-cite check --format json`. Needs the built CLI (`cd packages/cli && node build.mjs`).
 */
import { appendFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createNodeReader, discoverDocuments, nodeSha256, resolveWorkspace, runGit } from '@aiwg-cite/node';
import { gitRepo, sha16 } from '@aiwg-cite/test-utils';
import { type EngineUpdate, WatchDaemon, WatchEngine } from '@aiwg-cite/tui';
import { describe, expect, it, onTestFinished } from 'vitest';
import { expectEventualParity } from './watch-helpers.ts';

const A1 = 'export const a = 1;\n';
const B1 = 'export const b = 2;\n';

async function startDaemon(dir: string) {
  const workspace = resolveWorkspace(dir, undefined);
  const engine = new WatchEngine({ reader: createNodeReader(workspace.root), sha256: nodeSha256 });
  const updates: EngineUpdate[] = [];
  const problems: string[] = [];
  const gitDir = runGit(dir, ['rev-parse', '--absolute-git-dir'])?.trim();
  const daemon = new WatchDaemon({
    root: workspace.root,
    engine,
    discover: () => discoverDocuments(workspace, dir, []),
    ...(gitDir === undefined ? {} : { gitIndexPath: `${gitDir}/index` }),
    onUpdate: (update) => updates.push(update),
    onProblem: (message) => problems.push(message),
  });
  onTestFinished(() => daemon.close());
  await daemon.start();
  return { engine, daemon, updates, problems };
}

/** An editor's atomic save: a temporary file beside the target, renamed over it. */
function atomicSave(dir: string, path: string, contents: string): void {
  const temporary = join(dir, `${path}.tmp-save`);
  writeFileSync(temporary, contents);
  renameSync(temporary, join(dir, path));
}

describe('WatchDaemon', () => {
  it('follows saves, deletes, renames, new files and new documents to the state of a fresh check', async () => {
    const repo = gitRepo({
      'src/a.ts': A1,
      'src/b.ts': B1,
      'docs/one.md': `A [src/a.ts@${sha16(A1)}, L1] and B [src/b.ts@${sha16(B1)}].\n`,
      'docs/two.md': `Later [src/later/c.ts, L1] and notes [NOTES.txt].\n`,
    });
    const { engine, daemon, updates, problems } = await startDaemon(repo.dir);
    expect(updates.map((update) => update.reason)).toEqual(['load']);
    expect(engine.snapshot().summary.rlm).toMatchObject({ fresh: 2, missing: 1 });
    // Only the relevant directories are watched (the root, the documents' and the artifacts' own,
    // the nearest existing one for `src/later/c.ts`), and the git index; no file one by one.
    expect(daemon.watchedPaths()).toEqual([repo.dir, `${repo.dir}/.git/index`, `${repo.dir}/docs`, `${repo.dir}/src`]);

    atomicSave(repo.dir, 'src/a.ts', `${A1}// changed\n`);
    await expectEventualParity(engine, repo.dir);
    expect(engine.snapshot().summary.rlm.stale).toBe(1);

    appendFileSync(join(repo.dir, 'src/b.ts'), '// in place\n');
    await expectEventualParity(engine, repo.dir);
    expect(engine.snapshot().summary.rlm.stale).toBe(2);

    atomicSave(repo.dir, 'src/a.ts', A1);
    await expectEventualParity(engine, repo.dir);
    expect(engine.snapshot().summary.rlm.stale).toBe(1);

    rmSync(join(repo.dir, 'src/b.ts'));
    await expectEventualParity(engine, repo.dir);
    expect(engine.snapshot().summary.rlm.missing).toBe(2);

    writeFileSync(join(repo.dir, 'src/b.ts'), B1);
    await expectEventualParity(engine, repo.dir);
    expect(engine.snapshot().summary.rlm.missing).toBe(1);

    renameSync(join(repo.dir, 'src/a.ts'), join(repo.dir, 'src/a2.ts'));
    await expectEventualParity(engine, repo.dir);
    renameSync(join(repo.dir, 'src/a2.ts'), join(repo.dir, 'src/a.ts'));
    await expectEventualParity(engine, repo.dir);

    // A cited file that appears in a directory that did not exist yet.
    mkdirSync(join(repo.dir, 'src/later'));
    writeFileSync(join(repo.dir, 'src/later/c.ts'), 'c\n');
    await expectEventualParity(engine, repo.dir);
    expect(engine.snapshot().summary.rlm.missing).toBe(0);

    // A bare `[NOTES.txt]` becomes a citation once the file exists.
    writeFileSync(join(repo.dir, 'NOTES.txt'), 'notes\n');
    await expectEventualParity(engine, repo.dir);
    expect(engine.snapshot().summary.rlm.unversioned).toBe(2);

    // New documents: beside the others, and in a new directory.
    writeFileSync(join(repo.dir, 'docs/three.md'), `Three [src/b.ts@${sha16(B1)}].\n`);
    await expectEventualParity(engine, repo.dir);
    mkdirSync(join(repo.dir, 'notes'));
    writeFileSync(join(repo.dir, 'notes/four.md'), `Four [src/a.ts@${sha16(A1)}].\n`);
    await expectEventualParity(engine, repo.dir);
    expect(engine.documents()).toEqual(['docs/one.md', 'docs/three.md', 'docs/two.md', 'notes/four.md']);

    // A document edited, then deleted.
    atomicSave(repo.dir, 'docs/one.md', `Only B now [src/b.ts@${sha16(B1)}].\n`);
    await expectEventualParity(engine, repo.dir);
    rmSync(join(repo.dir, 'docs/three.md'));
    await expectEventualParity(engine, repo.dir);
    expect(engine.documents()).not.toContain('docs/three.md');
    expect(problems).toEqual([]);
  });

  it('ends a git checkout of hundreds of files in the state of a fresh check', async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 200; index += 1) files[`src/gen/f${index}.ts`] = `export const v = ${index};\n`;
    const bullets = Object.entries(files)
      .map(([path, contents]) => `- [${path}@${sha16(contents)}]`)
      .join('\n');
    const repo = gitRepo({ ...files, 'docs/all.md': `# All\n\n${bullets}\n` });
    repo.git('checkout', '-q', '-b', 'other');
    const changed: Record<string, string> = {};
    for (let index = 0; index < 200; index += 1) changed[`src/gen/f${index}.ts`] = `export const v = ${index * 2 + 1};\n`;
    repo.write({ ...changed, 'docs/extra.md': '[src/gen/f1.ts, L1]\n' });
    repo.commit('other');
    repo.git('checkout', '-q', 'main');

    const { engine, updates } = await startDaemon(repo.dir);
    repo.git('checkout', '-q', 'other');
    await expectEventualParity(engine, repo.dir);
    expect(engine.snapshot().summary.rlm).toMatchObject({ stale: 200, unversioned: 1 });
    // The checkout arrived as a few batches, not one per file.
    expect(updates.filter((update) => update.reason === 'change').length).toBeLessThan(20);

    repo.git('checkout', '-q', 'main');
    await expectEventualParity(engine, repo.dir);
    expect(engine.snapshot().summary.rlm).toMatchObject({ fresh: 200, stale: 0 });
  });

  it('follows the target of a symlinked artifact, and re-verifies everything on demand', async () => {
    const repo = gitRepo({
      'vendor/real.ts': A1,
      'src/link.ts': { symlink: '../vendor/real.ts' },
      'docs/one.md': `Linked [src/link.ts@${sha16(A1)}, L1].\n`,
    });
    const { engine, daemon, updates } = await startDaemon(repo.dir);
    expect(engine.snapshot().summary.rlm.fresh).toBe(1);
    expect(daemon.watchedPaths()).toContain(`${repo.dir}/vendor`);

    appendFileSync(join(repo.dir, 'vendor/real.ts'), '// edited through the link\n');
    await expectEventualParity(engine, repo.dir);
    expect(engine.snapshot().summary.rlm.stale).toBe(1);

    writeFileSync(join(repo.dir, 'vendor/real.ts'), A1);
    await expectEventualParity(engine, repo.dir);
    expect(engine.snapshot().summary.rlm.fresh).toBe(1);

    const update = await daemon.reverifyAll();
    expect(update.reason).toBe('load');
    expect(update.changes).toEqual([]);
    expect(updates.at(-1)).toBe(update);
    await expectEventualParity(engine, repo.dir);
  });

  it('tells discovery which paths the asking batch changed, and that any may have at start', async () => {
    const repo = gitRepo({ 'src/a.ts': A1, 'docs/one.md': `A [src/a.ts@${sha16(A1)}, L1].\n` });
    const workspace = resolveWorkspace(repo.dir, undefined);
    const engine = new WatchEngine({ reader: createNodeReader(workspace.root), sha256: nodeSha256 });
    const asked: (string[] | undefined)[] = [];
    const daemon = new WatchDaemon({
      root: workspace.root,
      engine,
      discover: (changed) => {
        asked.push(changed === undefined ? undefined : [...changed].sort());
        return discoverDocuments(workspace, repo.dir, []);
      },
      // Saves within half a second make one batch.
      settleMs: 500,
      onUpdate: () => undefined,
    });
    onTestFinished(() => daemon.close());
    await daemon.start();
    expect(asked).toEqual([undefined]);
    // A new document makes the daemon list the documents again, in the one batch of the two saves.
    writeFileSync(join(repo.dir, 'docs/two.md'), 'Two.\n');
    appendFileSync(join(repo.dir, 'docs/one.md'), 'More.\n');
    await expectEventualParity(engine, repo.dir);
    expect(asked.length).toBeGreaterThan(1);
    expect(asked.slice(1).flatMap((paths) => paths ?? ['(any)'])).toEqual(expect.arrayContaining(['docs/one.md', 'docs/two.md']));
    expect(asked.slice(1)).not.toContain(undefined);
  });

  it('catches saves and deletes made after the first check but before the watcher is ready', async () => {
    const repo = gitRepo({
      'src/a.ts': A1,
      'src/b.ts': B1,
      'docs/one.md': `A [src/a.ts@${sha16(A1)}, L1] and B [src/b.ts@${sha16(B1)}].\n`,
    });
    const workspace = resolveWorkspace(repo.dir, undefined);
    const engine = new WatchEngine({ reader: createNodeReader(workspace.root), sha256: nodeSha256 });
    const daemon = new WatchDaemon({
      root: workspace.root,
      engine,
      discover: () => discoverDocuments(workspace, repo.dir, []),
      onUpdate: (update) => {
        // The first state is reported before the watcher starts: change the tree right then.
        if (update.reason !== 'load') return;
        atomicSave(repo.dir, 'src/a.ts', `${A1}// racing\n`);
        rmSync(join(repo.dir, 'src/b.ts'));
      },
    });
    onTestFinished(() => daemon.close());
    await daemon.start();
    expect(engine.snapshot().summary.rlm.fresh).toBe(2);
    await expectEventualParity(engine, repo.dir);
    expect(engine.snapshot().summary.rlm).toMatchObject({ fresh: 0, stale: 1, missing: 1 });
  });

  it('sees a nested directory of documents renamed and then removed', async () => {
    const repo = gitRepo({
      'src/a.ts': A1,
      'docs/deep/inner/one.md': `See [src/a.ts@${sha16(A1)}, L1] and [src/zzz.ts, L1].\n`,
    });
    const { engine, daemon } = await startDaemon(repo.dir);
    // The documents' directory and its parent, so a rename of the directory itself is reported.
    expect(daemon.watchedPaths()).toEqual([
      repo.dir,
      `${repo.dir}/.git/index`,
      `${repo.dir}/docs/deep`,
      `${repo.dir}/docs/deep/inner`,
      `${repo.dir}/src`,
    ]);
    renameSync(join(repo.dir, 'docs/deep/inner'), join(repo.dir, 'docs/deep/inner2'));
    await expectEventualParity(engine, repo.dir);
    expect(engine.documents()).toEqual(['docs/deep/inner2/one.md']);
    rmSync(join(repo.dir, 'docs/deep'), { recursive: true });
    await expectEventualParity(engine, repo.dir);
    expect(engine.documents()).toEqual([]);
  });
});
