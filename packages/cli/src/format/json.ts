import { isAscii } from 'node:buffer';
import { type Finding, inReportOrder, type OkJson, type Report, verdictJsonWriter, writeOkJson } from '@aiwg-cite/core';

/**
 * The stable JSON contract of `check --format json`: one compact document on stdout, nothing
 * else (pipe it through `jq` to read it). Compact because a large repository's report runs to
 * tens of megabytes, where indentation alone costs a noticeable part of a commit hook's budget.
 */
export function formatJson(report: Report): string {
  return `${JSON.stringify(report)}\n`;
}

/** About how many UTF-16 units {@link writeJson} gathers before each write. */
const PIECE = 64 * 1024;
/** About how many bytes {@link chunkedWriter} gathers before each write. */
const CHUNK = 64 * 1024;

/** A piece of output: text, or UTF-8 bytes (as a result cache read them; see core `OkJson`). */
export type Piece = string | Uint8Array;

/**
 * A piece {@link writeJson} hands on as it is, beside text and bytes: one whose `length` counts its
 * bytes (a run of a kept answer's output that a splice copies, check-splice.ts).
 */
export interface Sized {
  readonly length: number;
}

/**
 * Gathers pieces into chunks of about 64 KB of UTF-8 before handing each on (a new buffer each
 * time: `out` may keep it), so that the many short runs of texts a JSON report copies as bytes
 * cost one write per chunk, not one each; a long piece goes on as it is. `end` hands on the rest.
 */
export function chunkedWriter(out: (chunk: Uint8Array) => void): { readonly write: (piece: Piece) => void; readonly end: () => void } {
  let chunk = Buffer.allocUnsafe(CHUNK);
  let size = 0;
  const flush = (): void => {
    if (size === 0) return;
    out(chunk.subarray(0, size));
    chunk = Buffer.allocUnsafe(CHUNK);
    size = 0;
  };
  return {
    write(piece) {
      // At most three bytes a UTF-16 code unit.
      const bound = typeof piece === 'string' ? piece.length * 3 : piece.length;
      if (size + bound > CHUNK || bound > CHUNK / 2) flush();
      if (bound > CHUNK / 2) out(typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece);
      else if (typeof piece === 'string') size += chunk.write(piece, size, 'utf8');
      else {
        chunk.set(piece, size);
        size += piece.length;
      }
    },
    end: flush,
  };
}

/** A piece of output as text (ASCII bytes, most of a report, copied a byte a character). */
export function pieceText(piece: Piece): string {
  if (typeof piece === 'string') return piece;
  const bytes = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/** Pieces of output as one text. */
export function joinPieces(pieces: readonly Piece[]): string {
  return pieces.map(pieceText).join('');
}

/**
 * Writes exactly {@link formatJson}'s text in pieces of about 64 KB: the top-level arrays (the
 * citations) are serialised element by element. A 50,000-citation report is 25 MB; as one string
 * and one buffer it costs more than the whole check spends on parsing (bench/markdown.bench.mjs).
 * `citation` writes each citation (by default as `JSON.stringify` does); `okJson` places the
 * texts of citations that checked out (core `OkJson`, written with their verdicts) among them, in
 * report order, as if they were in `citations`.
 */
export function writeJson<B extends Sized = Uint8Array>(
  report: Report,
  write: (piece: Piece | B) => unknown,
  citation: (finding: Finding) => string = (finding) => JSON.stringify(finding) ?? 'null',
  okJson: ReadonlyMap<string, OkJson> = new Map(),
  hooks: JsonHooks<B> = {},
): void {
  let piece = '{';
  let first = true;
  // With `hooks.placed`: the UTF-8 bytes written so far, and where the citations' elements stand.
  let bytes = 0;
  let at = 0;
  const placing = hooks.placed;
  const out =
    placing === undefined
      ? write
      : (text: Piece | B) => {
          bytes += typeof text === 'string' ? Buffer.byteLength(text) : text.length;
          write(text);
        };
  for (const [key, value] of Object.entries(report) as [string, unknown][]) {
    const json = Array.isArray(value) ? null : JSON.stringify(value);
    if (!Array.isArray(value) && json === undefined) continue;
    piece += `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (!Array.isArray(value)) {
      piece += json;
      continue;
    }
    piece += '[';
    let written = 0;
    const add = (text: Piece | B): void => {
      if (written++ > 0) piece += ',';
      if (typeof text !== 'string') {
        // Bytes (or a sized piece) go on as they are, after the text before them.
        if (piece !== '') out(piece);
        out(text);
        piece = '';
        return;
      }
      piece += text;
      if (piece.length >= PIECE) {
        out(piece);
        piece = '';
      }
    };
    if (key !== 'citations') {
      for (const element of value) add(JSON.stringify(element) ?? 'null');
      piece += ']';
      continue;
    }
    // Where each element starts and ends, when asked: the bytes before the array, then each element's own.
    if (placing !== undefined) at = bytes + Buffer.byteLength(piece);
    const element =
      placing === undefined
        ? (text: Piece | B) => add(text)
        : (text: Piece | B, file: string) => {
            if (written > 0) at += 1;
            const start = at;
            at += typeof text === 'string' ? Buffer.byteLength(text) : text.length;
            placing(file, start, at);
            add(text);
          };
    if (hooks.citations !== undefined) hooks.citations(element);
    else writeCitations(value as Finding[], okJson, citation, element);
    piece += ']';
  }
  out(`${piece}}\n`);
}

/** What {@link writeJson} may do besides writing the report as it is. */
export interface JsonHooks<B extends Sized = Uint8Array> {
  /**
   * Told, for each element of `citations` as it is written, the file it belongs to and the bytes
   * of the output it takes (from its first byte to past its last; the commas between elements are
   * not in it).
   */
  readonly placed?: (file: string, start: number, end: number) => void;
  /** Writes the elements of `citations` (each through `add`, with the file it belongs to) in place of the report's own. */
  readonly citations?: (add: (element: Piece | B, file: string) => void) => void;
}

/**
 * The elements of a report's `citations`, in report order: each finding as `citation` writes it,
 * and among them the texts of the citations that checked out (`okJson`), a document's run of them
 * as one element; `add` is told the file of each.
 */
export function writeCitations(
  citations: readonly Finding[],
  okJson: ReadonlyMap<string, OkJson>,
  citation: (finding: Finding) => string,
  add: (element: Piece, file: string) => void,
): void {
  if (okJson.size === 0) {
    for (const finding of citations) add(citation(finding), finding.file);
    return;
  }
  const fileOf = new Map<OkJson, string>();
  for (const [file, texts] of okJson) fileOf.set(texts, file);
  inReportOrder(
    citations,
    okJson,
    (finding) => add(citation(finding), finding.file),
    (texts, from, to) => writeOkJson(texts, from, to, (element) => add(element, fileOf.get(texts) as string)),
  );
}

/**
 * The report of `check --format json`: {@link writeJson} of the report with each citation's
 * `verdicts` (README "JSON output"): the same text as `formatJson` of `withVerdicts`'s copy,
 * written without copying the citations. `okJson`: citations that checked out, kept as text per
 * document (core `runPipeline` with `okJson`), written among the others.
 */
export function writeCheckJson<B extends Sized = Uint8Array>(
  report: Report,
  write: (piece: Piece | B) => unknown,
  okJson: ReadonlyMap<string, OkJson> = new Map(),
  hooks: JsonHooks<B> = {},
): void {
  writeJson<B>(report, write, verdictJsonWriter(), okJson, hooks);
}
