import { describe, expect, it } from 'vitest';
import { ArtifactCache } from '../artifacts.ts';
import { checkDocument, rlmChecker } from '../check.ts';
import { createMemoryFileSystem } from '../memory-fs.ts';
import { createConfinedReader } from '../reader.ts';

async function fixes(file: string, text: string): Promise<string[]> {
  const fs = createMemoryFileSystem({ '/repo/packages/foo/src/index.ts': 'export {};\n', '/repo/src/a.ts': 'a\n' });
  const artifacts = new ArtifactCache(createConfinedReader(fs, '/repo'));
  const { findings } = await checkDocument(file, text, artifacts, {}, [rlmChecker]);
  return findings.map((finding) => `${finding.rule} ${finding.fix}`);
}

describe("a citation path read from its document's folder", () => {
  it('keeps its verdict, and its fix names the root-relative path of the file it names there', async () => {
    expect(await fixes('packages/foo/README.md', 'Entry: [src/index.ts, L1] and [src/gone.ts, L1].\n')).toEqual([
      "rlm/missing cite `packages/foo/src/index.ts`: this path names it from the document's folder, but citation paths start at the project root",
      expect.stringMatching(/^rlm\/missing cite a file that exists, or restore `src\/gone.ts`/),
    ]);
  });

  it('a `..` that leaves the root from the root leads to a file from the folder', async () => {
    expect(await fixes('docs/guide.md', 'See [../src/a.ts, L1] and [../../a.ts, L1] and [/src/a.ts, L1].\n')).toEqual([
      "rlm/outside-root cite `src/a.ts`: this path names it from the document's folder, but citation paths start at the project root",
      'rlm/outside-root cite the file by its path inside the project root',
      'rlm/outside-root cite the file by its path inside the project root',
    ]);
  });

  it('a bare [path] that names a file from its folder is a relative reference, not a citation; one named nowhere is missing', async () => {
    expect(await fixes('packages/foo/README.md', 'Start in [src/index.ts], not [src/gone.ts].\n')).toEqual([
      expect.stringMatching(/^rlm\/missing cite a file that exists, or restore `src\/gone.ts`/),
    ]);
  });

  it('a document at the root has no other folder', async () => {
    expect(await fixes('README.md', 'Entry: [index.ts, L1].\n')).toEqual([
      expect.stringMatching(/^rlm\/missing cite a file that exists, or restore `index.ts`/),
    ]);
  });
});

describe('a path a manual writes as an example', () => {
  it('is a citation only when the file exists: `path/to/…`, `your-…` and a lone `file.ts` missing are illustrations', async () => {
    const text = 'Cite as [path/to/file.ts@0123456789abcdef, L1-5] or [docs/your-notes.md, L2] or [file.ts, L3] or [path/to/x.ts].\n';
    expect(await fixes('README.md', text)).toEqual([]);
  });

  it('a module named `file.ts` in a folder is a real path, and an absolute example path is still outside the root', async () => {
    expect(await fixes('README.md', 'See [src/utils/file.ts, L1] and [/path/to/file.ts, L1].\n')).toEqual([
      expect.stringMatching(/^rlm\/missing cite a file that exists, or restore `src\/utils\/file.ts`/),
      'rlm/outside-root cite the file by its path inside the project root',
    ]);
  });

  it('a segment of three dots elides folders: `[src/.../login.ts]` missing is no finding; `[src/a...b.ts]` is a file name', async () => {
    const text = 'Login is in [src/.../login.ts, L4-9], config in [.../config.json] and [src/...]. But [src/a...b.ts] is gone.\n';
    expect(await fixes('README.md', text)).toEqual([
      expect.stringMatching(/^rlm\/missing cite a file that exists, or restore `src\/a...b.ts`/),
    ]);
  });

  it('an example path that exists is checked like any citation', async () => {
    const fs = createMemoryFileSystem({ '/repo/path/to/file.ts': 'a\nb\n' });
    const artifacts = new ArtifactCache(createConfinedReader(fs, '/repo'));
    const { findings } = await checkDocument('README.md', 'See [path/to/file.ts, L9].\n', artifacts, {}, [rlmChecker]);
    expect(findings.map((finding) => finding.rule)).toEqual(['rlm/invalid-range']);
  });
});

describe('versions and ratios in brackets', () => {
  it('are citations only when such a file exists: `[v1.2/v1.3]`, `[node/v20.x]`, `[1/2.5]` missing are no finding', async () => {
    const text = 'Compare [v1.2/v1.3], [1.0.0/2.0.0] and [node/v20.x]; a ratio [1/2.5]. But [docs/1.md] and [man/tool.1] are files.\n';
    expect(await fixes('README.md', text)).toEqual([
      expect.stringMatching(/^rlm\/missing cite a file that exists, or restore `docs\/1.md`/),
      expect.stringMatching(/^rlm\/missing cite a file that exists, or restore `man\/tool.1`/),
    ]);
  });

  it('one that exists is checked like any citation', async () => {
    const fs = createMemoryFileSystem({ '/repo/releases/v1.3': 'notes\n' });
    const artifacts = new ArtifactCache(createConfinedReader(fs, '/repo'));
    const { findings } = await checkDocument('README.md', 'See [releases/v1.3].\n', artifacts, {}, [rlmChecker]);
    expect(findings.map((finding) => finding.rule)).toEqual(['rlm/unversioned']);
  });
});
