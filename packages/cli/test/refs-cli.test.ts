import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { CLI_ENTRY, GIT_ENV, gitRepo, tempDir, writeTree } from '@aiwg-cite/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Two real works, answered the way each service's API does (own fixtures, not HALLMARK data).
const WORKS = [
  {
    title: 'Graph Attention Networks for Sparse Reward Exploration',
    authors: [
      ['Maria', 'Keller'],
      ['Tomás', 'Ibarra'],
      ['Wei', 'Zhang'],
    ],
    year: 2021,
    venue: 'Advances in Neural Information Processing Systems',
    dblpVenue: 'NeurIPS',
  },
  {
    title: 'Robust Tokenizers for Low-Resource Morphology',
    authors: [
      ['Ana', 'Silva'],
      ['Kenji', 'Sato'],
    ],
    year: 2022,
    venue: 'Annual Meeting of the Association for Computational Linguistics',
    dblpVenue: 'ACL',
  },
];

const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

function matching(query: string) {
  const asked = new Set(words(query));
  return WORKS.filter((work) => words(work.title).filter((word) => asked.has(word)).length >= Math.ceil(words(work.title).length * 0.8));
}

let server: Server;
let base = '';
const requests: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    requests.push(url.pathname);
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === '/openalex/works') {
      const filter = url.searchParams.get('filter') ?? '';
      const found = matching(filter.replace(/^title\.search:/, ''));
      return json(200, {
        results: found.map((work, index) => ({
          id: `https://openalex.org/W${index + 1}`,
          display_name: work.title,
          publication_year: work.year,
          type: 'article',
          authorships: work.authors.map(([given, family]) => ({ author: { display_name: `${given} ${family}` } })),
          primary_location: { source: { display_name: work.venue } },
        })),
      });
    }
    if (url.pathname === '/dblp/search/publ/api') {
      const found = matching(url.searchParams.get('q') ?? '');
      return json(200, {
        result: {
          hits: {
            hit: found.map((work, index) => ({
              info: {
                title: `${work.title}.`,
                authors: { author: work.authors.map(([given, family]) => ({ text: `${given} ${family}` })) },
                venue: work.dblpVenue,
                year: String(work.year),
                type: 'Conference and Workshop Papers',
                key: `conf/x/${index}`,
              },
            })),
          },
        },
      });
    }
    if (url.pathname === '/s2/graph/v1/paper/search/match') {
      const [work] = matching(url.searchParams.get('query') ?? '');
      if (work === undefined) return json(404, { error: 'Title match not found' });
      return json(200, {
        data: [
          {
            paperId: 'p1',
            title: work.title,
            year: work.year,
            venue: work.venue,
            authors: work.authors.map(([g, f]) => ({ name: `${g} ${f}` })),
          },
        ],
      });
    }
    if (url.pathname === '/crossref/works') return json(200, { message: { items: [] } });
    return json(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function serviceEnv(root: string): Record<string, string> {
  return {
    AIWG_CITE_DOI_URL: `${root}/doi`,
    AIWG_CITE_CROSSREF_URL: `${root}/crossref`,
    AIWG_CITE_OPENALEX_URL: `${root}/openalex`,
    AIWG_CITE_ARXIV_URL: `${root}/arxiv`,
    AIWG_CITE_DBLP_URL: `${root}/dblp`,
    AIWG_CITE_S2_URL: `${root}/s2/graph/v1`,
    AIWG_CITE_DATE: '2026-06-01',
    AIWG_CITE_OPENALEX_INTERVAL_MS: '0',
  };
}

/** Runs the CLI without blocking the event loop (the fake services live in this process). */
function run(args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_ENTRY, ...args], {
      cwd,
      env: { ...process.env, ...GIT_ENV, NO_COLOR: '1', FORCE_COLOR: undefined, AIWG_CITE_CACHE: join(cwd, '.cache.jsonl'), ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const BIB = `% my references
@inproceedings{keller2021,
  title = {Graph Attention Networks for Sparse Reward Exploration},
  author = {Keller, Maria and Ibarra, Tom{\\'a}s and Zhang, Wei},
  booktitle = {NeurIPS},
  year = {2021},
}

@inproceedings{silva2022,
  title     = {Robust Tokenizers for Low-Resource Morphology},
  author    = {Silva, Ana and Sato, Kenji},
  booktitle = {ICML},
  year      = 2022
}

@article{ghost2023,
  title = {Quantum Origami Networks for Protein Folding at Scale},
  author = {Doe, John},
  journal = {Nature},
  year = {2023},
}
`;

describe('aiwg-cite refs', () => {
  it('judges each entry against the services and prints the JSON the issue asks for', async () => {
    const dir = tempDir();
    writeTree(dir, { 'refs.bib': BIB });
    const result = await run(['refs', 'refs.bib', '--online', '--format', 'json'], dir, serviceEnv(base));
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      entries: {
        key: string;
        file: string;
        line: number;
        verdict: string;
        reasons: { rule: string }[];
        matched: { service: string } | null;
      }[];
    };
    expect(report.entries.map((entry) => [entry.key, entry.file, entry.line, entry.verdict])).toEqual([
      ['keller2021', 'refs.bib', 2, 'valid'],
      ['silva2022', 'refs.bib', 9, 'hallucinated'],
      ['ghost2023', 'refs.bib', 16, 'hallucinated'],
    ]);
    expect(report.entries[1]?.reasons.map((reason) => reason.rule)).toEqual(['refs/venue']);
    expect(report.entries[2]?.reasons.map((reason) => reason.rule)).toEqual(['refs/placeholder-authors', 'refs/not-found']);
    expect(report.entries[0]?.matched?.service).toMatch(/openalex|dblp/);
  });

  it('says once that no service answered, leaves every entry uncertain and exits 0 unless --strict', async () => {
    const dir = tempDir();
    writeTree(dir, { 'refs.bib': BIB.replace(/author = \{Doe, John\}/, 'author = {Lee, Ann}') });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const env = serviceEnv(`http://127.0.0.1:${deadPort}`);
    const result = await run(['refs', 'refs.bib', '--online', '--format', 'json'], dir, env);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).entries.map((entry: { verdict: string }) => entry.verdict)).toEqual([
      'uncertain',
      'uncertain',
      'uncertain',
    ]);
    expect(result.stderr.trim().split('\n')).toEqual(['aiwg-cite: refs: no scholarly service answered; 3 of 3 entries are uncertain']);
    expect((await run(['refs', 'refs.bib', '--online', '--strict'], dir, env)).code).toBe(1);
  });

  it('offline, lists what the offline checks flag and counts the entries nothing could be checked for', async () => {
    const dir = tempDir();
    writeTree(dir, { 'refs.bib': BIB });
    const quiet = await run(['refs', 'refs.bib'], dir, {});
    expect(quiet.code).toBe(1);
    expect(quiet.stdout).toContain('refs.bib:16 ghost2023: ✗ hallucinated');
    expect(quiet.stdout).not.toContain('keller2021');
    expect(quiet.stdout).toContain('2 uncertain entries not listed: offline, nothing could be checked for them (--verbose lists them).');
    const verbose = await run(['refs', 'refs.bib', '--verbose'], dir, {});
    expect(verbose.stdout).toContain(
      'refs.bib:2 keller2021: ? uncertain\n  warning not looked up: offline, only future years and placeholder authors are checked',
    );
    expect(verbose.stdout).not.toContain('not listed');
    // The JSON report keeps every entry; GitHub annotations keep to the listed ones.
    expect(JSON.parse((await run(['refs', 'refs.bib', '--format', 'json'], dir, {})).stdout).entries).toHaveLength(3);
    const github = (await run(['refs', 'refs.bib', '--format', 'github'], dir, {})).stdout;
    expect(github).toContain('ghost2023');
    expect(github).not.toContain('keller2021');
  });

  it('--fix rewrites the venue every service agrees on, and nothing else of the file', async () => {
    const dir = tempDir();
    writeTree(dir, { 'refs.bib': BIB });
    const result = await run(['refs', 'refs.bib', '--online', '--fix'], dir, serviceEnv(base));
    expect(result.code).toBe(1);
    const after = readFileSync(join(dir, 'refs.bib'), 'utf8');
    expect(after).toBe(BIB.replace('booktitle = {ICML}', 'booktitle = {Annual Meeting of the Association for Computational Linguistics}'));
    expect(result.stdout).toContain('corrected entry:');
    const again = await run(['refs', 'refs.bib', '--online', '--fix', '--format', 'json'], dir, serviceEnv(base));
    expect(JSON.parse(again.stdout).entries[1].verdict).toBe('valid');
    expect(readFileSync(join(dir, 'refs.bib'), 'utf8')).toBe(after);
  });

  it('verifies a markdown reference list, and check --online reports its flagged entries', async () => {
    const doc = [
      '# Notes',
      '',
      'Some text.',
      '',
      '## References',
      '',
      '1. Maria Keller, Tomás Ibarra, and Wei Zhang. “Graph Attention Networks for Sparse Reward Exploration.” In *NeurIPS*, 2021.',
      '2. Ana Silva and Kenji Sato. “Robust Tokenizers for Low-Resource Morphology.” In *ICML*, 2022.',
      '',
    ].join('\n');
    const repo = gitRepo({ 'notes.md': doc });
    const refs = await run(['refs', 'notes.md', '--online', '--format', 'json'], repo.dir, serviceEnv(base));
    expect(JSON.parse(refs.stdout).entries.map((entry: { line: number; verdict: string }) => [entry.line, entry.verdict])).toEqual([
      [7, 'valid'],
      [8, 'hallucinated'],
    ]);
    const check = await run(['check', '--online', '--format', 'json'], repo.dir, serviceEnv(base));
    expect(check.code).toBe(1);
    const findings = JSON.parse(check.stdout).citations.filter((finding: { kind: string }) => finding.kind === 'refs');
    expect(findings.map((finding: { line: number; rule: string; status: string }) => [finding.line, finding.rule, finding.status])).toEqual(
      [[8, 'refs/venue', 'hallucinated']],
    );
  });
});
