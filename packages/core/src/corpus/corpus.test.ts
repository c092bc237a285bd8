import { describe, expect, it } from 'vitest';
import { parseBibtex, parseCslJson } from './bibliography.ts';
import { CorpusIndex } from './corpus-index.ts';
import { findGradeMarker, parseGradeLevel } from './grade.ts';
import { findRefIds, idsFromBasename } from './ref-ids.ts';
import { parseCorpusSource } from './source.ts';
import { parseYaml } from './yaml.ts';

const REACT = `# REF-018: ReAct - Synergizing Reasoning and Acting in Language Models

**Citation**: Yao, S., Zhao, J., Yu, D., Du, N., & Cao, Y. (2023). ReAct: Synergizing Reasoning and Acting. *ICLR*.

**arXiv**: 2210.03629v3 [cs.CL]
**Pages**: 33 pages total

ReAct interleaves reasoning traces with actions.
`;

const GOTEL = `# REF-011: An Analysis of the Requirements Traceability Problem

## Citation

Gotel, O. C. Z., & Finkelstein, A. C. W. (1994). An analysis of the requirements traceability problem. *ICRE*, 94-101.

**DOI**: [10.1109/ICRE.1994.292398](https://doi.org/10.1109/ICRE.1994.292398)
**Year**: 1994 | **Authors**: Orlena C. Z. Gotel, Anthony C. W. Finkelstein | **Institution**: Imperial College London
`;

const FRONTMATTER = `---
ref_id: REF-200
title: "Küttler's Survey"
authors:
  - family: Küttler
  - Jane Doe
year: 2021
identifiers:
  doi: 10.5555/Survey.1
quality_assessment:
  final_grade: ⊕⊕○○
---
# Notes without an id in the heading
`;

async function bibEntries(text: string) {
  const result = await parseBibtex('refs.bib', text);
  if (!result.ok) throw new Error(result.problem);
  return result.entries;
}

// Read before the suites that index it: the BibTeX parser loads asynchronously.
const vaswaniBibliography = await bibEntries(
  '@article{vaswani, author = {Vaswani, Ashish and Shazeer, Noam}, year = 2017, doi = {10.5555/Attention}}',
);

describe('REF ids (SPEC §3.1)', () => {
  it('finds ids in prose, keeps suffixes, and marks malformed numbers', () => {
    const found = findRefIds('See REF-018, REF-018-react and REF-SR-001; REF-7 and REF-0181 are malformed; PROF-P-alice too.');
    expect(found.map((ref) => `${ref.id}:${ref.form}`)).toEqual([
      'REF-018:valid',
      'REF-018-react:valid',
      'REF-SR-001:valid',
      'REF-7:malformed',
      'REF-0181:malformed',
      'PROF-P-alice:valid',
    ]);
  });

  it('ignores placeholders and ids that belong to a path, URL or mention', () => {
    const text = 'REF-XXX, REF-NNN, {REF-018}, <REF-018>, docs/REF-018-x.md, REF-018.md, https://x.test/REF-018, @.aiwg/REF-018-a.md';
    expect(findRefIds(text)).toEqual([]);
  });

  it('answers by basename prefix at a dash boundary only', () => {
    expect(idsFromBasename('REF-018-react-reasoning.md')).toEqual(['REF-018', 'REF-018-react', 'REF-018-react-reasoning']);
    expect(idsFromBasename('REF-0181.md')).toEqual(['REF-0181']);
    expect(idsFromBasename('notes.md')).toEqual([]);
  });
});

