// Issue 8: the claim-pipeline commands as whole processes on a large document (about 1 MB of
// markdown with emoji, so every offset goes through the code-point table), beside
// `aiwg-cite --version` (process start-up, the floor) in the same run.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ms, scratch, table, timeCommand } from './lib.mjs';

const dir = scratch('interop');

// A deterministic document: headings, paragraphs with astral characters, lists, quotes, fences.
let seed = 8;
const next = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const words = ['claim', 'source', 'verified', 'offset', 'chunk', 'paper', 'DOI', 'arXiv', 'rocket 🚀', 'party 🎉', '数学', 'math 𝒜'];
const sentence = () => `${Array.from({ length: 8 + Math.floor(next() * 12) }, () => words[Math.floor(next() * words.length)]).join(' ')}.`;
const blocks = [];
const claims = [];
let length = 0;
for (let at = 0; length < 1_000_000; at += 1) {
  let block;
  const kind = at % 10;
  if (kind === 0) block = `## Section ${at}`;
  else if (kind === 4) block = `- ${sentence()}\n- ${sentence()}`;
  else if (kind === 6) block = `> ${sentence()}`;
  else if (kind === 8) block = '```\ncode line\n\ncode after a blank\n```';
  else {
    block = `${sentence()} ${sentence()}`;
    claims.push(block.slice(0, block.indexOf('.') + 1));
  }
  blocks.push(block);
  length += block.length + 2;
}
const text = `${blocks.join('\n\n')}\n`;
writeFileSync(join(dir, 'doc.md'), text);

// Verdict bundles for the first 2,000 claims: spans located in the document, one chunk per claim.
const codePoints = (value) => Array.from(value).length;
const bundles = [];
let from = 0;
for (const [index, claimText] of claims.slice(0, 2000).entries()) {
  const at = text.indexOf(claimText, from);
  from = at + claimText.length;
  const start = codePoints(text.slice(0, at));
  const span = { start: 0, end: codePoints(claimText) };
  const claim = { text: claimText, sentence_span: span, claim_type: 'factual', suggested_verifier: null };
  const chunk = {
    index,
    text: claimText,
    segments: [{ chunk_start: 0, chunk_end: span.end, document_start: start, document_end: start + span.end }],
  };
  const candidate = (verifier_name, authority, label) => ({
    claim,
    verifier_name,
    authority,
    label,
    rationale: 'r',
    evidence: [{ url: `https://example.test/${index}` }],
  });
  bundles.push({
    chunk,
    claim,
    candidates: [candidate('a', 0.9, index % 3 === 0 ? 'contradicted' : 'verified'), candidate('b', 0.5, 'unknown')],
  });
}
writeFileSync(join(dir, 'verdicts.json'), JSON.stringify({ verdicts: bundles }));
const { execFileSync } = await import('node:child_process');
writeFileSync(join(dir, 'agg.json'), execFileSync(process.execPath, [CLI, 'aggregate', 'verdicts.json'], { cwd: dir, maxBuffer: 1 << 28 }));

const runs = 5;
const opts = { cwd: dir, runs, okCodes: [0] };
const floor = timeCommand(process.execPath, [CLI, '--version'], opts);
const chunk = timeCommand(process.execPath, [CLI, 'chunk', 'doc.md'], opts);
const chunkSmall = timeCommand(process.execPath, [CLI, 'chunk', 'doc.md', '--max-tokens', '200'], opts);
const aggregate = timeCommand(process.execPath, [CLI, 'aggregate', 'verdicts.json'], opts);
const annotate = timeCommand(process.execPath, [CLI, 'annotate', 'doc.md', '--verdicts', 'agg.json', '--no-findings'], opts);
const annotateAll = timeCommand(process.execPath, [CLI, 'annotate', 'doc.md', '--verdicts', 'agg.json', '--root', '.'], opts);

console.log(`## chunk, aggregate, annotate: a 1 MB document (issue 8)

Document: ${(text.length / 1e6).toFixed(2)} M UTF-16 units, ${blocks.length} blocks, astral characters throughout; ${bundles.length} verdict bundles with 2 candidates each (bench/interop.bench.mjs, fixed seed).

${table(
  ['command', 'median', 'p95', 'runs'],
  [
    ['floor: `aiwg-cite --version` (process start-up)', ms(floor.median), ms(floor.p95), floor.runs],
    ['`aiwg-cite chunk doc.md` (3,000 tokens)', ms(chunk.median), ms(chunk.p95), chunk.runs],
    ['`aiwg-cite chunk doc.md --max-tokens 200`', ms(chunkSmall.median), ms(chunkSmall.p95), chunkSmall.runs],
    ['`aiwg-cite aggregate verdicts.json` (2,000 bundles)', ms(aggregate.median), ms(aggregate.p95), aggregate.runs],
    ['`aiwg-cite annotate doc.md --verdicts agg.json --no-findings`', ms(annotate.median), ms(annotate.p95), annotate.runs],
    [
      '`aiwg-cite annotate doc.md --verdicts agg.json` (with the offline checks of check)',
      ms(annotateAll.median),
      ms(annotateAll.p95),
      annotateAll.runs,
    ],
  ],
)}

Above the start-up floor: chunk ${ms(chunk.median - floor.median)}, aggregate ${ms(aggregate.median - floor.median)}, annotate ${ms(annotate.median - floor.median)}.`);
