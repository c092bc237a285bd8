import { type Artifact, ArtifactCache } from './artifacts.ts';
import { CONTENT_HASH_LENGTH, webCryptoSha256 } from './hash.ts';
import type { MaybePromise, Sha256 } from './ports.ts';
import type { Finding } from './report.ts';

/**
 * Where cached results live: serialised entries by key. The host decides how (one signed pack
 * under the git directory, memory); it signs and checks what it stores, and answers `null` for
 * anything it cannot trust. Both methods may fail silently: a cache that cannot be read or written
 * only costs time. `file` names the document an entry belongs to, so the host can drop the
 * entries of a document's older versions.
 */
export interface ResultStorage {
  read(key: string): MaybePromise<string | null>;
  write(key: string, file: string, value: string): MaybePromise<void>;
}

/**
 * The SHA-256 (lowercase hex) of the bytes the run's reader would return for a path, when the host
 * knows them without reading (the file is unchanged since an earlier run read it); else `null`.
 */
export type KnownDigest = (path: string) => string | null;

/** What one document's check gave, before the report is built. */
export interface DocumentResult {
  readonly findings: readonly Finding[];
  readonly skippedInCode: number;
  readonly suppressed: number;
}

/**
 * The state of one artifact a document's findings depend on, as one string: its content hash, or
 * why it is not a file (a missing file's suggested replacement counts, since a message names it).
 */
export function artifactState(artifact: Artifact): string {
  switch (artifact.kind) {
    case 'file':
      return `file:${artifact.hash}`;
    case 'missing':
      return `missing:${artifact.suggestion ?? ''}`;
    case 'unreadable':
      return `unreadable:${artifact.reason}`;
    default:
      return artifact.kind;
  }
}

const FORMAT = 3;
const encoder = new TextEncoder();

interface Entry {
  readonly inputs: readonly (readonly [string, string])[];
  readonly findings: readonly Finding[];
  readonly skippedInCode: number;
  readonly suppressed: number;
}

/**
 * An entry as stored (format 3). Findings are rows of values under a shape (their property names,
 * in order, and which of them hold strings), so that property names are written once per entry;
 * the document's own path stands in its shape's place and takes no value. Every string a row holds
 * is an index into the entry's `strings`, so a string many findings share (a status, a rule, a
 * message without its path) is written once. A string is either written out or a template: pieces
 * of text and the columns of its own row whose values it repeats, so the citation text, a message
 * or a fix that names the artifact, its hash and its lines does not write them a second time.
 * Templates only name columns whose strings are written out, so a row decodes in two passes.
 */
interface StoredEntry {
  readonly format: number;
  readonly key: string;
  readonly file: string;
  /** `[path (index into strings), state]` of every artifact the checks looked at. */
  readonly inputs: readonly (readonly [number, string])[];
  readonly strings: readonly (string | Template)[];
  /** `[names, indices of the columns holding strings]`. */
  readonly shapes: readonly (readonly [readonly string[], readonly number[]])[];
  /** `[shape index, ...values]`; `file` takes no value. */
  readonly findings: readonly (readonly unknown[])[];
  readonly skippedInCode: number;
  readonly suppressed: number;
}

/** Text pieces and column indices of the same row, joined in order. */
type Template = readonly (string | number)[];

/** A value shorter than this is never replaced by a reference: the reference would not be shorter. */
const SHORTEST_REFERENCED = 4;

/** The strings of one entry, each written once. */
class StringTable {
  readonly values: (string | Template)[] = [];
  readonly #ids = new Map<string, number>();

  idOf(value: string | Template): number {
    const id = typeof value === 'string' ? `s${value}` : `t${JSON.stringify(value)}`;
    let at = this.#ids.get(id);
    if (at === undefined) {
      at = this.values.length;
      this.values.push(value);
      this.#ids.set(id, at);
    }
    return at;
  }
}

/**
 * The strings of one row as written out or as templates over the row's other strings: a string
 * equal to an earlier one refers to it; a string that holds other strings of the row (the longest
 * first where they overlap) is written as a template over those that hold none themselves.
 */
