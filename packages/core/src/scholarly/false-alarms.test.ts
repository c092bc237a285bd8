import { describe, expect, it } from 'vitest';
import { ArtifactCache } from '../artifacts.ts';
import { checkDocument } from '../check.ts';
import { CorpusIndex } from '../corpus/corpus-index.ts';
import { createMemoryFileSystem } from '../memory-fs.ts';
import { createConfinedReader } from '../reader.ts';
import type { Finding } from '../report.ts';
import { findAuthorYears } from './author-year.ts';
import { createScholarlyChecker, type ScholarlyOptions } from './checker.ts';
import { findDois } from './identifiers.ts';
import { findMentions } from './mentions.ts';
import { researchReason } from './profile.ts';

// Issue 14: each false-alarm class seen on real repositories, written small, next to the true
// finding of the same kind that must still be reported.

const REACT = `# REF-018: ReAct

**Citation**: Yao, S., Zhao, J., & Cao, Y. (2023). ReAct: Synergizing Reasoning and Acting. *ICLR*.
`;

function corpus(): CorpusIndex {
  return new CorpusIndex({
    roots: [{ path: 'docs/references', exists: true }],
    files: [{ path: 'docs/references/REF-018-react.md', text: REACT }],
  });
}

async function check(text: string, options: Partial<ScholarlyOptions> = {}, file = 'doc.md'): Promise<Finding[]> {
  return (await checkAll(text, file, options)).filter((finding) => finding.severity !== 'ok');
}

/** Every finding of a check, `ok` ones included. */
async function checkAll(text: string, file: string, options: Partial<ScholarlyOptions> = {}): Promise<Finding[]> {
  const fs = createMemoryFileSystem({ '/repo/docs/here.md': 'x', '/repo/path/to/here.md': 'x' });
  const artifacts = new ArtifactCache(createConfinedReader(fs, '/repo'));
  const checker = createScholarlyChecker({ corpus: corpus(), now: { year: 2026, month: 11 }, profile: 'research', ...options });
  return (await checkDocument(file, text, artifacts, {}, [checker])).findings;
}

const rules = (findings: readonly Finding[]) => findings.map((finding) => `${finding.line}:${finding.rule}:${finding.text}`);

describe('statistics: only empirical numbers without a source', () => {
  it('Pandoc and Manubot citation keys are sources; doi: and arxiv: keys are checked as ids', async () => {
    const findings = await check(
      [
        'Deep networks reached 95% accuracy on the benchmark [@doi:10.1038/nature14539].',
        '',
        'Residual nets cut the error by 28% [@arxiv:1512.03385; @he2016].',
        '',
        'A later model reached 97% accuracy on the same task.',
        '',
      ].join('\n'),
    );
    expect(rules(findings)).toEqual(['1:doi/unverified:10.1038/nature14539', '3:arxiv/unverified:1512.03385', '5:statistic/unsourced:97%']);
  });

  it('attribute lists hold no statistics', async () => {
    const findings = await check('![chart](chart.png){width="100%" height=50%}\n\nThe change cut support tickets by 40%.\n');
    expect(rules(findings)).toEqual(['3:statistic/unsourced:40%']);
  });

  it('a range is an estimate, not a measured statistic; a single factor is', async () => {
    const findings = await check(
      'Caching makes builds 10-100x faster.\n\nIt needs 180-13,900× fewer operations.\n\nThe new parser is 13,900× faster than the old one.\n',
    );
    expect(rules(findings)).toEqual(['5:statistic/unsourced:13,900× faster']);
  });

  it('quoted examples and the steps of a planned change are not claims made here; a plain claim is', async () => {
    const findings = await check(
      [
        'Success metrics: "80% customer self-service", and \u201c50% fewer calls\u201d.',
        '',
        'Gradual rollout: 5% → 25% → 100%, and the p95 tolerance goes 15% -> 10%.',
        '',
        '> "ReAct achieves 5.7% to 26% improvement over reasoning-only baselines." (Table 1)',
        '',
        'Research teams report that 60% of journalists read email on mobile.',
        '',
      ].join('\n'),
    );
    expect(rules(findings)).toEqual(['7:statistic/unsourced:60%']);
  });

  it('idioms, SLAs, weights and legal restatements are not statistics', async () => {
    const findings = await check(
      [
        'We are 100% decided on this design.',
        '',
        'Uptime is 99.9% per calendar month.',
        '',
        'Jitter defaults to 20% of the delay.',
        '',
        'Each reviewer scores security (30%) and clarity.',
        '',
        'The buyer pays fifty percent (50%) of the price on signing.',
        '',
        'Adoption grew by 35% in the last year.',
        '',
      ].join('\n'),
    );
    expect(rules(findings)).toEqual(['11:statistic/unsourced:35%']);
  });

  it("the values a test or a sweep takes, in parentheses, and a setting's value are not statistics; a result among words is", async () => {
    const findings = await check(
      [
        '- Boundary values (0%, 50%, 100%)',
        '- Overlap ratio impact (0%, 25%, 50%, 75%, 100%)',
        '- Sampling rates (5% or 10%) and thresholds (1.5%; 2.5%); unit to integration (74% : 26%)',
        '- `shared_buffers`: 25% of RAM',
        '',
        'The three models scored 76%, 81% and 88% on the held-out set.',
        '',
      ].join('\n'),
    );
    expect(rules(findings)).toEqual(['6:statistic/unsourced:76%']);
  });

  it('charts, open tasks, conditions, splits and zoom levels are not statistics; a result after a condition is', async () => {
    const findings = await check(
      [
        'Week 1: 82.1% ──────────────────',
        '',
        'Highly Active ████████████████ 25%',
        '',
        '- [ ] Scalability tested (can handle expected load + 20% buffer)',
        '- [x] Cut the build time by 30%',
        '',
        'Existing assets are returned when a request similarity exceeds 80%.',
        '',
        'Equal blend: 50%/50% of each voice.',
        '',
        'Content works at 200% zoom.',
        '',
        'When the cache is warm, builds finish 40% sooner.',
        '',
      ].join('\n'),
    );
    expect(rules(findings)).toEqual(['6:statistic/unsourced:30%', '14:statistic/unsourced:40%']);
  });

  it('the progress of a piece of work is not a statistic; a completion rate measured is', async () => {
    const findings = await check(
      [
        '**Progress**: 60%',
        '',
        '- Completion: 75% (phase 2 left)',
        '',
        'The migration is 80% complete and the docs are 50% done.',
        '',
        'Agents completed 64% of the tasks, a completion rate of 64%.',
        '',
      ].join('\n'),
    );
    expect(rules(findings)).toEqual(['7:statistic/unsourced:64%']);
  });
});