describe('corpus sources (SPEC §3.2)', () => {
  it('reads the H1, the inline APA citation, arXiv and page count', () => {
    const source = parseCorpusSource({ path: 'docs/references/REF-018-react.md', text: REACT });
    expect(source?.ids).toContain('REF-018');
    expect(source?.title).toBe('ReAct - Synergizing Reasoning and Acting in Language Models');
    expect(source?.authors).toEqual(['Yao', 'Zhao', 'Yu', 'Du', 'Cao']);
    expect(source?.year).toBe(2023);
    expect(source?.arxiv).toEqual(['2210.03629']);
    expect(source?.pageCount).toBe(33);
    expect(source?.grade).toBeNull();
  });

  it('reads an APA line under ## Citation and bold fields sharing a line', () => {
    const source = parseCorpusSource({ path: 'REF-011-traceability.md', text: GOTEL });
    expect(source?.authors).toEqual(['Gotel', 'Finkelstein']);
    expect(source?.year).toBe(1994);
    expect(source?.dois).toEqual(['10.1109/icre.1994.292398']);
  });

  it('prefers YAML frontmatter, reads GRADE symbols, and resolves by frontmatter id', () => {
    const source = parseCorpusSource({ path: 'findings/survey.md', text: FRONTMATTER });
    expect(source?.ids).toEqual(['REF-200']);
    expect(source?.title).toBe("Küttler's Survey");
    expect(source?.authors).toEqual(['Küttler', 'Doe']);
    expect(source?.dois).toEqual(['10.5555/survey.1']);
    expect(source?.grade).toBe('low');
  });

  it('is not a source when nothing names a REF id', () => {
    expect(parseCorpusSource({ path: 'docs/references/README.md', text: '# References\n' })).toBeNull();
  });
});

describe('the corpus index', () => {
  const index = new CorpusIndex({
    roots: [{ path: 'docs/references', exists: true }],
    files: [
      { path: 'docs/references/REF-018-react.md', text: REACT },
      { path: 'docs/references/REF-011-traceability.md', text: GOTEL },
      { path: 'docs/references/survey.md', text: FRONTMATTER },
    ],
    assessments: [
      {
        path: '.aiwg/research/quality-assessments/REF-018-assessment.yaml',
        text: 'reference_id: REF-018\nfinal_quality:\n  level: MODERATE\n',
      },
    ],
    bibliography: vaswaniBibliography,
  });

  it('resolves full ids, then the stem of a suffixed id, and never a longer number', () => {
    expect(index.findRef('REF-018')?.path).toBe('docs/references/REF-018-react.md');
    expect(index.findRef('REF-018-react')?.path).toBe('docs/references/REF-018-react.md');
    expect(index.findRef('REF-018-summary')?.path).toBe('docs/references/REF-018-react.md');
    expect(index.findRef('REF-0181')).toBeNull();
    expect(index.findRef('REF-999')).toBeNull();
  });

  it('indexes DOIs, arXiv ids (any version), surnames (diacritics folded) and assessments', () => {
    expect(index.findDoi('10.1109/ICRE.1994.292398')).toBe('docs/references/REF-011-traceability.md');
    expect(index.findDoi('10.5555/attention')).toBe('refs.bib#vaswani');
    expect(index.findArxiv('2210.03629v1')).toBe('docs/references/REF-018-react.md');
    expect(index.findSurname('Kuttler').map((entry) => entry.path)).toEqual(['docs/references/survey.md']);
    expect(index.findSurname('Shazeer')[0]?.year).toBe(2017);
    expect(index.findRef('REF-018')?.grade).toBe('moderate');
    expect(index.exists).toBe(true);
  });
});

describe('metadata files (SPEC §3.2 item 2)', () => {
  it('fill in what the markdown lacks, below frontmatter', () => {
    const index = new CorpusIndex({
      roots: [{ path: '.aiwg/research/sources', exists: true }],
      files: [{ path: '.aiwg/research/sources/REF-077-paper.md', text: '# REF-077: A Paper\n' }],
      metadata: [
        {
          path: '.aiwg/research/sources/metadata/REF-077-metadata.json',
          text: JSON.stringify({
            title: 'A Paper, In Full',
            authors: ['Ada Lovelace', 'Babbage, C.'],
            year: 1843,
            doi: '10.5555/Engine',
            arxiv: '2401.00001v2',
          }),
        },
      ],
    });
    const source = index.findRef('REF-077');
    expect(source).toMatchObject({ title: 'A Paper, In Full', authors: ['Lovelace', 'Babbage'], year: 1843 });
    expect(index.findDoi('10.5555/engine')).toBe('.aiwg/research/sources/REF-077-paper.md');
    expect(index.findArxiv('2401.00001')).toBe('.aiwg/research/sources/REF-077-paper.md');
  });
});

