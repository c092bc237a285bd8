import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { SignedFile } from './result-store.ts';

/** An answer as {@link AnswerFile} keeps it: what it depends on (the caller's JSON), and the bytes it printed, read on demand. */
export interface KeptAnswer {
  readonly head: unknown;
  /** The printed bytes, read and verified now; `null` when they are gone or are not this head's. */
  output(): Buffer | null;
}

/**
 * One kept answer of a command (its printed bytes and what they depend on) in the result cache's
 * directory, signed with the user's key like the cache: a file that is absent, torn, corrupt or
 * signed under another key reads as `null`. Two files per slot: the head (`answer-SLOT`), small,
 * which a run compares before it reads more, and the output (`answer-SLOT.output`), read only
 * when the head holds; each names the same random id, so a head never goes with another write's
 * output. A new answer replaces the old one, each file atomically, the output first.
 */
export class AnswerFile {
  readonly #head: SignedFile;
  readonly #output: SignedFile;

  constructor(directory: string, slot: string, secret: Uint8Array) {
    if (!/^[a-z][a-z-]*$/.test(slot)) throw new Error(`not an answer slot: ${slot}`);
    this.#head = new SignedFile(join(directory, `answer-${slot}`), secret);
    this.#output = new SignedFile(join(directory, `answer-${slot}.output`), secret);
  }

  /** The kept answer's head, parsed; its output is read when asked for. */
  read(): KeptAnswer | null {
    const text = this.#head.read();
    if (text === null) return null;
    let kept: { readonly id?: unknown; readonly head?: unknown };
    try {
      kept = JSON.parse(text);
    } catch {
      return null;
    }
    const id = kept?.id;
    if (typeof id !== 'string') return null;
    return {
      head: kept.head,
      output: () => {
        const body = this.#output.readBytes();
        const end = body?.indexOf(0x0a) ?? -1;
        if (body == null || end === -1 || body.toString('latin1', 0, end) !== id) return null;
        return body.subarray(end + 1);
      },
    };
  }

  /** Keeps an answer in place of the last: `head` (JSON), and the output's pieces as UTF-8. */
  write(head: unknown, output: readonly (string | Uint8Array)[]): void {
    const id = randomBytes(16).toString('hex');
    this.#output.write([`${id}\n`, ...output]);
    this.#head.write(JSON.stringify({ id, head }));
  }
}