function encodeRowStrings(values: readonly unknown[], columns: readonly number[]): Map<number, string | Template> {
  const out = new Map<number, string | Template>();
  const first = new Map<string, number>();
  const distinct: number[] = [];
  for (const column of columns) {
    const value = values[column] as string;
    const earlier = first.get(value);
    if (earlier === undefined) {
      first.set(value, column);
      distinct.push(column);
    } else out.set(column, [earlier]);
  }
  const long = distinct.filter((column) => (values[column] as string).length >= SHORTEST_REFERENCED);
  const holdsOther = (column: number): boolean =>
    long.some((other) => other !== column && (values[column] as string).includes(values[other] as string));
  const sources = long.filter((column) => !holdsOther(column));
  for (const column of distinct) {
    const value = values[column] as string;
    out.set(column, sources.includes(column) ? value : templateOf(value, values, sources));
  }
  return out;
}

/** `value` with the occurrences of the sources' strings replaced by their columns, leftmost and longest first. */
function templateOf(value: string, values: readonly unknown[], sources: readonly number[]): string | Template {
  const parts: (string | number)[] = [];
  let from = 0;
  for (;;) {
    let best = -1;
    let bestAt = value.length;
    for (const column of sources) {
      const source = values[column] as string;
      const at = value.indexOf(source, from);
      if (at !== -1 && (best === -1 || at < bestAt || (at === bestAt && source.length > (values[best] as string).length))) {
        best = column;
        bestAt = at;
      }
    }
    if (best === -1) break;
    if (bestAt > from) parts.push(value.slice(from, bestAt));
    parts.push(best);
    from = bestAt + (values[best] as string).length;
  }
  if (parts.length === 0) return value;
  if (from < value.length) parts.push(value.slice(from));
  return parts;
}

function encodeEntry(key: string, file: string, inputs: readonly (readonly [string, string])[], result: DocumentResult): StoredEntry {
  const strings = new StringTable();
  const shapes: [string[], number[]][] = [];
  const byShape = new Map<string, number>();
  const rows: unknown[][] = [];
  for (const finding of result.findings) {
    // As JSON.stringify would write it: a property whose value is undefined is left out.
    const names: string[] = [];
    const values: unknown[] = [];
    const columns: number[] = [];
    for (const name of Object.keys(finding)) {
      const value = finding[name];
      if (value === undefined) continue;
      if (typeof value === 'string') columns.push(names.length);
      names.push(name);
      values.push(value);
    }
    const id = `${names.join('\u0000')}\u0001${columns.join(',')}`;
    let shape = byShape.get(id);
    if (shape === undefined) {
      shape = shapes.length;
      shapes.push([names, columns]);
      byShape.set(id, shape);
    }
    const encoded = encodeRowStrings(values, columns);
    const row: unknown[] = [shape];
    for (let column = 0; column < names.length; column += 1) {
      if (names[column] === 'file') continue;
      const string = encoded.get(column);
      row.push(string === undefined ? values[column] : strings.idOf(string));
    }
    rows.push(row);
  }
  return {
    format: FORMAT,
    key,
    file,
    inputs: inputs.map(([path, state]) => [strings.idOf(path), state]),
    strings: strings.values,
    shapes,
    findings: rows,
    skippedInCode: result.skippedInCode,
    suppressed: result.suppressed,
  };
}

interface Shape {
  readonly names: readonly string[];
  /** Per column, whether it holds an index into the strings. */
  readonly strings: readonly boolean[];
  /** The column of `file`, which takes no value in a row; -1 when there is none. */
  readonly file: number;
}

function shapeOf(value: unknown): Shape | null {
  if (!Array.isArray(value) || value.length !== 2 || !Array.isArray(value[0]) || !Array.isArray(value[1])) return null;
  const names = value[0] as unknown[];
  if (!names.every((name) => typeof name === 'string')) return null;
  const strings = names.map(() => false);
  for (const column of value[1] as unknown[]) {
    if (!Number.isInteger(column) || (column as number) < 0 || (column as number) >= names.length) return null;
    strings[column as number] = names[column as number] !== 'file';
  }
  return { names: names as string[], strings, file: names.indexOf('file') };
}

