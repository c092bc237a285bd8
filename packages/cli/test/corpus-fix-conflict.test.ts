import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkDocuments } from '@aiwg-cite/core';
import { createNodeReader, discoverDocuments, resolveWorkspace } from '@aiwg-cite/node';
import { tempDir, writeTree } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { prepareScholarly } from '../src/commands/check-scholarly.ts';
import type { CliContext } from '../src/context.ts';

function context(cwd: string, stderr: string[]): CliContext {
  return {
    cwd,
    env: { AIWG_CITE_DATE: '2026-11-22' },
    stdout: { write: () => true },
    stderr: { write: (text: string) => stderr.push(text) },
  };
}

async function checkThenFix(dir: string, between: () => void): Promise<{ error: unknown; stderr: string[] }> {
  const stderr: string[] = [];
  const ctx = context(dir, stderr);
  const workspace = resolveWorkspace(dir, undefined);
  const run = await prepareScholarly({ fix: true }, workspace, ctx);
  const documents = discoverDocuments(workspace, dir, []);
  const report = await checkDocuments({ reader: run.wrapReader(createNodeReader(workspace.root)), documents, checkers: run.checkers });
  between();
  try {
    run.afterReport(report, documents);
    return { error: null, stderr };
  } catch (error) {
    return { error, stderr };
  }
}

describe('check --fix and a file changed on disk since it was checked', () => {
  it('refuses to write it, names it, and keeps the new contents', async () => {
    const dir = tempDir();
    // --fix pins an un-versioned code citation (a mechanical edit); the file changes in between.
    writeTree(dir, { 'src/a.ts': 'export const a = 1;\n', 'doc.md': 'See [src/a.ts] here.\n' });
    const edited = 'See [src/a.ts] here, and someone just edited this line.\n';
    const { error } = await checkThenFix(dir, () => writeFileSync(join(dir, 'doc.md'), edited));
    expect(error).toMatchObject({ code: 'WRITE_CONFLICT', message: 'doc.md: changed on disk since it was read; not written (run again)' });
    expect(readFileSync(join(dir, 'doc.md'), 'utf8')).toBe(edited);
  });

  it('writes it when nothing changed in between', async () => {
    const dir = tempDir();
    writeTree(dir, { 'src/a.ts': 'export const a = 1;\n', 'doc.md': 'See [src/a.ts] here.\n' });
    const { error, stderr } = await checkThenFix(dir, () => {});
    expect(error).toBeNull();
    expect(readFileSync(join(dir, 'doc.md'), 'utf8')).toMatch(/^See \[src\/a\.ts@[0-9a-f]{16}\] here\.\n$/);
    expect(stderr.join('')).toContain('fixed doc.md:1:5');
  });
});
