import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { type SignedBody, SignedFile } from './result-store.ts';

/** An answer as {@link AnswerFile} keeps it: what it depends on (the caller's JSON), and the bytes it printed, read on demand. */
export interface KeptAnswer {
  readonly head: unknown;
  /**
   * The printed bytes, verified now and handed on a chunk at a time, never held whole
   * (`SignedFile.openBody`); `null` when they are gone or are not this head's.
   */
  outputBody(): SignedBody | null;
  /** What the caller kept beside the output (its JSON), read and verified now; `null` when there is none of this head's. */
  parts(): unknown;
  /** The view kept for this head (the caller's JSON, see {@link AnswerFile.write}), read and verified now; `null` when there is none of it. */
  view(): unknown;
  /** The lines kept for this head (`AnswerSides.lines`), read and verified now; `null` when there are none of it. */
  lines(): string[] | null;
  /** Keeps a view for this head in place of the one it had (a failure to write is the caller's to catch). */
  keepView(view: unknown): void;
}

/**
 * An answer's output: its pieces (text as UTF-8), or a function that hands them to `append` one
 * after the other (a piece may be read over once `append` returns).
 */
export type AnswerOutput = readonly (string | Uint8Array)[] | ((append: (piece: string | Uint8Array) => void) => void);

/** What an answer keeps beside its head and output, each in a file of its own, read only when asked for. */
export interface AnswerSides {
  /** What the caller keeps to build a changed answer from this one (JSON). */
  readonly parts?: unknown;
  /** What the caller knows of the tree the answer was built from (JSON), which may be replaced on its own. */
  readonly view?: unknown;
  /** Lines of text (no line feed in any; not one empty line alone), read back as they were: a long list the head need not carry. */
  readonly lines?: readonly string[];
}

/**
 * One kept answer of a command (its printed bytes and what they depend on) in the result cache's
 * directory, signed with the user's key like the cache: a file that is absent, torn, corrupt or
 * signed under another key reads as `null`. Up to five files per slot: the head (`answer-SLOT`),
 * small, which a run compares before it reads more, the output (`answer-SLOT.output`), read only
 * when the head holds, and the sides ({@link AnswerSides}: `.parts`, `.view`, `.lines`), each
 * read only when the caller asks for it; each names the same random id, so a head never goes with
 * another write's output or sides. A new answer replaces the old one, each file atomically, the
 * head last.
 */
export class AnswerFile {
  readonly #head: SignedFile;
  readonly #output: SignedFile;
  readonly #parts: SignedFile;
  readonly #view: SignedFile;
  readonly #lines: SignedFile;

  constructor(directory: string, slot: string, secret: Uint8Array) {
    if (!/^[a-z][a-z-]*$/.test(slot)) throw new Error(`not an answer slot: ${slot}`);
    this.#head = new SignedFile(join(directory, `answer-${slot}`), secret);
    this.#output = new SignedFile(join(directory, `answer-${slot}.output`), secret);
    this.#parts = new SignedFile(join(directory, `answer-${slot}.parts`), secret);
    this.#view = new SignedFile(join(directory, `answer-${slot}.view`), secret);
    this.#lines = new SignedFile(join(directory, `answer-${slot}.lines`), secret);
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
    const bodyOf = (file: SignedFile): Buffer | null => {
      const body = file.readBytes();
      const end = body?.indexOf(0x0a) ?? -1;
      if (body == null || end === -1 || body.toString('latin1', 0, end) !== id) return null;
      return body.subarray(end + 1);
    };
    // The body past its first line, which names the head it belongs to.
    const past = (first: Buffer): number | null => {
      const end = first.indexOf(0x0a);
      return end !== -1 && first.toString('latin1', 0, end) === id ? end + 1 : null;
    };
    const jsonOf = (file: SignedFile): unknown => {
      const body = bodyOf(file);
      if (body === null) return null;
      try {
        return JSON.parse(body.toString('utf8'));
      } catch {
        return null;
      }
    };
    return {
      head: kept.head,
      outputBody: () => this.#output.openBody(past),
      parts: () => jsonOf(this.#parts),
      view: () => jsonOf(this.#view),
      lines: () => {
        const body = bodyOf(this.#lines);
        if (body === null) return null;
        const text = body.toString('utf8');
        return text === '' ? [] : text.split('\n');
      },
      keepView: (view) => this.#view.write([`${id}\n`, JSON.stringify(view)]),
    };
  }

  /**
   * Keeps an answer in place of the last: `head` (JSON), the output's pieces as UTF-8 and the
   * sides given; an answer without a side leaves none of the last one's (its id is another).
   */
  write(head: unknown, output: AnswerOutput, sides: AnswerSides = {}): void {
    const id = randomBytes(16).toString('hex');
    this.#output.write((append) => {
      append(`${id}\n`);
      if (typeof output === 'function') output(append);
      else for (const piece of output) append(piece);
    });
    if (sides.parts !== undefined) this.#parts.write([`${id}\n`, JSON.stringify(sides.parts)]);
    if (sides.view !== undefined) this.#view.write([`${id}\n`, JSON.stringify(sides.view)]);
    if (sides.lines !== undefined) this.#lines.write([`${id}\n`, sides.lines.join('\n')]);
    this.#head.write(JSON.stringify({ id, head }));
  }
}
