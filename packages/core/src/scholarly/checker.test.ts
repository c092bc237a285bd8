import { describe, expect, it } from 'vitest';
import { ArtifactCache } from '../artifacts.ts';
import { checkDocument } from '../check.ts';
import { CorpusIndex } from '../corpus/corpus-index.ts';
import { scanMarkdown } from '../markdown/scan.ts';
import { createMemoryFileSystem } from '../memory-fs.ts';
import { createConfinedReader } from '../reader.ts';
import type { Finding } from '../report.ts';
import { findAuthorYears } from './author-year.ts';
import { createScholarlyChecker, type ScholarlyOptions } from './checker.ts';
import { claimTier, findOpener } from './hedging.ts';
import { findMentions } from './mentions.ts';
import { buildProseView, splitSentences } from './prose.ts';

const REACT = `# REF-018: ReAct

**Citation**: Yao, S., Zhao, J., & Cao, Y. (2023). ReAct: Synergizing Reasoning and Acting. *ICLR*.

**arXiv**: 2210.03629v3
**DOI**: 10.5555/react.2023
**Pages**: 33

ReAct interleaves reasoning traces with task-specific actions, so that reasoning guides acting.
`;
const LOW = `---
grade_level: LOW
---
# REF-020: Tree of Thoughts

## Citation

Yao, S., & Griffiths, T. (2023). Tree of Thoughts.
`;
const VERY_LOW = '# REF-030: A Blog Post\n\nGRADE: VERY LOW\n';
const HIGH = '# REF-040: A Meta-analysis\n\n**GRADE**: HIGH\n';

function corpus(exists = true): CorpusIndex {
  return new CorpusIndex({
    roots: [{ path: 'docs/references', exists }],
    files: exists
      ? [
          { path: 'docs/references/REF-018-react.md', text: REACT },
          { path: 'docs/references/REF-020-tot.md', text: LOW },
          { path: 'docs/references/REF-030-blog.md', text: VERY_LOW },
          { path: 'docs/references/REF-040-meta.md', text: HIGH },
        ]
      : [],
  });
}

async function check(
  text: string,
  options: Partial<ScholarlyOptions> = {},
  files: Record<string, string> = {},
  file = 'doc.md',
): Promise<Finding[]> {
  const fs = createMemoryFileSystem({
    '/repo/docs/x.md': 'x',
    ...Object.fromEntries(Object.entries(files).map(([path, body]) => [`/repo/${path}`, body])),
  });
  const artifacts = new ArtifactCache(createConfinedReader(fs, '/repo'));
  const checker = createScholarlyChecker({ corpus: corpus(), now: { year: 2026, month: 11 }, profile: 'research', ...options });
  return (await checkDocument(file, text, artifacts, {}, [checker])).findings.sort((a, b) => a.line - b.line || a.column - b.column);
}

const brief = (findings: readonly Finding[]) =>
  findings.map((finding) => `${finding.kind}:${finding.status}:${finding.severity}:${finding.text}`);

describe('ref', () => {
  it('passes a real REF id and fails a fabricated one', async () => {
    const findings = await check('We follow REF-018 and REF-018-react closely. REF-999 says otherwise.\n');
    expect(brief(findings)).toEqual(['ref:found:ok:REF-018', 'ref:found:ok:REF-018-react', 'ref:not-in-corpus:error:REF-999']);
    expect(findings[2]?.rule).toBe('ref/not-in-corpus');
  });

  it('reports an id that two sources with different titles answer to, once per document', async () => {
    const twice = new CorpusIndex({
      roots: [{ path: 'docs/references', exists: true }],
      files: [
        { path: 'docs/references/REF-018-react.md', text: REACT },
        { path: 'docs/references/REF-018-other.md', text: '# REF-018: Something Else\n' },
      ],
    });
    const findings = await check('REF-018 and again REF-018.\n', { corpus: twice });
    expect(brief(findings)).toEqual(['ref:found:ok:REF-018', 'ref:duplicate:info:REF-018', 'ref:found:ok:REF-018']);
    expect(findings[1]?.message).toContain('docs/references/REF-018-other.md');
  });

  it('honours aiwg-cite-disable-next-line for a rule or a kind', async () => {
    const text =
      '<!-- aiwg-cite-disable-next-line ref/missing -->\nREF-999 and 10.9999/x.1.\n<!-- aiwg-cite-disable-next-line doi -->\nREF-998 and 10.9999/x.2.\n';
    expect(brief(await check(text))).toEqual(['doi:unverified:warning:10.9999/x.1', 'ref:not-in-corpus:error:REF-998']);
  });

  it('does not report the upper bound of a range of ids', async () => {
    expect(brief(await check('Ids run REF-018, ... REF-999 and REF-018 to REF-998.\n'))).toEqual([
      'ref:found:ok:REF-018',
      'ref:found:ok:REF-018',
    ]);
  });

  it('never reads code, HTML comments, frontmatter or link destinations', async () => {
    const text = '---\nref: REF-901\n---\n`REF-902` <!-- REF-903 -->\n\n```\nREF-904\n```\n\n[the paper](docs/REF-905.md)\n';
    expect(await check(text)).toEqual([]);
  });

  it('reports corpus findings as info when no corpus root exists, unless the corpus is required', async () => {
    const absent = { corpus: corpus(false) };
    expect(brief(await check('REF-999 is cited.\n', absent))).toEqual(['ref:not-in-corpus:info:REF-999']);
    expect(brief(await check('REF-999 is cited.\n', { ...absent, requireCorpus: true }))).toEqual(['ref:not-in-corpus:error:REF-999']);
  });
});

