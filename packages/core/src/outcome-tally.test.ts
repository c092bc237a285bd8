import { describe, expect, it } from 'vitest';
import { ArtifactCache } from './artifacts.ts';
import { contentHash } from './hash.ts';
import { createMemoryFileSystem } from './memory-fs.ts';
import { OutcomeTally } from './outcome-tally.ts';
import { type BatchOutcome, checkDocumentBatch, type DocumentOutcome, finishPipeline } from './pipeline.ts';
import { createConfinedReader } from './reader.ts';

const encoder = new TextEncoder();
const SOURCE = 'one\ntwo\nthree\n';

/** The outcomes of stages 2–6 for every document of `files`, the citations that checked out counted. */
async function outcomesOf(files: Record<string, string>): Promise<BatchOutcome> {
  const tree = Object.fromEntries(Object.entries(files).map(([path, text]) => [`/repo/${path}`, text]));
  const reader = createConfinedReader(createMemoryFileSystem(tree), '/repo');
  const artifacts = new ArtifactCache(reader);
  const documents = Object.keys(files).filter((path) => path.endsWith('.md'));
  return checkDocumentBatch(documents, { reader, artifactsFor: () => artifacts, countOk: true });
}

async function reportOf(outcomes: BatchOutcome | { tally: OutcomeTally; leftOut: ReadonlySet<string>; notes: string[] }) {
  const reader = createConfinedReader(createMemoryFileSystem({}), '/repo');
  const documents = ['a.md', 'b.md', 'c.md', 'd.md'];
  const plan = { ports: { discover: () => documents, reader }, countOk: true };
  return (await finishPipeline(plan, documents, outcomes, new ArtifactCache(reader))).report;
}

describe('OutcomeTally: a tally kept by replacing outcomes is the tally of the outcomes it ends with', () => {
  it('replaces a document whose counted keys stay, and refuses one whose keys change', async () => {
    const hash = await contentHash(encoder.encode(SOURCE));
    const fresh = (line: number) => `[src/x.ts@${hash}, L${line}]`;
    const before = await outcomesOf({
      'src/x.ts': SOURCE,
      'a.md': `# A\n\n${fresh(1)} and [src/gone.ts, L1].\n`,
      'b.md': `# B\n\n${fresh(2)}\n`,
      'c.md': '# C\n\n[src/gone.ts, L2]\n',
      'd.md': `# D\n\n${fresh(3)}\n`,
    });
    const after = await outcomesOf({
      'src/x.ts': SOURCE,
      // Two citations check out now, and the missing one is gone: the same keys, other counts.
      'a.md': `# A\n\n${fresh(1)} and ${fresh(2)}.\n`,
      'b.md': `# B\n\n${fresh(2)}\n`,
      // A citation that checks out where none did: a key this document did not count.
      'c.md': `# C\n\n${fresh(3)} and [src/gone.ts, L2]\n`,
      'd.md': `# D\n\n${fresh(3)}\n`,
    });
    const tally = OutcomeTally.of(before);
    const a = { before: before.get('a.md') as DocumentOutcome, after: after.get('a.md') as DocumentOutcome };
    expect(tally.replace('a.md', a.before, a.after)).toBe(true);
    const c = { before: before.get('c.md') as DocumentOutcome, after: after.get('c.md') as DocumentOutcome };
    expect(tally.replace('c.md', c.before, c.after)).toBe(false);

    const partly = new Map(before);
    partly.set('a.md', a.after);
    const expected = OutcomeTally.of(partly);
    expect(tally.findings()).toEqual(expected.findings());
    expect([...tally.ok()]).toEqual([...expected.ok()]);
    expect([tally.checked, tally.skippedInCode, tally.suppressed]).toEqual([expected.checked, expected.skippedInCode, expected.suppressed]);
    const kept = await reportOf({ tally, leftOut: new Set(), notes: [] });
    expect(kept).toEqual(await reportOf(Object.assign(partly, { notes: [], pinned: new Map(), bodies: new Map() })));
    // The replacement counted: the report has the second citation that checked out, not the missing one.
    expect(kept.summary.citations).toBe((await reportOf(before)).summary.citations);
    expect(kept.summary.errors).toBe((await reportOf(before)).summary.errors - 1);
  });

  it('leaves out the copies it is told of, and takes a skipped or unreadable document as the pipeline does', async () => {
    const outcomes = await outcomesOf({ 'a.md': '# A\n\n[src/gone.ts, L1]\n', 'b.md': '# B\n\n[src/gone.ts, L1]\n' });
    const skipped: DocumentOutcome = { kind: 'skipped', reason: { kind: 'binary' } };
    const unreadable: DocumentOutcome = { kind: 'gone', read: { kind: 'outside-root' } };
    // A listed document with no file to read (a dangling symlink) holds no citation: a note.
    const dangling: DocumentOutcome = { kind: 'gone', read: { kind: 'missing' } };
    const all = new Map<string, DocumentOutcome>([...outcomes, ['c.md', skipped], ['d.md', unreadable], ['e.md', dangling]]);
    const tally = OutcomeTally.of(all, new Set(['b.md']));
    expect(tally.findings().map((finding) => `${finding.file}:${finding.rule}`)).toEqual(['a.md:rlm/missing', 'd.md:document/unreadable']);
    expect(tally.checked).toBe(2);
    expect(tally.skippedNotes()).toEqual([
      'c.md: skipped (binary content, not markdown)',
      'e.md: skipped (no file to read: a symlink to a missing file, or removed while the check ran)',
    ]);
    expect(tally.replace('d.md', unreadable, skipped)).toBe(true);
    expect(tally.findings().map((finding) => finding.file)).toEqual(['a.md']);
    expect([tally.checked, tally.skippedNotes().length]).toEqual([1, 3]);
    expect(tally.replace('e.md', dangling, skipped)).toBe(true);
    expect([tally.checked, tally.skippedNotes().length]).toEqual([1, 3]);
  });
});