function decodeFindings(entry: Partial<StoredEntry>, file: string): Finding[] | null {
  const { strings, findings: rows } = entry;
  if (!Array.isArray(strings) || !Array.isArray(entry.shapes) || !Array.isArray(rows)) return null;
  const shapes = entry.shapes.map(shapeOf);
  const findings: Finding[] = [];
  for (const row of rows) {
    if (!Array.isArray(row)) return null;
    const shape = shapes[row[0] as number];
    if (shape == null || row.length !== shape.names.length + (shape.file === -1 ? 1 : 0)) return null;
    const { names, strings: isString } = shape;
    const finding: Record<string, unknown> = {};
    let templates: number[] | null = null;
    let at = 1;
    for (let column = 0; column < names.length; column += 1) {
      const name = names[column] as string;
      if (column === shape.file) {
        finding[name] = file;
        continue;
      }
      let value: unknown = row[at++];
      if (isString[column] === true) {
        value = Number.isInteger(value) ? strings[value as number] : undefined;
        if (typeof value !== 'string') {
          if (!Array.isArray(value)) return null;
          templates ??= [];
          templates.push(column);
        }
      }
      finding[name] = value;
    }
    // Strings written out first, then the templates over them.
    if (templates !== null) {
      for (const column of templates) {
        let text = '';
        for (const part of finding[names[column] as string] as Template) {
          const piece =
            typeof part === 'string' ? part : isString[part] === true || part === shape.file ? finding[names[part] as string] : null;
          if (typeof piece !== 'string') return null;
          text += piece;
        }
        finding[names[column] as string] = text;
      }
    }
    if (!isFindingOf(finding, file)) return null;
    findings.push(finding as unknown as Finding);
  }
  return findings;
}

/**
 * A content-addressed cache of document results (issue 18). A document's findings depend on its
 * path and bytes, on everything the run was configured with (the `context`: tool build, options,
 * configuration, corpus index, date), and on the artifacts it cites. The key covers the first
 * two; the artifacts are recorded while the document is checked and compared again, through the
 * run's own artifact cache, before an entry is used. An entry that does not parse, names another
 * key or file, or whose artifacts changed is ignored, and the document is checked and stored anew.
 */
export class ResultCache {
  readonly #storage: ResultStorage;
  readonly #sha256: Sha256;
  readonly #context: string;
  #contextDigest: Promise<string> | null = null;
  #hits = 0;
  #misses = 0;

  /** `context` must change whenever anything but the document and its artifacts could change a finding. */
  constructor(storage: ResultStorage, context: string, sha256: Sha256 = webCryptoSha256) {
    this.#storage = storage;
    this.#context = context;
    this.#sha256 = sha256;
  }

