import { describe, expect, it } from 'vitest';
import { ArtifactCache } from './artifacts.ts';
import { webCryptoSha256 as contentDigest, contentHash } from './hash.ts';
import { withVerdicts } from './interop/verdict-model.ts';
import { createMemoryFileSystem } from './memory-fs.ts';
import { createConfinedReader } from './reader.ts';
import { compareInFile, type Finding } from './report.ts';
import { memoryResultStorage as memoryStorage, ResultCache } from './result-cache.ts';

/** A finding's text as `check --format json` writes it: with its verdicts. */
const reportJson = (one: Finding): string => JSON.stringify(withVerdicts([one])[0]);

const finding = (line: number, extra: Record<string, unknown> = {}): Finding => ({
  file: 'docs/a.md',
  line,
  column: 3,
  kind: 'rlm',
  text: '[src/a.ts, L1]',
  status: 'unversioned',
  severity: 'warning',
  rule: 'rlm/unversioned',
  message: 'no hash',
  fix: null,
  ...extra,
});

describe('ResultCache: entries as stored and read back', () => {
  it('gives back findings equal to those stored, in their property order, shapes shared and undefined left out', async () => {
    const fs = createMemoryFileSystem({ '/r/src/a.ts': 'a\n' });
    const artifacts = new ArtifactCache(createConfinedReader(fs, '/r'));
    const storage = memoryStorage();
    const cache = new ResultCache(storage, 'context');
    const findings = [finding(1), finding(2, { artifact: 'src/a.ts', detail: { nested: [1, 'two'] } }), finding(3, { ignored: undefined })];
    const key = await cache.keyOf('docs/a.md', new TextEncoder().encode('doc'));
    await cache.store(key, 'docs/a.md', { findings, skippedInCode: 1, suppressed: 2 }, ['src/a.ts'], artifacts);
    const stored = storage.values.get(key) as string;
    // Property names are written once per shape, not once per finding; the path not per finding.
    expect(stored.split('"severity"').length - 1).toBe(2);
    expect(stored.split('docs/a.md').length - 1).toBe(1);
    const hit = await cache.lookup(key, 'docs/a.md', new ArtifactCache(createConfinedReader(fs, '/r')));
    expect(hit).not.toBeNull();
    expect(JSON.stringify(hit?.findings)).toBe(JSON.stringify(findings));
    expect(hit?.skippedInCode).toBe(1);
    expect(hit?.suppressed).toBe(2);
  });

  it('keys a document alike whether the host hashes texts itself or the bytes they encode to', async () => {
    const hashedTexts: string[] = [];
    const bytesOnly = new ResultCache(memoryStorage(), 'contexté');
    const withText = new ResultCache(memoryStorage(), 'contexté', undefined, async (text) => {
      hashedTexts.push(text);
      return contentDigest(new TextEncoder().encode(text));
    });
    const digest = 'e'.repeat(64);
    expect(await withText.keyOfDigest('docs/ä.md', digest)).toBe(await bytesOnly.keyOfDigest('docs/ä.md', digest));
    expect(hashedTexts).toHaveLength(2);
  });

  it('answers from a known digest without reading the artifact, and misses when the digest differs', async () => {
    const fs = createMemoryFileSystem({ '/r/src/a.ts': 'a\n' });
    const storage = memoryStorage();
    const cache = new ResultCache(storage, 'context');
    const key = await cache.keyOfDigest('docs/a.md', 'f'.repeat(64));
    await cache.store(
      key,
      'docs/a.md',
      { findings: [finding(1)], skippedInCode: 0, suppressed: 0 },
      ['src/a.ts'],
      new ArtifactCache(createConfinedReader(fs, '/r')),
    );
    const unreadable = new ArtifactCache({ read: () => Promise.reject(new Error('read')) });
    const digest = (await contentHash(new TextEncoder().encode('a\n'))).padEnd(64, '0');
    expect(await cache.lookup(key, 'docs/a.md', unreadable, () => digest)).not.toBeNull();
    expect(await cache.lookup(key, 'docs/a.md', unreadable, () => '0'.repeat(64))).toBeNull();
    // Inputs are path then state, one after the other: a list that lost one, or holds a number, is not trusted.
    const good = storage.values.get(key) as string;
    expect(good).toContain('"inputs":["src/a.ts","file:');
    for (const broken of ['"inputs":[', '"inputs":[7,']) {
      storage.values.set(key, good.replace('"inputs":["src/a.ts",', broken));
      expect(await cache.lookup(key, 'docs/a.md', unreadable, () => digest)).toBeNull();
    }
  });

  it('records, once asked, the inputs of the entries that hold and of documents not stored, and the digest each document was keyed by', async () => {
    const fs = createMemoryFileSystem({ '/r/src/a.ts': 'a\n', '/r/src/b.ts': 'b\n', '/r/src/c.ts': 'c\n' });
    const artifacts = () => new ArtifactCache(createConfinedReader(fs, '/r'));
    const cache = new ResultCache(memoryStorage(), 'context');
    const result = { findings: [finding(1)], skippedInCode: 0, suppressed: 0 };
    const a = await cache.keyOfDigest('docs/a.md', 'a'.repeat(64));
    await cache.store(a, 'docs/a.md', result, ['src/a.ts'], artifacts());
    const c = await cache.keyOfDigest('docs/c.md', 'c'.repeat(64));
    await cache.store(c, 'docs/c.md', { ...result, findings: [finding(1, { file: 'docs/c.md' })] }, ['src/c.ts'], artifacts());
    expect(cache.recorded()).toBeNull();
    cache.record();
    // A stored entry is not an answer from the cache: it records its key's digest, not its inputs.
    const b = await cache.keyOfDigest('docs/b.md', 'b'.repeat(64));
    await cache.store(b, 'docs/b.md', { ...result, findings: [finding(1, { file: 'docs/b.md' })] }, ['src/b.ts'], artifacts());
    expect(await cache.lookup(a, 'docs/a.md', artifacts())).not.toBeNull();
    // An input known unread (its digest from a stamp) is recorded with the state its digest gives.
    const cDigest = await contentDigest(new TextEncoder().encode('c\n'));
    expect(await cache.lookup(c, 'docs/c.md', artifacts(), (path) => (path === 'src/c.ts' ? cDigest : null))).not.toBeNull();
    // A lookup that does not hold records nothing.
    expect(await cache.lookup(a, 'docs/other.md', artifacts())).toBeNull();
    // Documents checked and not stored are counted apart, their inputs recorded like a hit's.
    await cache.recordUnstored('docs/held.md', ['src/b.ts'], artifacts(), false);
    await cache.recordUnstored('docs/mention.md', [], artifacts(), true);
    expect(cache.stats).toEqual({ hits: 2, misses: 3, unstored: 1, onTree: 1 });
    const stateOf = async (text: string) => `file:${await contentHash(new TextEncoder().encode(text))}`;
    const recorded = cache.recorded();
    expect(new Map(recorded?.inputs)).toEqual(
      new Map([
        ['src/a.ts', await stateOf('a\n')],
        ['src/b.ts', await stateOf('b\n')],
        ['src/c.ts', await stateOf('c\n')],
      ]),
    );
    expect([...(recorded?.digests ?? [])]).toEqual([['docs/b.md', 'b'.repeat(64)]]);
    expect([...(recorded?.unstored ?? [])]).toEqual(['docs/held.md', 'docs/mention.md']);
  });

  it('trusts no entry that names another file, or whose rows do not fit their shapes', async () => {
    const storage = memoryStorage();
    const cache = new ResultCache(storage, 'context');
    const artifacts = new ArtifactCache({ read: () => Promise.resolve({ kind: 'missing' }) });
    const key = await cache.keyOfDigest('docs/a.md', 'e'.repeat(64));
    await cache.store(key, 'docs/a.md', { findings: [finding(1)], skippedInCode: 0, suppressed: 0 }, [], artifacts);
    const good = storage.values.get(key) as string;
    expect(await cache.lookup(key, 'docs/b.md', artifacts)).toBeNull();
    storage.values.set(key, good.replace('"findings":[[0,', '"findings":[[0,"extra",'));
    expect(await cache.lookup(key, 'docs/a.md', artifacts)).toBeNull();
    storage.values.set(key, good.replace('"findings":[[0,', '"findings":[[7,'));
    expect(await cache.lookup(key, 'docs/a.md', artifacts)).toBeNull();
    storage.values.set(key, good);
    expect(await cache.lookup(key, 'docs/a.md', artifacts)).not.toBeNull();
  });

  it('gives back any findings exactly (generated rows of strings that hold one another, undefined left out)', async () => {
    const storage = memoryStorage();
    const cache = new ResultCache(storage, 'context');
    const artifacts = new ArtifactCache({ read: () => Promise.resolve({ kind: 'missing' }) });
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pieces = ['src/', 'a.ts', 'docs/a.md', 'abcd', 'abcdabcd', '@', ', L1', '`', 'é', '😀', ''];
    const word = () => Array.from({ length: next(4) }, () => pieces[next(pieces.length)]).join('');
    for (let round = 0; round < 50; round += 1) {
      const findings = Array.from({ length: 1 + next(5) }, (_, at) => {
        const extra: Record<string, unknown> = {};
        for (let field = 0; field < next(5); field += 1) extra[`f${next(6)}`] = next(3) === 0 ? next(9) : word();
        const severity = next(3) === 0 ? { severity: 'ok', status: 'fresh', rule: 'rlm/fresh' } : {};
        return finding(at + 1, { text: word(), message: word(), fix: next(2) === 0 ? null : word(), ...severity, ...extra });
      });
      const key = await cache.keyOfDigest('docs/a.md', String(round).padStart(64, '0'));
      await cache.store(key, 'docs/a.md', { findings, skippedInCode: 0, suppressed: 0 }, ['src/a.ts', 'docs/a.md'], artifacts);
      const hit = await cache.lookup(key, 'docs/a.md', artifacts);
      expect(JSON.stringify(hit?.findings)).toBe(JSON.stringify(findings));
      const counted = await cache.lookup(key, 'docs/a.md', artifacts, undefined, { countOk: true });
      expect(JSON.stringify(counted?.findings)).toBe(JSON.stringify(findings.filter((one) => one.severity !== 'ok')));
      const ok = findings.length - (counted?.findings.length ?? 0);
      expect([...(counted?.ok ?? [])]).toEqual(ok === 0 ? [] : [['rlm\u0000fresh\u0000rlm/fresh', ok]]);
      // As texts: each the report's text of one that checked out, in report order.
      const texts = await cache.lookup(key, 'docs/a.md', artifacts, undefined, { countOk: true, okJson: true });
      expect(texts?.findings).toEqual(counted?.findings);
      expect(texts?.okJson?.json ?? '').toBe(
        findings
          .filter((one) => one.severity === 'ok')
          .sort(compareInFile)
          .map(reportJson)
          .join(','),
      );
    }
  });

  it('keeps the findings that checked out apart, unparsed when only counted, as report texts for JSON, and in their places otherwise', async () => {
    const storage = memoryStorage();
    const cache = new ResultCache(storage, 'context');
    const artifacts = new ArtifactCache({ read: () => Promise.resolve({ kind: 'missing' }) });
    const fresh = { severity: 'ok', status: 'fresh', rule: 'rlm/fresh', text: '[src/a.ts@0123456789abcdef, L1]' };
    // Out of report order on purpose: the one of line 4 comes first.
    const findings = [finding(4, { kind: 'doi', ...fresh, rule: 'doi/ok' }), finding(2), finding(1, fresh), finding(3, fresh), finding(5)];
    const key = await cache.keyOfDigest('docs/a.md', 'd'.repeat(64));
    await cache.store(key, 'docs/a.md', { findings, skippedInCode: 0, suppressed: 0 }, [], artifacts);
    const good = storage.values.get(key) as string;
    const [head = '', meta = '', texts = ''] = good.split('\t');
    expect(head).not.toContain('0123456789abcdef');
    // In report order: lines 1, 3, 4; each where it stood among all five.
    expect(JSON.parse(meta)[0]).toEqual([2, 3, 0]);
    // Each as a JSON report writes it, verdicts included.
    expect(texts).toBe([findings[2], findings[3], findings[0]].map((one) => reportJson(one as Finding)).join(','));
    expect((await cache.lookup(key, 'docs/a.md', artifacts))?.findings).toEqual(findings);
    const counted = await cache.lookup(key, 'docs/a.md', artifacts, undefined, { countOk: true });
    expect(counted?.findings).toEqual([findings[1], findings[4]]);
    expect([...(counted?.ok ?? [])]).toEqual([
      ['rlm\u0000fresh\u0000rlm/fresh', 2],
      ['doi\u0000fresh\u0000doi/ok', 1],
    ]);
    expect(counted?.okJson).toBeUndefined();
    const asText = await cache.lookup(key, 'docs/a.md', artifacts, undefined, { countOk: true, okJson: true });
    expect(asText?.findings).toEqual(counted?.findings);
    expect(asText?.okJson).toEqual({
      lines: [1, 3, 4],
      columns: [3, 3, 3],
      kinds: ['rlm', 'rlm', 'doi'],
      keys: ['rlm\u0000fresh\u0000rlm/fresh', 'rlm\u0000fresh\u0000rlm/fresh', 'doi\u0000fresh\u0000doi/ok'],
      json: texts,
      ends: [reportJson(findings[2] as Finding).length, texts.lastIndexOf(',{'), texts.length],
    });
    const [places, lines, columns, keys, lengths = []] = JSON.parse(meta) as number[][];
    const layout = (changed: Partial<Record<'places' | 'lengths' | 'keys', number[]>>, holds = 1) =>
      JSON.stringify([changed.places ?? places, lines, columns, changed.keys ?? keys, changed.lengths ?? lengths, holds]);
    // Places that do not fit the findings, lengths that do not fit the texts, keys that do not add
    // up to the counts, a text that is not a finding of the document, or a part missing: not trusted.
    const broken = [
      `${head}\t${layout({ places: [2, 3, 9] })}\t${texts}`,
      `${head}\t${layout({ places: [2, 2, 0] })}\t${texts}`,
      `${head}\t${layout({ lengths: [(lengths[0] as number) + 1, (lengths[1] as number) - 1, lengths[2] as number] })}\t${texts}`,
      `${head}\t${layout({ keys: [1, 1, 0] })}\t${texts}`,
      `${head}\t${layout({})}\t${texts},{}`,
      `${head}\t${layout({})}\t${texts.replace('"file":"docs/a.md"', '"file":"docs/b.md"')}`,
      // Verdicts (as long) that are not the ones its counted key gives.
      `${head}\t${layout({})}\t${texts.replace('"GROUNDED"', '"VERIFIED"')}`,
      `${head}\t${layout({})}`,
      `${head}\t[[2,3,0],[]]\t${texts}`,
      head,
    ];
    for (const entry of broken) {
      storage.values.set(key, entry);
      expect(await cache.lookup(key, 'docs/a.md', artifacts), entry.slice(head.length)).toBeNull();
    }
    // The texts of findings that could not stand for them (holds 0: stored as they are, without
    // verdicts) are given back as findings.
    const ownTexts = [findings[2], findings[3], findings[0]].map((one) => JSON.stringify(one as Finding));
    storage.values.set(key, `${head}\t${layout({ lengths: ownTexts.map((text) => text.length) }, 0)}\t${ownTexts.join(',')}`);
    const kept = await cache.lookup(key, 'docs/a.md', artifacts, undefined, { countOk: true, okJson: true });
    expect(kept?.findings).toEqual(findings);
    expect(kept?.okJson).toBeUndefined();
    // A run that only counts reads the head alone; the others read the tail too, and a host
    // that has lost it (its texts) has no entry for them.
    const asked: (string | undefined)[] = [];
    const headsOnly = new ResultCache(
      {
        read: (_key, part) => {
          asked.push(part);
          return part === 'head' ? head : null;
        },
        write: () => undefined,
      },
      'context',
    );
    const fromHead = await headsOnly.lookup(key, 'docs/a.md', artifacts, undefined, { countOk: true });
    expect(fromHead?.findings).toEqual(counted?.findings);
    expect(fromHead?.ok).toEqual(counted?.ok);
    expect(await headsOnly.lookup(key, 'docs/a.md', artifacts, undefined, { countOk: true, okJson: true })).toBeNull();
    expect(await headsOnly.lookup(key, 'docs/a.md', artifacts)).toBeNull();
    expect(asked).toEqual(['head', 'head', 'tail', 'head', 'tail']);
    // A count that is not a positive whole number is refused even by a run that only counts.
    expect(head).toContain('doi/ok",1]');
    storage.values.set(key, `${head.replace('doi/ok",1]', 'doi/ok",0]')}\t${meta}\t${texts}`);
    expect(await cache.lookup(key, 'docs/a.md', artifacts, undefined, { countOk: true })).toBeNull();

    // Stored by a run that only counts (no texts): the same head, nothing after it, so a counting
    // run finds the entry as before and the others find none (they check the document again).
    await cache.store(key, 'docs/a.md', { findings, skippedInCode: 0, suppressed: 0 }, [], artifacts, false);
    expect(storage.values.get(key)).toBe(head);
    const countedAgain = await cache.lookup(key, 'docs/a.md', artifacts, undefined, { countOk: true });
    expect(countedAgain?.findings).toEqual(counted?.findings);
    expect(countedAgain?.ok).toEqual(counted?.ok);
    expect(await cache.lookup(key, 'docs/a.md', artifacts, undefined, { countOk: true, okJson: true })).toBeNull();
    expect(await cache.lookup(key, 'docs/a.md', artifacts)).toBeNull();
  });
});