describe('mentions: a file mention names a path that could exist', () => {
  it('social-media handles and domains are not file mentions; paths and file types are', () => {
    const text = 'Follow @acme.ai and @jane.dev; see @notes.md and @docs/gone.txt and @build.sh.';
    expect(findMentions(text).map((mention) => mention.path)).toEqual(['notes.md', 'docs/gone.txt', 'build.sh']);
    expect(findMentions('See @.aiwg/register/{regression-id}.yaml and @docs/<name>.md, not @docs/real.md.').map((m) => m.path)).toEqual([
      'docs/real.md',
    ]);
  });

  it('a scope and a package name with a dot are an npm package, not a file; deeper paths and file types still are files', () => {
    const text = '# @nodelib/fs.stat\n\nInstall @types/lodash.debounce; read @docs/plan.md, @src/lib/fs.stat and @.aiwg/planning.';
    expect(findMentions(text).map((mention) => mention.path)).toEqual(['docs/plan.md', 'src/lib/fs.stat', '.aiwg/planning']);
    // Two segments with a file type of their own are files: a Prisma schema, a Terraform module, go.mod.
    expect(findMentions('See @prisma/schema.prisma, @infra/main.tf and @go.mod.').map((mention) => mention.path)).toEqual([
      'prisma/schema.prisma',
      'infra/main.tf',
      'go.mod',
    ]);
  });

  it('a missing file mention is still reported next to a handle', async () => {
    const findings = await check('Ping @acme.ai about @docs/gone.md.\n');
    expect(rules(findings)).toEqual(['1:mention/missing:@docs/gone.md']);
  });

  it("a mention is also read from its document's folder, as Claude Code reads an @ import; one there nowhere is missing", async () => {
    // `/repo/docs/here.md` exists: a nested CLAUDE.md in `docs/` names it `@here.md`.
    const all = await checkAll('Read @here.md and @gone.md, then @docs/here.md.\n', 'docs/CLAUDE.md');
    expect(all.map((finding) => `${finding.rule}:${finding.text}:${finding.path ?? ''}`)).toEqual([
      'mention/found:@here.md:docs/here.md',
      'mention/missing:@gone.md:gone.md',
      'mention/found:@docs/here.md:docs/here.md',
    ]);
    expect(all[0]?.message).toContain("document's folder");
    // `.aiwg/` paths stay the root's, and a document at the root has no other folder.
    expect(rules(await check('See @here.md.\n'))).toEqual(['1:mention/missing:@here.md']);
    expect(rules(await check('See @.aiwg/here.md.\n', {}, 'docs/x.md'))).toEqual(['1:mention/missing:@.aiwg/here.md']);
  });

  it('a missing example path (`@path/to/file.md`, `@file.md`, `@your-notes.md`, `@docs/.../notes.md`) shows a form; a missing real-looking path is reported', async () => {
    const findings = await check(
      'Import files using @path/to/file.md syntax, or the @file.md syntax, or @docs/your-notes.md or @docs/.../notes.md; @docs/file.md and @notes.md are gone.\n',
    );
    expect(rules(findings)).toEqual(['1:mention/missing:@docs/file.md', '1:mention/missing:@notes.md']);
    // An example-shaped path that exists is a mention like any other.
    const found = await checkAll('See @path/to/here.md.\n', 'doc.md');
    expect(found.map((finding) => finding.rule)).toEqual(['mention/found']);
  });

  it("a mention opening with ./ or ../ is read from its document's folder only, as Claude Code reads it", async () => {
    // `/repo/docs/here.md` exists.
    const all = await checkAll('Read @./here.md, @../docs/here.md, @./gone.md and @../../up.md.\n', 'docs/CLAUDE.md');
    expect(all.map((finding) => `${finding.rule}:${finding.text}:${finding.path ?? ''}`)).toEqual([
      'mention/found:@./here.md:docs/here.md',
      'mention/found:@../docs/here.md:docs/here.md',
      'mention/missing:@./gone.md:docs/gone.md',
      'mention/missing:@../../up.md:',
    ]);
    // From the root, `./` is the root and `../` leaves it.
    expect(rules(await check('See @./docs/here.md and @../x.md.\n'))).toEqual(['1:mention/missing:@../x.md']);
  });

  it("a template's mention into a folder the repository lacks names the project to come; a missing file in a folder it has is checked", async () => {
    // `/repo/docs/` exists; `/repo/src/auth/`, `/repo/docs/auth/` and `/repo/kit/schemas/` do not.
    const text = 'Implemented in @src/auth/login.ts and @docs/auth/flow.md; see @docs/gone.md and @kit/schemas/a.yaml.\n';
    expect(rules(await check(text, {}, 'kit/templates/use-case.md'))).toEqual([
      '1:mention/missing:@docs/gone.md',
      '1:mention/missing:@kit/schemas/a.yaml',
    ]);
    expect(rules(await check(text, {}, 'kit/use-case.md'))).toEqual([
      '1:mention/missing:@src/auth/login.ts',
      '1:mention/missing:@docs/auth/flow.md',
      '1:mention/missing:@docs/gone.md',
      '1:mention/missing:@kit/schemas/a.yaml',
    ]);
  });

  it('says why a missing mention is an error inside a research path', async () => {
    const [finding] = await check('See @docs/references/REF-099-gone.md.\n');
    expect(finding?.severity).toBe('error');
    expect(finding?.message).toContain('research');
  });
});