describe('mention (SPEC §3.3)', () => {
  it('finds mentions, not e-mail addresses, @octocat or @types/node, and strips a final period', () => {
    expect(findMentions('See @docs/x.md. Mail a@b.com, ping @octocat, install @types/node, read (@CLAUDE.md).').map((m) => m.path)).toEqual(
      ['docs/x.md', 'CLAUDE.md'],
    );
  });

  it('passes an existing file, fails a missing one (error for research paths), and leaves $AIWG_ROOT unresolvable', async () => {
    const findings = await check('See @docs/x.md and @docs/gone.md and @.aiwg/research/findings/REF-018.md and @$AIWG_ROOT/docs/a.md.\n');
    expect(brief(findings)).toEqual([
      'mention:found:ok:@docs/x.md',
      'mention:missing:warning:@docs/gone.md',
      'mention:missing:error:@.aiwg/research/findings/REF-018.md',
      'mention:unresolvable:info:@$AIWG_ROOT/docs/a.md',
    ]);
  });

  it('asks the host resolver, which may find $AIWG_ROOT and relocated .aiwg paths', async () => {
    const seen: string[] = [];
    const findings = await check('See @$AIWG_ROOT/docs/a.md and @.aiwg/notes.md.\n', {
      resolveMention: (target) => {
        seen.push(`${target.base}:${target.path}`);
        return target.base === 'aiwg-root' ? 'file' : 'unavailable';
      },
    });
    expect(seen).toEqual(['aiwg-root:docs/a.md', 'root:.aiwg/notes.md']);
    expect(brief(findings)).toEqual(['mention:found:ok:@$AIWG_ROOT/docs/a.md', 'mention:unresolvable:info:@.aiwg/notes.md']);
  });
});

describe('doi and arxiv (SPEC §5.1)', () => {
  it('verifies corpus identifiers and reports placeholders, malformed, unverified and future ids', async () => {
    const text = [
      'Real doi:10.5555/react.2023 and fake 10.1234/example.1 and doi:10.12/x and 10.9999/unknown.7.',
      'See arXiv:2210.03629v2, arXiv:2613.00001, arXiv:2612.00001 and arXiv:2509.99999. arXiv: 89 papers is prose.',
      '',
    ].join('\n');
    const findings = await check(text);
    expect(brief(findings)).toEqual([
      'doi:verified:ok:10.5555/react.2023',
      'doi:placeholder:error:10.1234/example.1',
      'doi:malformed:error:10.12/x',
      'doi:unverified:warning:10.9999/unknown.7',
      'arxiv:verified:ok:2210.03629v2',
      'arxiv:malformed:error:2613.00001',
      'arxiv:malformed:error:2612.00001',
      'arxiv:unverified:warning:2509.99999',
    ]);
    expect(findings[6]?.rule).toBe('arxiv/future');
  });

  it('reads DOIs in link destinations once, and honours configured placeholders', async () => {
    const findings = await check('[https://doi.org/10.5555/react.2023](https://doi.org/10.5555/react.2023) and 10.1145/3576915.3000000\n', {
      doiPlaceholders: ['10.1145/3576915.3000000'],
    });
    expect(brief(findings)).toEqual(['doi:verified:ok:10.5555/react.2023', 'doi:placeholder:error:10.1145/3576915.3000000']);
  });
});

