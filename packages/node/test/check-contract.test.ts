import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  type ArtifactReader,
  checkDocuments,
  createConfinedReader,
  createMemoryFileSystem,
  type Finding,
  type MemoryEntry,
  type Report,
} from '@aiwg-cite/core';
import { tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { nodeFileSystem, nodeSha256 } from '../src/index.ts';

/** A tree under the root; `{ symlink }` values are link targets (absolute ones are taken literally). */
type Tree = Record<string, MemoryEntry>;

interface Host {
  readonly name: string;
  /** Builds the tree, returns a reader confined to `<base>/root`, and the absolute base. */
  make(tree: Tree, outside?: Tree): { reader: ArtifactReader; base: string };
}

const memoryHost: Host = {
  name: 'memory host',
  make(tree, outside = {}) {
    const entries: Record<string, MemoryEntry> = {};
    for (const [path, entry] of Object.entries(tree)) entries[`/base/root/${path}`] = resolveLink(entry, '/base');
    for (const [path, entry] of Object.entries(outside)) entries[`/base/${path}`] = resolveLink(entry, '/base');
    return { reader: createConfinedReader(createMemoryFileSystem(entries), '/base/root'), base: '/base' };
  },
};

const nodeHost: Host = {
  name: 'node host',
  make(tree, outside = {}) {
    const base = tempDir();
    const write = (path: string, entry: MemoryEntry) => {
      const target = join(base, path);
      mkdirSync(dirname(target), { recursive: true });
      if (typeof entry === 'object' && 'symlink' in entry) symlinkSync(resolveLink(entry, base).symlink, target);
      else writeFileSync(target, entry);
    };
    mkdirSync(join(base, 'root'), { recursive: true });
    for (const [path, entry] of Object.entries(tree)) write(`root/${path}`, entry);
    for (const [path, entry] of Object.entries(outside)) write(path, entry);
    return { reader: createConfinedReader(nodeFileSystem, join(base, 'root')), base };
  },
};

/** Symlink targets starting with `$BASE` are made absolute under the host's base directory. */
function resolveLink<T extends MemoryEntry>(entry: T, base: string): T & { symlink: string } {
  if (typeof entry === 'object' && 'symlink' in entry) return { symlink: entry.symlink.replace('$BASE', base) } as T & { symlink: string };
  return entry as T & { symlink: string };
}

const HELLO = 'hello\n';
const HELLO_HASH = '5891b5b522d5df08';
const OTHER_HASH = '0c3a5c0d9d8b9c0e';

async function check(host: Host, doc: string, tree: Tree = {}, outside: Tree = {}, options = {}): Promise<Report> {
  const { reader } = host.make({ 'doc.md': doc, ...tree }, outside);
  return checkDocuments({ reader, documents: ['doc.md'], sha256: nodeSha256, options });
}

function only(report: Report): Finding {
  expect(report.citations).toHaveLength(1);
  return report.citations[0] as Finding;
}

describe.each([memoryHost, nodeHost])('verdicts on the $name', (host) => {
  it('FRESH when the hash matches, with every contract field', async () => {
    const finding = only(await check(host, `[src/a.txt@${HELLO_HASH}, L1]`, { 'src/a.txt': HELLO }));
    expect(finding).toEqual({
      file: 'doc.md',
      line: 1,
      column: 1,
      kind: 'rlm',
      text: `[src/a.txt@${HELLO_HASH}, L1]`,
      status: 'fresh',
      severity: 'ok',
      rule: 'rlm/fresh',
      message: '`src/a.txt` matches the cited hash',
      fix: null,
      artifact: 'src/a.txt',
      hash: HELLO_HASH,
      currentHash: HELLO_HASH,
      lines: 'L1',
      hashRoutine: 'raw-bytes',
    });
  });

  it('STALE (warning) when the hash differs, with the current hash', async () => {
    const report = await check(host, `[src/a.txt@${OTHER_HASH}, L1]`, { 'src/a.txt': HELLO });
    expect(only(report)).toMatchObject({ status: 'stale', severity: 'warning', rule: 'rlm/stale', currentHash: HELLO_HASH });
    expect(report.verdict).toBe('PASS');
  });

  it('UN-VERSIONED (warning) for path-only and bare citations of existing files', async () => {
    const report = await check(host, '[src/a.txt, L1] and [src/a.txt]', { 'src/a.txt': HELLO });
    expect(report.citations.map((finding) => [finding.status, finding.severity])).toEqual([
      ['unversioned', 'warning'],
      ['unversioned', 'warning'],
    ]);
  });

  it('MISSING (error) when the file does not exist; a bare name without a path is then plain text', async () => {
    const report = await check(host, `[src/gone.ts@${HELLO_HASH}, L1] [notes] [src/also-gone.ts]`);
    expect(report.citations.map((finding) => [finding.text, finding.status, finding.severity])).toEqual([
      [`[src/gone.ts@${HELLO_HASH}, L1]`, 'missing', 'error'],
      ['[src/also-gone.ts]', 'missing', 'error'],
    ]);
    expect(report.verdict).toBe('FAIL');
  });

  it('a bare name without a slash is a citation when it names an existing file', async () => {
    const finding = only(await check(host, '[NOTES.txt] and [other]', { 'NOTES.txt': HELLO }));
    expect(finding).toMatchObject({ artifact: 'NOTES.txt', status: 'unversioned' });
  });

  it('a directory is `not-a-file` (error)', async () => {
    const finding = only(await check(host, '[src/lib, L1]', { 'src/lib/a.txt': HELLO }));
    expect(finding).toMatchObject({ status: 'not-a-file', severity: 'error', rule: 'rlm/not-a-file' });
  });

  it('invalid ranges are errors for fresh and un-versioned citations', async () => {
    const report = await check(host, `[a.txt@${HELLO_HASH}, L0] [a.txt, L3-2] [a.txt, L1-2] [a.txt, L1-1]`, { 'a.txt': HELLO });
    expect(report.citations.map((finding) => [finding.lines, finding.status])).toEqual([
      ['L0', 'invalid-range'],
      ['L3-2', 'invalid-range'],
      ['L1-2', 'invalid-range'],
      ['L1-1', 'unversioned'],
    ]);
    expect(report.citations[2]?.message).toBe('line range `L1-2` runs past the end of `a.txt` (1 line)');
  });

  it('a range past the end of a STALE file reports only the stale finding', async () => {
    const finding = only(await check(host, `[a.txt@${OTHER_HASH}, L40-50]`, { 'a.txt': HELLO }));
    expect(finding.status).toBe('stale');
  });

  it('counts an unterminated last line', async () => {
    const report = await check(host, '[a.txt, L3] [a.txt, L4]', { 'a.txt': 'one\ntwo\nthree' });
    expect(report.citations.map((finding) => finding.status)).toEqual(['unversioned', 'invalid-range']);
  });

  it('accepts aiwg’s UTF-8 replacement hash for invalid UTF-8 and says so', async () => {
    const latin1 = Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x0a]);
    const report = await check(host, '[a.txt@9e4efed0ff1dbcf3] [a.txt@7df8989b95a06d73]', { 'a.txt': latin1 });
    expect(report.citations.map((finding) => [finding.status, finding.hashRoutine])).toEqual([
      ['fresh', 'raw-bytes'],
      ['fresh', 'utf8-replacement'],
    ]);
  });

  it('MALFORMED near-misses are warnings that name the normalised verdict', async () => {
    const finding = only(await check(host, `[a.txt@${HELLO_HASH.toUpperCase()}]`, { 'a.txt': HELLO }));
    expect(finding).toMatchObject({ status: 'malformed', severity: 'warning', rule: 'rlm/malformed' });
    expect(finding.message).toBe(
      `hash \`${HELLO_HASH.toUpperCase()}\` uses uppercase hex; read as \`[a.txt@${HELLO_HASH}]\` it would be FRESH`,
    );
  });

  it('--strict turns every warning into an error and fails', async () => {
    const report = await check(host, `[a.txt@${OTHER_HASH}] [a.txt, L1] [a.txt,L1]`, { 'a.txt': HELLO }, {}, { strict: true });
    expect(report.citations.map((finding) => finding.severity)).toEqual(['error', 'error', 'error']);
    expect(report.verdict).toBe('FAIL');
  });

  it('--max-warnings fails when warnings exceed the limit', async () => {
    const doc = `[a.txt@${OTHER_HASH}] [a.txt, L1]`;
    expect((await check(host, doc, { 'a.txt': HELLO }, {}, { maxWarnings: 2 })).verdict).toBe('PASS');
    expect((await check(host, doc, { 'a.txt': HELLO }, {}, { maxWarnings: 1 })).verdict).toBe('FAIL');
  });

  it('suppression comments silence the next line and are counted', async () => {
    const report = await check(host, '<!-- aiwg-cite-disable-next-line rlm/missing -->\n[gone/a.ts, L1]\n[gone/b.ts, L1]\n');
    expect(report.citations.map((finding) => finding.line)).toEqual([3]);
    expect(report.coverage.suppressed).toBe(1);
  });

  it('severity overrides change or drop a rule', async () => {
    const report = await check(
      host,
      '[gone/a.ts, L1] [a.txt, L1]',
      { 'a.txt': HELLO },
      {},
      {
        severityOverrides: { 'rlm/missing': 'info', 'rlm/unversioned': 'off' },
      },
    );
    expect(report.citations.map((finding) => [finding.status, finding.severity])).toEqual([['missing', 'info']]);
    expect(report.verdict).toBe('PASS');
  });

  it('the summary counts every status', async () => {
    const report = await check(host, `[a.txt@${HELLO_HASH}] [a.txt@${OTHER_HASH}] [a.txt, L1] [b/gone.ts, L1] [a.txt,L1] [a.txt, L9]`, {
      'a.txt': HELLO,
    });
    expect(report.summary).toEqual({
      files: 1,
      citations: 6,
      errors: 2,
      warnings: 3,
      infos: 0,
      rlm: { total: 6, fresh: 1, stale: 1, unversioned: 1, missing: 1, malformed: 1, invalidRange: 1 },
      kinds: { rlm: { fresh: 1, stale: 1, unversioned: 1, missing: 1, malformed: 1, 'invalid-range': 1 } },
    });
  });
});