  /** Documents answered from the cache, and documents checked, so far. */
  get stats(): { readonly hits: number; readonly misses: number } {
    return { hits: this.#hits, misses: this.#misses };
  }

  /** The key of a document: the run's context, its path and its bytes. */
  async keyOf(file: string, bytes: Uint8Array): Promise<string> {
    return this.keyOfDigest(file, await this.#sha256(bytes));
  }

  /** {@link keyOf} from the SHA-256 of the document's bytes, known without reading them. */
  async keyOfDigest(file: string, digest: string): Promise<string> {
    // The context can hold a whole research corpus: digest it once per run, not once per document.
    this.#contextDigest ??= Promise.resolve(this.#sha256(encoder.encode(this.#context)));
    const context = await this.#contextDigest;
    return this.#sha256(encoder.encode(`aiwg-cite result v${FORMAT}\u0000${context}\u0000${file}\u0000${digest}`));
  }

  /**
   * The stored result of a document, or `null` when there is none that still holds. An artifact
   * the run has not read yet and whose digest `known` gives is compared by that digest, unread.
   */
  async lookup(key: string, file: string, artifacts: ArtifactCache, known?: KnownDigest): Promise<DocumentResult | null> {
    const entry = parse(await this.#read(key), key, file);
    if (entry === null) return null;
    // Most artifacts are answered at once (loaded already, or stamped): no promise per input.
    let waiting: Promise<boolean>[] | null = null;
    for (const [path, state] of entry.inputs) {
      const loaded = artifacts.peek(path);
      if (loaded !== undefined) {
        if (artifactState(loaded) !== state) return null;
        continue;
      }
      const digest = known?.(path);
      if (digest != null) {
        if (!isFileState(state, digest)) return null;
        continue;
      }
      waiting ??= [];
      waiting.push(artifacts.get(path).then((artifact) => artifactState(artifact) === state));
    }
    if (waiting !== null && (await Promise.all(waiting)).includes(false)) return null;
    this.#hits += 1;
    return { findings: entry.findings, skippedInCode: entry.skippedInCode, suppressed: entry.suppressed };
  }

  /** Stores a document's result with the states of the artifacts it looked at. */
  async store(key: string, file: string, result: DocumentResult, looked: Iterable<string>, artifacts: ArtifactCache): Promise<void> {
    this.#misses += 1;
    const inputs: [string, string][] = [];
    for (const path of [...new Set(looked)].sort()) inputs.push([path, artifactState(await artifacts.get(path))]);
    const entry = encodeEntry(key, file, inputs, result);
    try {
      await this.#storage.write(key, file, JSON.stringify(entry));
    } catch {
      // A cache that cannot be written costs the next run time, nothing else.
    }
  }

  async #read(key: string): Promise<string | null> {
    try {
      return await this.#storage.read(key);
    } catch {
      return null;
    }
  }
}

/** An entry, if the bytes are one for this key and file; anything else is not trusted. */
function parse(text: string | null, key: string, file: string): Entry | null {
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const entry = value as Partial<StoredEntry> | null;
  if (typeof entry !== 'object' || entry === null) return null;
  if (entry.format !== FORMAT || entry.key !== key || entry.file !== file) return null;
  if (typeof entry.skippedInCode !== 'number' || typeof entry.suppressed !== 'number') return null;
  const findings = decodeFindings(entry, file);
  if (findings === null || !Array.isArray(entry.inputs)) return null;
  const inputs: [string, string][] = [];
  for (const input of entry.inputs as unknown[]) {
    if (!Array.isArray(input) || input.length !== 2 || typeof input[1] !== 'string') return null;
    const path = Number.isInteger(input[0]) ? (entry.strings as unknown[])[input[0]] : undefined;
    if (typeof path !== 'string') return null;
    inputs.push([path, input[1]]);
  }
  return { inputs, findings, skippedInCode: entry.skippedInCode, suppressed: entry.suppressed };
}

/** Whether a stored state is that of a file with this SHA-256 (as {@link artifactState} writes it), without building the string. */
function isFileState(state: string, digest: string): boolean {
  return state.length === 5 + CONTENT_HASH_LENGTH && state.startsWith('file:') && digest.startsWith(state.slice(5));
}

function isFindingOf(value: unknown, file: string): value is Finding {
  const finding = value as Partial<Finding> | null;
  return (
    typeof finding === 'object' &&
    finding !== null &&
    finding.file === file &&
    typeof finding.line === 'number' &&
    typeof finding.column === 'number' &&
    typeof finding.kind === 'string' &&
    typeof finding.text === 'string' &&
    typeof finding.status === 'string' &&
    typeof finding.severity === 'string' &&
    typeof finding.rule === 'string' &&
    typeof finding.message === 'string' &&
    (finding.fix === null || typeof finding.fix === 'string')
  );
}

/**
 * The artifact cache of one document's check: the run's cache, with every path the checks ask for
 * recorded, so the result can be stored with the states it depends on.
 */
export class RecordingArtifacts extends ArtifactCache {
  readonly #run: ArtifactCache;
  readonly looked = new Set<string>();

  constructor(run: ArtifactCache) {
    super({ read: (path) => Promise.resolve({ kind: 'unreadable', reason: `not read through ${path}` }) }, run.sha256);
    this.#run = run;
  }

  override get(path: string): Promise<Artifact> {
    this.looked.add(path);
    return this.#run.get(path);
  }

  override peek(path: string): Artifact | undefined {
    this.looked.add(path);
    return this.#run.peek(path);
  }

  override loadAll(paths: Iterable<string>): Promise<void> {
    const list = [...paths];
    for (const path of list) this.looked.add(path);
    return this.#run.loadAll(list);
  }

  override replacementHash(path: string): Promise<string | null> {
    this.looked.add(path);
    return this.#run.replacementHash(path);
  }

  override replacementOf(path: string): string | null {
    this.looked.add(path);
    return this.#run.replacementOf(path);
  }

  override invalidate(path: string): void {
    this.#run.invalidate(path);
  }
}
