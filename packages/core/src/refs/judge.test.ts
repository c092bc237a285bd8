import { describe, expect, it } from 'vitest';
import { readBibtex } from './bibtex.ts';
import { citedFromBib, pandocKeys, parseReferenceText, referenceListItems } from './entries.ts';
import { type CitedReference, judgeReference, type RefEvidence, type ScholarlyRecord } from './judge.ts';
import { parsePersonName, titleSimilarity } from './normalize.ts';
import { identifyVenue, sameVenue } from './venues.ts';

const NOW = { year: 2026 };

function record(service: ScholarlyRecord['service'], fields: Partial<ScholarlyRecord> = {}): ScholarlyRecord {
  return {
    service,
    id: `${service}-1`,
    url: `https://example.test/${service}`,
    title: 'Graph Attention Networks for Sparse Reward Exploration',
    authors: ['Maria Keller', 'Tomás Ibarra', 'Wei Zhang'].map(parsePersonName),
    year: 2021,
    arxivYear: null,
    venue: 'Advances in Neural Information Processing Systems',
    doi: null,
    arxiv: null,
    arxivVersion: null,
    preprint: false,
    authorsComplete: true,
    ...fields,
  };
}

function cited(fields: Partial<CitedReference> = {}): CitedReference {
  return {
    key: 'keller2021',
    title: 'Graph Attention Networks for Sparse Reward Exploration',
    authors: ['Maria Keller', 'Tomas Ibarra', 'Wei Zhang'].map(parsePersonName),
    authorsTruncated: false,
    year: 2021,
    venue: 'NeurIPS',
    doi: null,
    arxiv: null,
    ...fields,
  };
}

function evidence(records: ScholarlyRecord[], fields: Partial<RefEvidence> = {}): RefEvidence {
  return { records, searched: ['openalex', 'dblp', 's2', 'crossref'], failed: [], doi: null, arxiv: null, ...fields };
}

const rules = (entry: CitedReference, found: RefEvidence) =>
  judgeReference(entry, found, NOW)
    .findings.filter((finding) => finding.severity === 'error')
    .map((finding) => finding.rule);

describe('refs: title similarity and venues', () => {
  it('ignores LaTeX, accents, case, dashes and math', () => {
    expect(titleSimilarity('{\\"U}ber {GAN}s -- a $\\alpha$-Study', 'Über GANs — an α-study')).toBeLessThan(1);
    expect(titleSimilarity('{\\"U}ber {GAN}s -- the $\\alpha$-Study', 'Über GANs — the α-study')).toBe(1);
    expect(titleSimilarity('Pre-training Transformers', 'Pretraining transformers.')).toBe(1);
  });

  it('scores a one-word change high but below the same-work threshold', () => {
    const score = titleSimilarity(
      'Self-Consistency Improves Chain of Thought Inference in Language Models',
      'Self-Consistency Improves Chain of Thought Reasoning in Language Models',
    );
    expect(score).toBeGreaterThan(0.7);
    expect(score).toBeLessThan(0.96);
  });

  it('knows venue aliases, years and ordinals, and journal abbreviations', () => {
    expect(sameVenue('NeurIPS', 'Advances in Neural Information Processing Systems 35')).toBe(true);
    expect(sameVenue('NIPS', 'Proceedings of the 34th Conference on Neural Information Processing Systems')).toBe(true);
    expect(sameVenue('CVPR', '2022 IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)')).toBe(true);
    expect(sameVenue('J. Mach. Learn. Res.', 'Journal of Machine Learning Research')).toBe(true);
    expect(sameVenue('Front. Cardiovasc. Med.', 'Frontiers in Cardiovascular Medicine')).toBe(true);
    expect(sameVenue('ICML', 'Proceedings of the AAAI Conference on Artificial Intelligence')).toBe(false);
    expect(sameVenue('Symposium on Neural Scaling Laws', 'International Conference on Learning Representations')).toBe(false);
    expect(identifyVenue('arXiv (Cornell University)').preprint).toBe(true);
  });
});

