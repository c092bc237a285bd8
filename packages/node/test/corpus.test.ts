import { tempDir, writeTree } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../src/corpus.ts';

describe('loadCorpus', () => {
  it('notes a corpus file whose frontmatter is not valid YAML, naming the file and the line', async () => {
    const root = tempDir();
    writeTree(root, {
      'docs/references/REF-401-broken.md': '---\nref_id: REF-401\ntitle: "unclosed\nyear: 2021\n---\n# REF-401: Broken\n',
      'docs/references/REF-402-fine.md': '---\nref_id: REF-402\nyear: 2022\n---\n# REF-402: Fine\n',
    });
    const notes: string[] = [];
    const corpus = await loadCorpus({ root, isGit: false, env: {}, dirs: ['docs/references'], onNote: (note) => notes.push(note) });
    expect(notes).toEqual([
      'docs/references/REF-401-broken.md: the frontmatter is not valid YAML (line 4: Missing closing "quote); its fields may be misread until it is fixed',
    ]);
    // The file still answers to its id (from its name), as far as the parser recovered it.
    expect(corpus.sources.map((source) => source.ids[0])).toEqual(['REF-401', 'REF-402']);
  });

  it('notes nothing for valid frontmatter', async () => {
    const root = tempDir();
    writeTree(root, { 'docs/references/REF-403.md': '---\nauthors: [Smith,\n  Doe]\n---\n# REF-403: Two authors\n' });
    const notes: string[] = [];
    await loadCorpus({ root, isGit: false, env: {}, dirs: ['docs/references'], onNote: (note) => notes.push(note) });
    expect(notes).toEqual([]);
  });
});
