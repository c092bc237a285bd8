import { createHash } from 'node:crypto';
import { tempDir, writeTree } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { bodyDigest, findGeneratedCopies } from './generated-copies.ts';

const BODY = '# Notes\n\nSee [src/a.ts, L1-2].\n';

function copiesAmong(tree: Record<string, string | Uint8Array>): string[] {
  const root = tempDir();
  writeTree(root, tree);
  return [...findGeneratedCopies(root, Object.keys(tree).sort()).skipped].sort();
}

describe('findGeneratedCopies: content identity', () => {
  it('checks a body once whatever YAML front matter each copy carries, at the first path outside hidden folders', () => {
    const skipped = copiesAmong({
      '.claude/agents/notes.md': `---\nname: claude\n---\n${BODY}`,
      'docs/notes.md': `---\ntitle: Notes\nweight: 3\n---\n${BODY}`,
      'docs/plain.md': BODY,
    });
    expect(skipped).toEqual(['.claude/agents/notes.md', 'docs/plain.md']);
  });

  it('reads CRLF front matter and a closing line with trailing blanks like LF', () => {
    expect(copiesAmong({ 'a.md': `---\r\nx: 1\r\n---  \r\n${BODY}`, 'b.md': `---\nx: 2\n---\t\n${BODY}` })).toEqual(['b.md']);
  });

  it('takes a front matter that closes at the end of the file as the whole file', () => {
    expect(copiesAmong({ 'a.md': '---\nx: 1\n---', 'b.md': '---\ny: 2\n---' })).toEqual(['b.md']);
  });

  it('keeps documents whose front matter does not close, or is not one, as whole bodies', () => {
    const skipped = copiesAmong({
      'open-a.md': `---\nx: 1\n${BODY}`,
      'open-b.md': `---\nx: 2\n${BODY}`,
      // `---` followed by more than blanks does not close the block; nor does an empty block
      // (the closing line must follow a line of the block).
      'rule-a.md': `---\nx: 1\n----\n${BODY}`,
      'rule-b.md': `---\nx: 2\n----\n${BODY}`,
      'empty-a.md': `---\n---\n${BODY}`,
      'thematic.md': `--- \nx: 1\n---\n${BODY}`,
      'plain.md': BODY,
    });
    expect(skipped).toEqual([]);
  });

  it('compares bodies byte by byte, invalid UTF-8 included', () => {
    const body = (byte: number) => Uint8Array.from([...Buffer.from('---\nx: 1\n---\n# T '), byte, 0x0a]);
    expect(copiesAmong({ 'a.md': body(0xff), 'b.md': body(0xfe) })).toEqual([]);
    expect(copiesAmong({ 'a.md': body(0xff), 'b.md': body(0xff) })).toEqual(['b.md']);
  });
});

describe('findGeneratedCopies: bodies known without reading', () => {
  it('takes the digest a watch knows for a document instead of its bytes, and reads the others', () => {
    const root = tempDir();
    writeTree(root, { 'a.md': BODY, 'b.md': `${BODY}more\n`, 'c.md': `${BODY}more\n` });
    const documents = ['a.md', 'b.md', 'c.md'];
    expect([...findGeneratedCopies(root, documents).skipped]).toEqual(['c.md']);
    // What the watch read of b.md last was a.md's body: a.md's copy, then; c.md is read, and alone.
    const known = (document: string) => (document === 'b.md' ? bodyDigest(new TextEncoder().encode(BODY)) : undefined);
    expect([...findGeneratedCopies(root, documents, null, known).skipped]).toEqual(['b.md']);
  });
});

describe('bodyDigest', () => {
  const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

  it('takes the digest of a file without front matter from `whole`, and hashes only the body after one', () => {
    const asked: Uint8Array[] = [];
    const whole = (bytes: Uint8Array) => {
      asked.push(bytes);
      return sha256(bytes);
    };
    const plain = Buffer.from(BODY);
    expect(bodyDigest(plain, whole)).toBe(bodyDigest(plain));
    expect(bodyDigest(plain)).toBe(sha256(plain));
    expect(asked).toEqual([plain]);
    const fronted = Buffer.from(`---\nx: 1\n---\n${BODY}`);
    expect(bodyDigest(fronted, whole)).toBe(sha256(plain));
    expect(asked).toHaveLength(1);
  });
});

describe('findGeneratedCopies: deploy manifests', () => {
  it('sets aside a document of an agent folder that a manifest beside it names, and only that one', () => {
    const root = tempDir();
    writeTree(root, {
      '.claude/commands/deploy-manifest.json': JSON.stringify({ files: ['check.md'] }),
      '.claude/commands/check.md': 'Deployed.\n',
      '.claude/commands/local.md': 'Written here.\n',
      'docs/check.md': 'Written here too.\n',
    });
    const found = findGeneratedCopies(root, ['.claude/commands/check.md', '.claude/commands/local.md', 'docs/check.md']);
    expect([...found.skipped]).toEqual(['.claude/commands/check.md']);
    expect(found.deployed).toBe(1);
    expect(found.identical).toBe(0);
  });
});
