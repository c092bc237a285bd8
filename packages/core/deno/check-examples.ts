/**
 * Runs the core's check under Deno over a directory, with a Deno host and the core's Web Crypto
 * hash, and prints the JSON report. `scripts/deno-check.sh` compares it with the Node CLI's.
 * Usage: deno run --allow-read packages/core/deno/check-examples.ts DIR
 */
import { checkDocuments, createConfinedReader, type EntryKind, type FileSystem, withVerdicts } from '../src/index.ts';

const denoFileSystem: FileSystem = {
  async realpath(path) {
    try {
      return await Deno.realPath(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) return null;
      throw error;
    }
  },
  async stat(path): Promise<EntryKind | null> {
    try {
      const info = await Deno.stat(path);
      return info.isFile ? 'file' : info.isDirectory ? 'directory' : 'other';
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return null;
      throw error;
    }
  },
  readFile: (path) => Deno.readFile(path),
  async readdir(path) {
    const names: string[] = [];
    for await (const entry of Deno.readDir(path)) names.push(entry.name);
    return names;
  },
};

async function listMarkdown(root: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(prefix === '' ? root : `${root}/${prefix}`)) {
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory && entry.name !== 'node_modules' && entry.name !== '.git') out.push(...(await listMarkdown(root, path)));
    else if (entry.isFile && /\.(md|markdown)$/i.test(entry.name)) out.push(path);
  }
  return out;
}

const [directory] = Deno.args;
if (directory === undefined) {
  console.error('usage: check-examples.ts DIR');
  Deno.exit(2);
}
const root = await Deno.realPath(directory);
const documents = (await listMarkdown(root)).sort();
const report = await checkDocuments({ reader: createConfinedReader(denoFileSystem, root), documents });
// The same JSON document `aiwg-cite check --format json` prints: findings carry their verdict mapping.
console.log(JSON.stringify({ ...report, citations: withVerdicts(report.citations) }));