describe('GRADE levels (SPEC §4.1)', () => {
  it('reads every spelling and symbol, and does not map letter grades', () => {
    for (const [value, level] of [
      ['HIGH', 'high'],
      ['moderate', 'moderate'],
      ['Very Low', 'very_low'],
      ['VERY_LOW', 'very_low'],
      ['very-low', 'very_low'],
      ['⊕⊕⊕○', 'moderate'],
      ['⊕○○○', 'very_low'],
    ] as const) {
      expect(parseGradeLevel(value)).toBe(level);
    }
    expect(parseGradeLevel('A')).toBeNull();
    expect(findGradeMarker('Per REF-089 (GRADE: LOW, peer-review pending)')?.level).toBe('low');
  });
});

describe('bibliographies', () => {
  it('parses BibTeX with nested braces, quotes and arXiv eprints', async () => {
    const result = await parseBibtex(
      'refs.bib',
      '@comment{ignored}\n@inproceedings{yao2023,\n  title = {{ReAct}: Reasoning},\n  author = "Yao, Shunyu and Zhao, Jeffrey",\n  year = 2023,\n  eprint = {2210.03629v2}, archivePrefix = {arXiv}\n}\n',
    );
    expect(result.ok && result.entries).toEqual([
      {
        path: 'refs.bib#yao2023',
        key: 'yao2023',
        title: 'ReAct: Reasoning',
        authors: ['Yao', 'Zhao'],
        year: 2023,
        dois: [],
        arxiv: ['2210.03629'],
      },
    ]);
    expect((await parseBibtex('bad.bib', '@article{x, title = {unclosed')).ok).toBe(false);
  });

  it('parses CSL-JSON and rejects what is not', () => {
    const result = parseCslJson(
      'refs.csl.json',
      JSON.stringify([{ id: 'a', DOI: '10.5555/X', author: [{ family: 'Lewis' }], issued: { 'date-parts': [[2020]] } }]),
    );
    expect(result.ok && result.entries[0]).toMatchObject({ dois: ['10.5555/x'], authors: ['Lewis'], year: 2020 });
    expect(parseCslJson('bad.csl.json', '{').ok).toBe(false);
  });
});