describe('refs: judgeReference', () => {
  it('accepts an entry every field of which a record confirms', () => {
    const judgement = judgeReference(cited(), evidence([record('openalex'), record('dblp', { venue: 'NeurIPS' })]), NOW);
    expect(judgement.verdict).toBe('valid');
    expect(judgement.findings).toEqual([]);
    expect(judgement.agreeing).toEqual(['openalex', 'dblp']);
  });

  it('flags a future year without any lookup', () => {
    expect(rules(cited({ year: 2033 }), evidence([], { searched: [], failed: [{ service: 'openalex', message: 'down' }] }))).toEqual([
      'refs/future-date',
    ]);
  });

  it('flags placeholder authors and "et al."-only lists', () => {
    expect(rules(cited({ authors: ['John Doe', 'A. Author'].map(parsePersonName) }), evidence([record('openalex')]))).toContain(
      'refs/placeholder-authors',
    );
    expect(rules(cited({ authors: [], authorsTruncated: true }), evidence([record('openalex')]))).toContain('refs/placeholder-authors');
  });

  it('flags authors of another work, and names the work they come from', () => {
    const other = record('crossref', { title: 'A Different Paper on Bandits', authors: ['Ana Silva', 'Kenji Sato'].map(parsePersonName) });
    const found = rules(cited({ authors: ['Ana Silva', 'Kenji Sato'].map(parsePersonName) }), evidence([record('openalex'), other]));
    expect(found).toEqual(['refs/authors', 'refs/merged-citation']);
  });

  it('flags a partial author list, but not one that ends in "and others"', () => {
    const partial = cited({ authors: ['Maria Keller', 'Tomas Ibarra'].map(parsePersonName) });
    expect(rules(partial, evidence([record('openalex')]))).toEqual(['refs/authors-partial']);
    expect(rules({ ...partial, authorsTruncated: true }, evidence([record('openalex')]))).toEqual([]);
  });

  it('accepts family-first and initials-only spellings of the same people', () => {
    const spelled = cited({ authors: ['Keller, M.', 'Ibarra, T.', 'Zhang Wei'].map(parsePersonName) });
    expect(judgeReference(spelled, evidence([record('openalex')]), NOW).verdict).toBe('valid');
  });

  it('flags a wrong venue, accepts an alias, and takes any service that agrees', () => {
    expect(rules(cited({ venue: 'ICML' }), evidence([record('openalex')]))).toEqual(['refs/venue']);
    expect(rules(cited({ venue: 'ICML' }), evidence([record('openalex'), record('s2', { venue: 'ICML' })]))).toEqual([]);
  });

  it('flags a preprint cited as published', () => {
    const preprint = record('openalex', { venue: 'arXiv (Cornell University)', preprint: true, arxivYear: 2021 });
    expect(rules(cited({ venue: 'CVPR' }), evidence([preprint]))).toEqual(['refs/preprint-as-published']);
    expect(rules(cited({ venue: 'arXiv preprint' }), evidence([preprint]))).toEqual([]);
  });

  it('allows the arXiv year, warns at one year off, errs at two', () => {
    const both = record('openalex', { year: 2022, arxivYear: 2021 });
    expect(judgeReference(cited(), evidence([both]), NOW).findings).toEqual([]);
    expect(judgeReference(cited({ year: 2020 }), evidence([record('openalex')]), NOW).findings.map((finding) => finding.rule)).toEqual([
      'refs/year-off-by-one',
    ]);
    expect(rules(cited({ year: 2018 }), evidence([record('openalex')]))).toEqual(['refs/year']);
  });

  it('tells a near-miss title from a title no service knows', () => {
    const near = cited({ title: 'Graph Attention Networks for Dense Reward Exploration' });
    expect(rules(near, evidence([record('openalex')]))).toEqual(['refs/title']);
    expect(rules(cited({ title: 'Quantum Origami for Protein Folding' }), evidence([record('openalex')]))).toEqual(['refs/not-found']);
  });

  it('flags an unresolvable DOI and a DOI of another work', () => {
    expect(rules(cited({ doi: '10.99999/fake.1' }), evidence([record('openalex')], { doi: { status: 'missing', record: null } }))).toEqual([
      'refs/doi-unresolved',
    ]);
    const elsewhere = record('crossref', { title: 'Protein Structure Prediction at Scale', doi: '10.5555/other' });
    expect(
      rules(cited({ doi: '10.5555/other' }), evidence([record('openalex'), elsewhere], { doi: { status: 'resolves', record: elsewhere } })),
    ).toEqual(['refs/doi-mismatch']);
  });

  it('flags an arXiv version that does not exist', () => {
    const arxiv = record('arxiv', { arxiv: '2101.00001', id: '2101.00001', arxivVersion: 2 });
    expect(
      rules(
        cited({ arxiv: { id: '2101.00001', version: 5 } }),
        evidence([record('openalex'), arxiv], { arxiv: { status: 'found', record: arxiv } }),
      ),
    ).toEqual(['refs/arxiv-version']);
  });

  it('is uncertain, never hallucinated, when the lookups failed', () => {
    const failed = evidence([], { searched: [], failed: [{ service: 'openalex', message: 'HTTP 503' }] });
    const judgement = judgeReference(cited(), failed, NOW);
    expect(judgement.verdict).toBe('uncertain');
    expect(judgement.findings.map((finding) => finding.rule)).toEqual(['refs/unverified']);
    expect(
      judgeReference(cited(), evidence([], { searched: ['openalex'], failed: [{ service: 'dblp', message: 'reset' }] }), NOW).verdict,
    ).toBe('uncertain');
  });
});

