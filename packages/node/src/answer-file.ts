import { join } from 'node:path';
import { SignedFile } from './result-store.ts';

/** An answer as {@link AnswerFile} keeps it: what it depends on (the caller's JSON), and the bytes it printed. */
export interface KeptAnswer {
  readonly head: unknown;
  readonly output: Buffer;
}

/**
 * One kept answer of a command (its printed bytes and what they depend on) in the result cache's
 * directory, signed with the user's key like the cache: a file that is absent, torn, corrupt or
 * signed under another key reads as `null`. One file per slot; a new answer replaces the old one
 * atomically.
 */
export class AnswerFile {
  readonly #file: SignedFile;

  constructor(directory: string, slot: string, secret: Uint8Array) {
    if (!/^[a-z][a-z-]*$/.test(slot)) throw new Error(`not an answer slot: ${slot}`);
    this.#file = new SignedFile(join(directory, `answer-${slot}`), secret);
  }

  /** The kept answer: its head parsed, its output as the bytes that were printed. */
  read(): KeptAnswer | null {
    const body = this.#file.readBytes();
    if (body === null) return null;
    const end = body.indexOf(0x0a);
    if (end === -1) return null;
    try {
      return { head: JSON.parse(body.toString('utf8', 0, end)), output: body.subarray(end + 1) };
    } catch {
      return null;
    }
  }

  /** Keeps an answer in place of the last: `head` as one line of JSON, then the output's pieces. */
  write(head: unknown, output: readonly (string | Uint8Array)[]): void {
    const writer = this.#file.writer();
    try {
      writer.append(`${JSON.stringify(head)}\n`);
      for (const piece of output) writer.append(piece);
      writer.commit();
    } catch (error) {
      writer.abort();
      throw error;
    }
  }
}
