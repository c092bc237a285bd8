import { describe, expect, it } from 'vitest';
import { type KeptView, makeView, viewTree } from './check-view.ts';

/** Sixteen documents, sorted: `a.md`, `docs/b.md` … `docs/p.md`. */
const DOCUMENTS = ['a.md', ...'bcdefghijklmnop'.split('').map((name) => `docs/${name}.md`)];

/** A configuration that leaves out `drafts/`. */
const filter = (found: readonly string[]) => found.filter((path) => !path.startsWith('drafts/'));

function view(overrides: Partial<KeptView> = {}): KeptView {
  return {
    format: 1,
    index: 'i',
    modified: [],
    untracked: [],
    unplain: ['docs/c.md', 'src/link.ts'],
    leftOut: [],
    flagged: [],
    ...overrides,
  };
}

const state = (overrides: { modified?: string[]; untracked?: string[]; index?: string } = {}) => ({
  index: 'i',
  modified: [],
  untracked: [],
  ...overrides,
});

const nothingGone = () => false;

describe('viewTree', () => {
  it('takes the kept documents while nothing came or went, and looks only at what git lists and what is no plain entry', () => {
    const tree = viewTree(
      view({ modified: ['docs/d.md'] }),
      state({ modified: ['docs/b.md', 'src/x.ts'] }),
      DOCUMENTS,
      nothingGone,
      filter,
    );
    expect(tree?.found).toBe(DOCUMENTS);
    const looked = [...DOCUMENTS, 'src/x.ts', 'src/y.ts', 'src/link.ts'].filter((path) => tree?.unchanged(path) === false);
    expect(looked).toEqual(['docs/b.md', 'docs/c.md', 'docs/d.md', 'src/x.ts', 'src/link.ts']);
  });

  it('gives the documents as discovery would when some came or went: new, removed, written back where git does not look', () => {
    const documents = (tree: ReturnType<typeof viewTree>) => tree?.documents;
    // An untracked markdown file the configuration keeps.
    expect(documents(viewTree(view(), state({ untracked: ['docs/new.md'] }), DOCUMENTS, nothingGone, filter))).toEqual(
      [...DOCUMENTS, 'docs/new.md'].sort(),
    );
    // A tracked document deleted (git lists it, and nothing is there).
    const deleted = viewTree(view(), state({ modified: ['docs/e.md'] }), DOCUMENTS, (path) => path === 'docs/e.md', filter);
    expect(documents(deleted)).toEqual(DOCUMENTS.filter((path) => path !== 'docs/e.md'));
    // An untracked document gone from git's list (removed, or ignored now).
    expect(documents(viewTree(view({ untracked: ['docs/h.md'] }), state(), DOCUMENTS, nothingGone, filter))).toEqual(
      DOCUMENTS.filter((path) => path !== 'docs/h.md'),
    );
    // A skip-worktree entry standing in the tree again.
    expect(documents(viewTree(view({ flagged: ['docs/z.md'] }), state(), DOCUMENTS, nothingGone, filter))).toEqual([
      ...DOCUMENTS,
      'docs/z.md',
    ]);
    // Nothing came or went: the kept documents themselves.
    expect(documents(viewTree(view(), state(), DOCUMENTS, nothingGone, filter))).toBe(DOCUMENTS);
  });

  it('gives way to a discovery for another index, or when git lists more than a quarter as many files as there are documents', () => {
    expect(viewTree(view(), state({ index: 'j' }), DOCUMENTS, nothingGone, filter)).toBeNull();
    expect(viewTree(view(), state({ modified: DOCUMENTS.slice(0, 5) }), DOCUMENTS, nothingGone, filter)).toBeNull();
  });

  it('holds when what came or went is left out by the configuration, or is no markdown git lists', () => {
    const kept = view({ leftOut: ['drafts/one.md'] });
    const tree = viewTree(kept, state({ untracked: ['drafts/two.md'], modified: ['drafts/one.md'] }), DOCUMENTS, nothingGone, filter);
    expect(tree?.found).toEqual([...DOCUMENTS, 'drafts/one.md', 'drafts/two.md'].sort());
    expect(tree?.documents).toEqual(DOCUMENTS);
    expect(viewTree(view(), state({ untracked: ['node_modules/pkg/README.md'] }), DOCUMENTS, nothingGone, filter)?.found).toBe(DOCUMENTS);
  });
});

describe('makeView', () => {
  it('keeps git’s lists, the documents and inputs that are no plain entry, what the configuration left out and the flagged markdown', () => {
    const basis = {
      state: state({ modified: ['docs/b.md'], untracked: ['docs/new.md'] }),
      isPlain: (path: string) => path !== 'docs/new.md' && path !== 'src/link.ts',
      flagged: ['docs/sparse.md', 'src/sparse.ts'],
    };
    const made = makeView(basis, [...DOCUMENTS, 'docs/new.md'], ['src/a.ts', 'src/link.ts'], [...DOCUMENTS, 'docs/new.md', 'drafts/x.md']);
    expect(made).toEqual({
      format: 1,
      index: 'i',
      modified: ['docs/b.md'],
      untracked: ['docs/new.md'],
      unplain: ['docs/new.md', 'src/link.ts'],
      leftOut: ['drafts/x.md'],
      flagged: ['docs/sparse.md'],
    });
    // An index whose stat data is stale vouches for little: no view.
    expect(makeView({ ...basis, state: state({ modified: DOCUMENTS.slice(0, 5) }) }, DOCUMENTS, [], DOCUMENTS)).toBeUndefined();
  });
});