describe('refs: entries', () => {
  it('reads .bib entries with their lines, decoded fields and "and others"', async () => {
    const text =
      '% list\n@inproceedings{a,\n  title = {{GAN}s for {\\"U}bung},\n  author = {M{\\"u}ller, Hans and others},\n  booktitle = {NeurIPS},\n  year = 2021,\n  eprint = {2101.00001v3}, archivePrefix = {arXiv}\n}\n';
    const file = await readBibtex(text);
    const [entry] = file.entries;
    expect(entry?.line).toBe(2);
    expect(text.slice(entry?.span?.start, entry?.span?.end).endsWith('}')).toBe(true);
    const reference = citedFromBib(entry as NonNullable<typeof entry>);
    expect(reference).toMatchObject({
      title: 'GANs for Übung',
      authors: [{ family: 'Müller', given: 'Hans' }],
      authorsTruncated: true,
      venue: 'NeurIPS',
      year: 2021,
      arxiv: { id: '2101.00001', version: 3 },
    });
  });

  it('finds reference-list items under a References heading and reads their fields', () => {
    const markdown = [
      '# Paper',
      '- not a reference',
      '## References',
      '',
      '1. Maria Keller, Tomás Ibarra, and Wei Zhang. “Graph Attention Networks for Sparse Reward Exploration.” In *NeurIPS*, 2021.',
      '2. Keller, M., & Zhang, W. (2020). Sparse rewards in practice. *Journal of Machine Learning Research*, 21, 1-20.',
      '   https://doi.org/10.5555/jmlr.2020',
      '## Appendix',
      '- not a reference either',
    ].join('\n');
    const items = referenceListItems(markdown);
    expect(items.map((item) => item.line)).toEqual([5, 6]);
    const first = parseReferenceText('x', items[0]?.text ?? '');
    expect(first).toMatchObject({ title: 'Graph Attention Networks for Sparse Reward Exploration', venue: 'NeurIPS', year: 2021 });
    expect(first.authors.map((person) => person.family)).toEqual(['Keller', 'Ibarra', 'Zhang']);
    const second = parseReferenceText('y', items[1]?.text ?? '');
    expect(second).toMatchObject({ title: 'Sparse rewards in practice', year: 2020, doi: '10.5555/jmlr.2020' });
    expect(second.authors).toEqual([
      { family: 'Keller', given: 'M.' },
      { family: 'Zhang', given: 'W' },
    ]);
  });

  it('reads headings and hidden blocks from the markdown model: setext headings count, code and comments do not', () => {
    const markdown = [
      'References',
      '==========',
      '',
      '1. Keller, M. (2020). Sparse rewards in practice.',
      '',
      '<!--',
      '2. A commented-out entry (2019).',
      '-->',
      '',
      '    3. An indented code line (2018).',
      '',
      '- ```',
      '  # Not a heading',
      '  ```',
      '4. Zhang, W. (2021). Dense rewards.',
    ].join('\n');
    expect(referenceListItems(markdown).map((item) => item.line)).toEqual([4, 15]);
  });

  it('finds Pandoc and Manubot keys outside code', () => {
    expect(
      pandocKeys(
        'As shown [@keller2021; @doi:10.5555/x.1].\n```\n@notakey\n```\nMail me at a@b.test, not `@code` or <!-- @hidden -->.',
      ).map((key) => key.key),
    ).toEqual(['keller2021', 'doi:10.5555/x.1']);
  });
});

describe('refs: BibTeX the LaTeX converter rejects', () => {
  it('still reads an entry with an unclosed math section, raw, and the entries after it', async () => {
    const file = await readBibtex(
      `@article{m, title = {\${{\\mathrm {Latent}}}}, author = {Ann Lee}, year = {2023}}\n@misc{n, title = {Next}}\n`,
    );
    expect(file.problems).toEqual([]);
    expect(file.entries.map((entry) => entry.key)).toEqual(['m', 'n']);
    expect(file.entries[0]?.fields.year).toBe('2023');
    expect(file.entries[0]?.authors.map((person) => person.family)).toEqual(['Lee']);
  });
});
