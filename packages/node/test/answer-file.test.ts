import { randomBytes } from 'node:crypto';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { AnswerFile } from '../src/index.ts';

const secret = randomBytes(32);

describe('AnswerFile', () => {
  it('gives back the head, output and sides of the last answer kept', () => {
    const directory = tempDir();
    const file = new AnswerFile(directory, 'json', secret);
    const parts = { outcomes: [[1, 'two']], note: 'é' };
    file.write({ documents: ['a.md'] }, ['{"a":', Buffer.from('1}\n')], { parts, view: { index: 'x' }, lines: ['d1', 'd2'] });
    const kept = file.read();
    expect(kept?.head).toEqual({ documents: ['a.md'] });
    expect(kept?.parts()).toEqual(parts);
    expect(kept?.view()).toEqual({ index: 'x' });
    expect(kept?.lines()).toEqual(['d1', 'd2']);
    const chunks: Buffer[] = [];
    kept?.outputBody()?.pipe((chunk) => {
      chunks.push(Buffer.from(chunk));
      return true;
    });
    expect(Buffer.concat(chunks).toString()).toBe('{"a":1}\n');
    // An output handed on by a function, piece by piece (a piece read over once taken).
    const reused = Buffer.from('xx');
    file.write({ documents: [] }, (append) => {
      for (const piece of ['ab', 'cd']) {
        reused.write(piece);
        append(reused);
      }
    });
    const written: string[] = [];
    file
      .read()
      ?.outputBody()
      ?.pipe((chunk) => {
        written.push(chunk.toString());
        return true;
      });
    expect(written.join('')).toBe('abcd');
    expect(file.read()?.parts()).toBeNull();
  });

  it('takes no parts of another answer, and none that are torn or gone', () => {
    const directory = tempDir();
    const file = new AnswerFile(directory, 'pretty', secret);
    file.write({ n: 1 }, ['one\n'], { parts: { n: 1 } });
    const partsPath = join(directory, 'answer-pretty.parts');
    const first = readFileSync(partsPath);
    copyFileSync(partsPath, join(directory, 'first.parts'));
    file.write({ n: 2 }, ['two\n'], { parts: { n: 2 } });
    const parts = (setUp: () => void) => {
      setUp();
      return file.read()?.parts();
    };
    expect(parts(() => undefined)).toEqual({ n: 2 });
    // The first answer's parts beside the second head: signed, but not this head's.
    expect(parts(() => copyFileSync(join(directory, 'first.parts'), partsPath))).toBeNull();
    expect(parts(() => writeFileSync(partsPath, first.subarray(0, first.length - 3)))).toBeNull();
    expect(parts(() => rmSync(partsPath))).toBeNull();
  });
});
