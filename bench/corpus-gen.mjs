// Deterministic generator of an RLM citation corpus for benchmarks: source files, and markdown
// documents that cite them (mostly fresh, some stale, un-versioned and missing), with prose,
// lists, links, tables and fenced code around the citations, like real agent reports.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** A small deterministic PRNG (mulberry32). */
export function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'the session token is validated before the handler reads the request body and the cache keeps the last result for a short time while the worker drains its queue'.split(
    ' ',
  );

function sentence(rand, words = 14) {
  const out = [];
  for (let i = 0; i < words; i += 1) out.push(WORDS[Math.floor(rand() * WORDS.length)]);
  const text = out.join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

function write(path, contents) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, contents);
}

/**
 * Writes the corpus under `dir` and returns `{ sources, documents, citations, bytes, sourceFiles }`,
 * where `sourceFiles` lists each source's `path`, `hash`, `lines` and `freshCitations`.
 * Options: documents, citationsPerDocument, sources, sourceBytes, documentBytes, git (init a repo),
 * hotCiters: when set, one more source (`src/hot/shared.ts`, returned as `hot`) is cited fresh by
 * exactly that many documents, spread evenly (it replaces their first citation, so the citation
 * count and the random stream stay the same).
 */
export function generateRlmCorpus(dir, options = {}) {
  const {
    documents = 2000,
    citationsPerDocument = 25,
    sources = 5000,
    sourceBytes = 8000,
    documentBytes = 8000,
    git = true,
    hotCiters = 0,
  } = options;
  const rand = random(42);
  const sourceInfo = [];
  let bytes = 0;
  for (let i = 0; i < sources; i += 1) {
    const path = `src/module${Math.floor(i / 100)}/file${i}.ts`;
    const lines = [];
    let size = 0;
    for (let line = 0; size < sourceBytes; line += 1) {
      const text = `export const value${line} = compute(${line}, '${WORDS[line % WORDS.length]}'); // ${sentence(rand, 6)}`;
      lines.push(text);
      size += text.length + 1;
    }
    const contents = `${lines.join('\n')}\n`;
    write(join(dir, path), contents);
    bytes += Buffer.byteLength(contents);
    sourceInfo.push({
      path,
      hash: createHash('sha256').update(contents).digest('hex').slice(0, 16),
      lines: lines.length,
      freshCitations: 0,
    });
  }
  let hot;
  if (hotCiters > 0) {
    const lines = Array.from({ length: 40 }, (_, line) => `export const shared${line} = ${line};`);
    const contents = `${lines.join('\n')}\n`;
    hot = {
      path: 'src/hot/shared.ts',
      hash: createHash('sha256').update(contents).digest('hex').slice(0, 16),
      lines: 40,
      freshCitations: 0,
    };
    write(join(dir, hot.path), contents);
    bytes += Buffer.byteLength(contents);
  }
  const hotEvery = hotCiters > 0 ? Math.floor(documents / hotCiters) : 0;
  let citations = 0;
  for (let d = 0; d < documents; d += 1) {
    const parts = [`# Report ${d}`, '', sentence(rand, 20), ''];
    let size = 0;
    for (let c = 0; c < citationsPerDocument; c += 1) {
      const drawn = sourceInfo[Math.floor(rand() * sourceInfo.length)];
      const toHot = c === 0 && hotEvery > 0 && d % hotEvery === 0 && d / hotEvery < hotCiters;
      const source = toHot ? hot : drawn;
      const start = 1 + Math.floor(rand() * (source.lines - 10));
      const range = `L${start}-${start + Math.floor(rand() * 9)}`;
      const roll = rand();
      let citation;
      if (roll < 0.9 || toHot) {
        citation = `[${source.path}@${source.hash}, ${range}]`;
        source.freshCitations += 1;
      } else if (roll < 0.95) citation = `[${source.path}@${'0123456789abcdef'}, ${range}]`;
      else if (roll < 0.98) citation = `[${source.path}, ${range}]`;
      else citation = `[src/removed/gone${c}.ts, ${range}]`;
      citations += 1;
      const shape = c % 5;
      if (shape === 0) parts.push(`## Finding ${c}`, '', `${sentence(rand)} ${citation} ${sentence(rand)}`, '');
      else if (shape === 1)
        parts.push(`- ${sentence(rand, 8)} ${citation}`, `- see [the docs](https://example.com/docs/${c}) for more`, '');
      else if (shape === 2)
        parts.push('```ts', `const x = [1, 2, 3]; // [${source.path}, L1]`, '```', '', `${sentence(rand)} ${citation}`, '');
      else if (shape === 3) parts.push(`| file | note |`, `| --- | --- |`, `| ${citation} | ${sentence(rand, 5)} |`, '');
      else parts.push(`${sentence(rand)} ${sentence(rand)} \`inline [code]\` and ${citation}.`, '');
    }
    let text = parts.join('\n');
    size = Buffer.byteLength(text);
    while (size < documentBytes) {
      const filler = `\n${sentence(rand, 30)} ${sentence(rand, 30)}\n`;
      text += filler;
      size += filler.length;
    }
    write(join(dir, `docs/area${Math.floor(d / 100)}/report${d}.md`), `${text}\n`);
    bytes += size + 1;
  }
  if (git) {
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  }
  return { sources, documents, citations, bytes, sourceFiles: sourceInfo, hot };
}