describe('author-year (SPEC §5.2)', () => {
  it('extracts the documented forms and rejects months, openers and product names', () => {
    const text =
      'Yao et al., 2023 and Yao et al. (2023) and (Yao, 2023; Griffiths & Yao, 2023a, p. 4) and Yao and Zhao (2023). ' +
      'In (2023), March (2024), ReAct (2023) and MetaGPT (2024) are not citations; nor is the Agile Manifesto (2001).';
    expect(findAuthorYears(text).map((match) => `${match.surnames.join('+')}/${match.year}`)).toEqual([
      'Yao/2023',
      'Yao/2023',
      'Yao/2023',
      'Griffiths+Yao/2023',
      'Yao+Zhao/2023',
    ]);
  });

  it("reports a corpus source's own references as info: they lie outside the corpus by nature", async () => {
    const findings = await check(
      'The paper builds on Smith et al. (2021) and Zhao (2019), not (Cao, 1850).\n',
      {},
      {},
      'docs/references/REF-018-react.md',
    );
    expect(brief(findings)).toEqual([
      'author-year:author-not-in-corpus:info:Smith et al. (2021)',
      'author-year:year-mismatch:info:Zhao (2019)',
      'author-year:implausible-year:error:Cao, 1850',
    ]);
  });

  it('finds the right author and year, and reports unknown authors, wrong years and impossible years', async () => {
    const findings = await check(
      'Yao et al. (2023) agrees. Smith et al., 2021 disagrees (Zhao, 2019). (Cao, 1850) and (Cao, 2031) are odd.\n',
    );
    expect(brief(findings)).toEqual([
      'author-year:found:ok:Yao et al. (2023)',
      'author-year:author-not-in-corpus:warning:Smith et al., 2021',
      'author-year:year-mismatch:warning:Zhao, 2019',
      'author-year:implausible-year:error:Cao, 1850',
      'author-year:implausible-year:error:Cao, 2031',
    ]);
    expect(findings[2]?.message).toContain('2023');
  });
});

describe('quote (SPEC §5.3)', () => {
  it('passes a real quote despite curly quotes and line breaks, and fails a changed word with the closest passage', async () => {
    const ok = await check(
      'REF-018 says “interleaves reasoning traces with\ntask-specific actions, so that reasoning guides acting” (p. 2).\n',
    );
    expect(brief(ok).filter((line) => line.startsWith('quote'))).toHaveLength(1);
    expect(ok.find((finding) => finding.kind === 'quote')?.status).toBe('found');
    const unpaged = await check(
      'REF-018 says “interleaves reasoning traces with task-specific actions, so that reasoning guides acting”.\n',
    );
    expect(brief(unpaged).filter((line) => line.startsWith('quote'))).toEqual([
      'quote:found:ok:“interleaves reasoning traces with task-specific actions, so that reasoning guides acting”',
      'quote:missing-page:warning:“interleaves reasoning traces with task-specific actions, so that reasoning guides acting”',
    ]);
    const changed = await check(
      'REF-018 says "interleaves reasoning traces with task-agnostic actions, so that reasoning guides acting".\n',
    );
    const quote = changed.find((finding) => finding.kind === 'quote');
    expect(quote?.status).toBe('not-found');
    expect(quote?.severity).toBe('error');
    expect(quote?.message).toContain('interleaves reasoning traces with task-specific actions');
  });

  it('ignores short quotes, quotes with no cited source, and ids inside the quotation marks', async () => {
    const findings = await check(
      'He said "it works". Someone said "reasoning traces with task-agnostic actions guide acting". The log said "Acquire paper REF-018 from the queue now please".\n',
    );
    expect(findings.filter((finding) => finding.kind === 'quote')).toEqual([]);
  });
});