describe('REF ids', () => {
  it('the bounds of a range are not citations; a lone fabricated id still is', async () => {
    const findings = await check('The corpus runs REF-001 through REF-050, and REF-001 to REF-010 are core.\n\nWe rely on REF-777.\n');
    expect(rules(findings)).toEqual(['3:ref/not-in-corpus:REF-777']);
  });
});

describe('REF ids the document numbers itself', () => {
  it("a number aiwg never issues that opens a heading is the document's own rule number; one no heading opens is reported", async () => {
    const findings = await check(
      [
        'Rules PATH-04, SEQ-01, REF-01 and REF-02 apply; REF-04 too.',
        '',
        '### REF-01 — Variable references must resolve',
        '',
        '## **REF-02**: File references',
        '',
        '## REF-777 — a number aiwg issues stays a citation, heading or not',
        '',
      ].join('\n'),
    );
    expect(rules(findings)).toEqual(['1:ref/malformed:REF-04', '7:ref/not-in-corpus:REF-777']);
  });
});

describe('author-year', () => {
  it('a REF id on the same line names the source; the same citation alone is checked', async () => {
    const findings = await check('- Wei et al. (2022), REF-018: chain of thought.\n\nWei et al. (2022) showed the effect.\n');
    expect(rules(findings)).toEqual(['3:author-year/author-not-in-corpus:Wei et al. (2022)']);
  });

  it('a REF id on the same line holds the citation to the source it names: a wrong year there is reported', async () => {
    const findings = await check(
      '- REF-018: Yao et al. (2023), the paper.\n- REF-018: Yao et al. (2022), the same paper, a year off.\n- REF-018 and Zhang et al. (2024) on one line.\n',
    );
    expect(rules(findings)).toEqual(['2:author-year/year-mismatch:Yao et al. (2022)']);
  });

  it('a year before 1900 that the corpus records is a classic work, not an implausible year; one it does not record is', async () => {
    const darwin = new CorpusIndex({
      roots: [{ path: 'docs/references', exists: true }],
      files: [
        { path: 'docs/references/REF-018-react.md', text: REACT },
        {
          path: 'docs/references/REF-002-origin.md',
          text: '# REF-002: Origin\n\n**Citation**: Darwin, C. (1859). On the Origin of Species. Murray.\n',
        },
      ],
    });
    const findings = await checkAll('Darwin (1859) and Darwin (1858) and Yao et al. (2923).\n', 'doc.md', { corpus: darwin });
    expect(rules(findings)).toEqual([
      '1:author-year/found:Darwin (1859)',
      '1:author-year/implausible-year:Darwin (1858)',
      '1:author-year/implausible-year:Yao et al. (2923)',
    ]);
  });

  it('plans, acronyms and template placeholders are not authors; a real surname is', () => {
    const text = 'Planned (2025). Target (2026). SCCs (2021) and LLMs (2023). (Smith & Doe, 2023). (Author, 2024). Brown et al. (2020).';
    expect(findAuthorYears(text).map((citation) => citation.text)).toEqual(['Brown et al. (2020)']);
  });
});