describe.each([memoryHost, nodeHost])('security on the $name', (host) => {
  const secret = { 'secret.txt': HELLO };

  it.each([
    ['`..` escapes', `[../secret.txt@${HELLO_HASH}, L1]`, 'escapes-root'],
    ['an absolute path', `[/etc/passwd@${HELLO_HASH}]`, 'absolute'],
    ['a home path', `[~/secret.txt@${HELLO_HASH}]`, 'home'],
  ])('%s is outside-root (error) and never read', async (_name, doc) => {
    const finding = only(await check(host, doc, {}, secret));
    expect(finding).toMatchObject({ status: 'outside-root', severity: 'error', currentHash: null });
  });

  it('a symlink that leads outside the root is never FRESH, even with the right hash', async () => {
    const finding = only(await check(host, `[link.txt@${HELLO_HASH}, L1]`, { 'link.txt': { symlink: '$BASE/secret.txt' } }, secret));
    expect(finding).toMatchObject({ status: 'outside-root', severity: 'error', currentHash: null });
  });

  it('a symlink that stays inside the root is followed', async () => {
    const finding = only(await check(host, `[link.txt@${HELLO_HASH}]`, { 'real.txt': HELLO, 'link.txt': { symlink: 'real.txt' } }));
    expect(finding.status).toBe('fresh');
  });

  it('`..` that stays inside the root is resolved lexically', async () => {
    const finding = only(await check(host, `[src/../a.txt@${HELLO_HASH}]`, { 'a.txt': HELLO, 'src/x.txt': HELLO }));
    expect(finding).toMatchObject({ status: 'fresh', artifact: 'a.txt' });
  });

  it('matching is case-exact', async () => {
    const finding = only(await check(host, `[src/A.txt@${HELLO_HASH}]`, { 'src/a.txt': HELLO }));
    expect(finding.status).toBe('missing');
  });
});

describe('case-insensitive file systems', () => {
  it('a case-only difference is MISSING with the real name suggested', async () => {
    const fs = createMemoryFileSystem(
      { '/root/doc.md': `[src/Auth/Login.ts@${HELLO_HASH}]`, '/root/src/auth/login.ts': HELLO },
      { caseInsensitive: true },
    );
    const report = await checkDocuments({ reader: createConfinedReader(fs, '/root'), documents: ['doc.md'] });
    expect(only(report)).toMatchObject({ status: 'missing', fix: 'did you mean `src/auth/login.ts`? names match case-exactly' });
  });
});