describe('statistic and pages', () => {
  it('flags unsourced statistics, not sourced ones, requirements or headings', async () => {
    const text =
      '# 90% of headings\n\nAbout 73% of agents fail. It is 3x faster.\n\nREF-018 reports 27% gains.\n\nCoverage must stay above 80%.\n\nStudies show this works.\n';
    expect(brief(await check(text))).toEqual([
      'statistic:unsourced:warning:73%',
      'statistic:unsourced:warning:3x faster',
      'ref:found:ok:REF-018',
      'statistic:unsourced:warning:Studies show',
    ]);
  });

  it('counts a citation in the section heading as the source of the statistics below it', async () => {
    const text = '## Results of REF-018\n\n- Accuracy: 27% vs 20%.\n\n## Other results\n\n- Accuracy: 30%.\n';
    expect(brief(await check(text)).filter((line) => line.startsWith('statistic'))).toEqual(['statistic:unsourced:warning:30%']);
  });

  it('flags page 0, reversed ranges and pages beyond the source, and accepts abbreviated ranges', async () => {
    const findings = await check('REF-018 (p. 0). REF-018 (pp. 45-32). REF-018 (p. 40). REF-018 (pp. 12-18). REF-018 (pp. 21-3).\n');
    expect(brief(findings.filter((finding) => finding.kind === 'pages'))).toEqual([
      'pages:invalid-pages:error:p. 0',
      'pages:invalid-pages:error:pp. 45-32',
      'pages:invalid-pages:error:p. 40',
    ]);
  });
});

describe('grade (SPEC §4)', () => {
  it('classifies claim tiers, qualifiers first', () => {
    expect(claimTier('Limited evidence suggests it').tier).toBe('hedged');
    expect(claimTier('This proves it').tier).toBe('absolute');
    expect(claimTier('Research demonstrated it').tier).toBe('strong');
    expect(claimTier('Data points to it').tier).toBe('moderate');
    expect(claimTier('It exists').tier).toBe('neutral');
    expect(findOpener('- Research shows that X')).toEqual({ start: 2, end: 16, text: 'Research shows' });
    expect(findOpener('Limited evidence suggests X')).toBeNull();
  });

  it('applies the enforcement matrix', async () => {
    const findings = await check(
      [
        'Research shows it works (REF-020).',
        'Evidence suggests it works (REF-030).',
        'Evidence suggests it works (REF-020).',
        'Research shows it works (REF-018).',
        'Research shows it works (REF-040).',
        'Limited evidence suggests it may work (REF-020).',
        'This proves it (REF-040).',
        'REF-040 is a meta-analysis.',
        '',
      ].join('\n\n'),
    );
    expect(brief(findings.filter((finding) => finding.kind === 'grade'))).toEqual([
      'grade:overclaim:error:REF-020',
      'grade:overclaim:error:REF-030',
      'grade:overclaim:warning:REF-020',
      'grade:unassessed:info:REF-018',
      'grade:ok:ok:REF-040',
      'grade:ok:ok:REF-020',
      'grade:absolute:warning:REF-040',
      'grade:ok:ok:REF-040',
    ]);
    expect(findings.find((finding) => finding.status === 'overclaim')?.opener).toEqual({
      line: 1,
      column: 1,
      text: 'Research shows',
      replacement: 'Limited evidence suggests',
    });
  });

  it('uses a GRADE level written in the text only when nothing is stored, and warns when they disagree', async () => {
    const findings = await check('Research shows it (REF-018, GRADE: LOW).\n\nResearch shows it (REF-040, GRADE: LOW).\n');
    expect(brief(findings.filter((finding) => finding.kind === 'grade'))).toEqual([
      'grade:overclaim:error:REF-018',
      'grade:ok:ok:REF-040',
      'grade:mismatch:warning:GRADE: LOW',
    ]);
  });
});

describe('documents that cannot hold a citation', () => {
  it('are skipped without a finding, while a statistic phrase alone is still read', async () => {
    expect(await check('# Notes\n\nNothing to cite here, only words.\n')).toEqual([]);
    expect(brief(await check('Studies show that this works.\n'))).toEqual(['statistic:unsourced:warning:Studies show']);
  });
});

describe('prose views and sentences', () => {
  it('keeps offsets while blanking code and link destinations, and splits sentences but not after et al. or p.', () => {
    const text = 'Yao et al. (2023) found it. See p. 5 of [REF-018](docs/REF-777.md). Then `REF-666` here!\n\n# Heading\n';
    const view = buildProseView(scanMarkdown(text));
    expect(view.citable).toHaveLength(text.length);
    expect(view.citable).not.toContain('REF-777');
    expect(view.citable).not.toContain('REF-666');
    expect(view.withDestinations).toContain('REF-777');
    const sentences = splitSentences(view.citable).map((sentence) => text.slice(sentence.start, sentence.end).trim());
    expect(sentences).toEqual([
      'Yao et al. (2023) found it.',
      'See p. 5 of [REF-018](docs/REF-777.md).',
      'Then `REF-666` here!',
      '# Heading',
    ]);
  });
});