describe('DOIs', () => {
  it('bioRxiv and medRxiv DOIs drop the URL version suffix; other DOIs keep their last characters', () => {
    const text = 'https://doi.org/10.1101/2023.09.11.556673v1 and doi:10.1101/556673v2 and 10.1000/abcv1';
    expect(findDois(text).map((doi) => doi.raw)).toEqual(['10.1101/2023.09.11.556673', '10.1101/556673', '10.1000/abcv1']);
  });
});

describe('profiles', () => {
  const PROSE = 'Adoption grew by 35% in the last year.\n';

  it('recommended leaves heuristic findings out of documents that are not research writing', async () => {
    expect(await check(PROSE, { profile: 'recommended' })).toEqual([]);
    expect(rules(await check(PROSE, { profile: 'research' }))).toEqual(['1:statistic/unsourced:35%']);
  });

  it('recommended keeps them in research writing: a references section, REF ids, a research path', async () => {
    expect(rules(await check(`${PROSE}\n## References\n\n1. A paper.\n`, { profile: 'recommended' }))).toEqual([
      '1:statistic/unsourced:35%',
    ]);
    expect(rules(await check(`${PROSE}\nSee REF-018.\n`, { profile: 'recommended' }))).toEqual(['1:statistic/unsourced:35%']);
    expect(rules(await check(PROSE, { profile: 'recommended' }, '.aiwg/research/notes.md'))).toEqual(['1:statistic/unsourced:35%']);
  });

  it('recommended keeps certain findings everywhere', async () => {
    expect(rules(await check('We rely on REF-777.\n', { profile: 'recommended' }))).toEqual(['1:ref/not-in-corpus:REF-777']);
  });

  it('names why a document is research writing', () => {
    expect(researchReason('a.md', '# Title\n\n## Bibliography\n', [])).toBe('references section');
    expect(researchReason('a.md', 'Per REF-018.', [])).toBe('cites REF ids');
    expect(researchReason('refs/a.md', 'text', ['refs'])).toBe('research path');
    expect(researchReason('a.md', 'Plain docs, REF-XXX template.', [])).toBeNull();
  });

  it("a template's numbers are examples, not findings; its citations are real ones", async () => {
    const research = '# Pitch\n\nEmail reaches 73% of journalists.\n\nAs Smith (2021) found.\n\n## References\n';
    for (const file of ['kit/templates/media-pitch.md', 'docs/adr-template.md', 'refs/TEMPLATE.md', 'x/template/a.md']) {
      expect(rules(await check(research, { profile: 'recommended' }, file))).toEqual(['5:author-year/author-not-in-corpus:Smith (2021)']);
    }
    expect(rules(await check(research, { profile: 'recommended' }, 'docs/template-guide.md'))).toEqual([
      '5:author-year/author-not-in-corpus:Smith (2021)',
      '3:statistic/unsourced:73%',
    ]);
    // --profile research shows them, as it shows every heuristic finding.
    expect(rules(await check(research, { profile: 'research' }, 'docs/adr-template.md'))).toHaveLength(2);
  });
});