describe('YAML through the yaml package (issue 12 item 5)', () => {
  it('reads nested maps, block and flow lists, quotes and comments', () => {
    expect(parseYaml('a: 1\nb:\n  c: "x # y" # comment\n  d: [p, \'q\']\ne:\n  - one\n  - two\n')).toEqual({
      value: { a: 1, b: { c: 'x # y', d: ['p', 'q'] }, e: ['one', 'two'] },
      problem: null,
    });
  });

  it('reads a flow list that continues on the next line as two authors (it read as `[Smith,`)', () => {
    const source = parseCorpusSource({
      path: 'sources/REF-301.md',
      text: '---\nauthors: [Smith,\n  Doe]\nyear: 2019\n---\n# REF-301: Two authors\n',
    });
    expect(source?.authors).toEqual(['Smith', 'Doe']);
    expect(source?.year).toBe(2019);
  });

  it('keeps the body of an `abstract: |-` block and reads the keys after it (the body was lost)', () => {
    const text =
      '---\nref_id: REF-302\nabstract: |-\n  First line: not a key.\n  doi: 10.9999/not-a-field\n\n  Last line.\nyear: 2020\n---\n';
    const parsed = parseYaml(text.slice(4, text.lastIndexOf('---')));
    expect(parsed.value).toEqual({
      ref_id: 'REF-302',
      abstract: 'First line: not a key.\ndoi: 10.9999/not-a-field\n\nLast line.',
      year: 2020,
    });
    const source = parseCorpusSource({ path: 'sources/notes.md', text });
    expect(source).toMatchObject({ ids: ['REF-302'], year: 2020, dois: [] });
  });

  it('keeps dates as strings (the core schema) and names the line of a problem without throwing', () => {
    expect(parseYaml('published: 2024-05-01\n').value).toEqual({ published: '2024-05-01' });
    const broken = parseYaml('title: ok\nauthors: [Smith\n');
    expect(broken.problem).toMatch(/^line \d+: /);
    expect(parseCorpusSource({ path: 'sources/REF-303.md', text: '---\ntitle: [unclosed\n---\n# Heading\n' })?.ids).toEqual(['REF-303']);
  });

  it('reports invalid frontmatter and assessment YAML as one line naming the file and the line of the file', () => {
    const index = new CorpusIndex({
      roots: [{ path: 'sources', exists: true }],
      files: [
        { path: 'sources/REF-304.md', text: '---\ntitle: ok\nauthors: [Smith\n---\n# REF-304: Broken\n' },
        { path: 'sources/notes.md', text: '---\nref_id: REF-305\n  bad: indent\n---\n' },
        { path: 'sources/REF-306.md', text: '---\ntitle: fine\n---\n' },
      ],
      assessments: [{ path: '.aiwg/research/quality-assessments/REF-304.yaml', text: 'final_grade: "HIGH\n' }],
    });
    expect(index.problems).toEqual([
      '.aiwg/research/quality-assessments/REF-304.yaml: not valid YAML (line 2: Missing closing "quote); its grade may be misread until it is fixed',
      'sources/REF-304.md: the frontmatter is not valid YAML (line 3: Flow sequence in block collection must be sufficiently indented and end with a ]); its fields may be misread until it is fixed',
      'sources/notes.md: the frontmatter is not valid YAML (line 2: Nested mappings are not allowed in compact mappings); its fields may be misread until it is fixed',
    ]);
    // Still read as far as the parser recovered it.
    expect(index.sources.map((source) => source.path)).toEqual(['sources/REF-304.md', 'sources/REF-306.md']);
  });

  it('stops an alias bomb instead of expanding it', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let level = 1; level < 9; level += 1)
      bomb.push(
        `${String.fromCharCode(97 + level)}: &${String.fromCharCode(97 + level)} [${Array(10)
          .fill(`*${String.fromCharCode(96 + level)}`)
          .join(', ')}]`,
      );
    const parsed = parseYaml(bomb.join('\n'));
    expect(parsed.problem).not.toBeNull();
    expect(parsed.value).toBeNull();
  });
});

describe('BibTeX through @retorquere/bibtex-parser (issue 12 item 5)', () => {
  it('keeps the rest of an entry after a `#` concatenation and decodes LaTeX accents', async () => {
    const [entry] = await bibEntries(
      '@article{m2020,\n  month = jan # "~15",\n  author = {M{\\"u}ller, Hans and Jos{\\\'e} Garc{\\\'\\i}a},\n  year = 2020,\n  doi = {10.5555/Mueller.2020}\n}\n',
    );
    expect(entry).toEqual({
      path: 'refs.bib#m2020',
      key: 'm2020',
      title: null,
      authors: ['Müller', 'García'],
      year: 2020,
      dois: ['10.5555/mueller.2020'],
      arxiv: [],
    });
  });

  it('expands @string macros', async () => {
    const [entry] = await bibEntries('@string{ml = "Machine Learning"}\n@article{a, title = ml # {: a survey}, year = {2021}}\n');
    expect(entry?.title).toBe('Machine Learning: a survey');
  });
});
