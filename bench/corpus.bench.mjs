// Issue 3: `aiwg-cite check` over a research corpus of 1,000 sources and 2,000 documents holding
// 40,000 REF / DOI / author-year citations (plus @-mentions, arXiv ids, quotes, statistics and
// GRADE-checked claims around them), as a whole process, beside `cat` of the same bytes (the
// floor) and a remark-parse pass over the same markdown (what a tree-building checker pays).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { random } from './corpus-gen.mjs';
import { CLI, ms, ROOT, scratch, table, timeCommand } from './lib.mjs';

const SOURCES = 1000;
const DOCUMENTS = 2000;
const CITATIONS_PER_DOCUMENT = 20;
const SURNAMES = 'Yao Wei Wang Lewis Madaan Shinn Schick Hong Qian Zhou Bai Dong Miller Sweller Jacobs Graves Cooper Gotel Tao Roig'.split(
  ' ',
);
const WORDS = 'agents reason about the task and act on tools while the planner keeps a short memory of what the critic said last'.split(
  ' ',
);
const LEVELS = ['HIGH', 'MODERATE', 'LOW', 'VERY LOW'];

const dir = scratch('research-corpus');
const rand = random(7);
const pick = (list) => list[Math.floor(rand() * list.length)];
const sentence = (words = 12) => {
  const text = Array.from({ length: words }, () => pick(WORDS)).join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
};
const write = (path, contents) => {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), contents);
};

const sources = [];
let bytes = 0;
for (let n = 1; n <= SOURCES; n += 1) {
  const id = `REF-${String(n).padStart(3, '0')}`;
  const authors = [pick(SURNAMES), pick(SURNAMES), pick(SURNAMES)];
  const year = 1990 + Math.floor(rand() * 35);
  const doi = `10.5555/bench.${n}`;
  const arxiv = `${String(15 + (n % 10)).padStart(2, '0')}0${1 + (n % 9)}.${String(10000 + n).slice(-5)}`;
  const body = [
    `# ${id}: A Study of Agents Number ${n}`,
    '',
    '## Citation',
    '',
    `${authors.map((name, i) => `${name}, ${String.fromCharCode(65 + i)}.`).join(', ')} (${year}). A Study of Agents Number ${n}. *Bench*.`,
    '',
    `**DOI**: ${doi}`,
    `**arXiv**: ${arxiv}`,
    `**Pages**: ${10 + (n % 30)}`,
    n % 3 === 0 ? `GRADE: ${LEVELS[n % 4]}` : '',
    '',
    ...Array.from({ length: 12 }, () => sentence(16)),
    '',
  ].join('\n');
  sources.push({ id, authors, year, doi, arxiv });
  bytes += body.length;
  write(`docs/references/${id}-agents-${n}.md`, body);
}

let citations = 0;
for (let d = 0; d < DOCUMENTS; d += 1) {
  const lines = [`# Report ${d}`, ''];
  for (let c = 0; c < CITATIONS_PER_DOCUMENT; c += 1) {
    const source = pick(sources);
    const fake = rand() < 0.03;
    const kind = c % 4;
    let cite;
    if (kind === 0 || kind === 3) cite = fake ? `REF-${1500 + Math.floor(rand() * 400)}` : source.id;
    else if (kind === 1) cite = `doi:${fake ? `10.5555/missing.${d}.${c}` : source.doi}`;
    else cite = `${source.authors[0]} et al. (${fake ? source.year + 1 : source.year})`;
    const claim = c % 5 === 0 ? 'Research shows' : c % 5 === 1 ? 'Limited evidence suggests' : 'The team notes';
    lines.push(`${claim} ${sentence(10).toLowerCase()} (${cite}) ${sentence(8)}`);
    if (c % 6 === 5) lines.push('', '```ts', `const ref = 'REF-${c}00'; // code, never read`, '```', '');
    if (c % 7 === 6)
      lines.push('', `See @docs/references/${source.id}-agents-${sources.indexOf(source) + 1}.md and arXiv:${source.arxiv}.`, '');
    citations += 1;
  }
  lines.push('', 'About 40% of runs improved.', '');
  const text = lines.join('\n');
  bytes += text.length;
  write(`docs/reports/report-${String(d).padStart(4, '0')}.md`, text);
}
execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });

const markdownGlob = ['docs/references', 'docs/reports'];
const remarkScript = `
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
const processor = unified().use(remarkParse);
let nodes = 0;
for (const folder of process.argv.slice(1)) {
  for (const name of readdirSync(folder)) nodes += processor.parse(readFileSync(join(folder, name), 'utf8')).children.length;
}
if (nodes === 0) process.exit(3);
`;

const runs = 5;
const env = { AIWG_CITE_DATE: '2026-11-22' };
const check = timeCommand(process.execPath, [CLI, 'check', '--root', dir, '--format', 'json'], { cwd: dir, env, runs });
const pretty = timeCommand(process.execPath, [CLI, 'check', '--root', dir], { cwd: dir, env, runs });
const rlmOnly = timeCommand(process.execPath, [CLI, 'check', '--root', dir, '--rlm'], { cwd: dir, env, runs });
const cat = timeCommand('sh', ['-c', 'cat docs/references/* docs/reports/* > /dev/null'], { cwd: dir, runs, okCodes: [0] });
const remark = timeCommand(
  process.execPath,
  ['--input-type=module', '-e', remarkScript, ...markdownGlob.map((folder) => join(dir, folder))],
  {
    cwd: ROOT,
    runs: 3,
    okCodes: [0],
  },
);

console.log(`## check: research corpus, 1,000 sources, 2,000 documents, 40,000 REF/DOI/author-year citations (issue 3)

Corpus: ${SOURCES} sources in docs/references (APA citation, DOI, arXiv, pages, a third with a GRADE line), ${DOCUMENTS} documents with ${citations} REF / DOI / author-year citations (about 3% fabricated), plus @-mentions, arXiv ids, statistics and GRADE-checked claims; ${(bytes / 1e6).toFixed(1)} MB of markdown (bench/corpus.bench.mjs, seed 7). Target: the whole check under 1.5 s.

${table(
  ['command', 'median', 'p95', 'runs'],
  [
    ['`aiwg-cite check --format json`', ms(check.median), ms(check.p95), check.runs],
    ['`aiwg-cite check` (pretty)', ms(pretty.median), ms(pretty.p95), pretty.runs],
    ['`aiwg-cite check --rlm` (corpus not loaded)', ms(rlmOnly.median), ms(rlmOnly.p95), rlmOnly.runs],
    ['baseline: remark-parse of the same markdown (one process)', ms(remark.median), ms(remark.p95), remark.runs],
    ['floor: `cat` of the same files', ms(cat.median), ms(cat.p95), cat.runs],
  ],
)}

The corpus check is ${(remark.median / check.median).toFixed(1)}× faster than a bare remark parse of the same files; target ${check.median < 1500 ? 'met' : 'NOT met'}.`);
