import { type Artifact, ArtifactCache } from './artifacts.ts';
import { CONTENT_HASH_LENGTH, webCryptoSha256 } from './hash.ts';
import type { MaybePromise, Sha256 } from './ports.ts';
import { countOk, type Finding, type OkCounts } from './report.ts';

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
  /** Looked up with `countOk`: the citations that checked out, counted and not in `findings`. */
  readonly ok?: OkCounts;
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
  readonly format: number;
  readonly key: string;
  readonly file: string;
  /** `[path, state]` of every artifact the checks looked at. */
  readonly inputs: readonly (readonly [string, string])[];
  readonly findings: readonly Finding[];
  readonly skippedInCode: number;
  readonly suppressed: number;
}

/**
 * An entry as stored: findings as rows of values under a shape (their property names, in order),
 * so that a large cache does not repeat every property name of every finding; the document's own
 * path stands in its shape's place and is not repeated either. The citations that checked out
 * (most of them) follow the entry's JSON after a tab, as {@link StoredOk}: a run that only counts
 * them reads their counts and never parses their rows.
 */
interface StoredEntry extends Omit<Entry, 'findings'> {
  readonly shapes: readonly (readonly string[])[];
  /** `[shape index, ...values]`; `file` takes no value. The findings whose severity is not `ok`. */
  readonly findings: readonly (readonly unknown[])[];
  /** The `ok` findings counted: `[okKey, count]`. */
  readonly ok: readonly (readonly [string, number])[];
}

/** The `ok` findings of an entry: where each stood among all the findings, and its row. */
type StoredOk = [at: number[], rows: (readonly unknown[])[]];

function encodeFindings(findings: readonly Finding[]): Pick<StoredEntry, 'shapes' | 'findings'> {
  const shapes: string[][] = [];
  const rows: unknown[][] = [];
  for (const finding of findings) {
    // As JSON.stringify would write it: a property whose value is undefined is left out.
    const names: string[] = [];
    const row: unknown[] = [0];
    for (const name of Object.keys(finding)) {
      const value = finding[name];
      if (value === undefined) continue;
      names.push(name);
      if (name !== 'file') row.push(value);
    }
    // An entry has a few shapes: compared name by name, with no key string built per finding.
    let shape = shapes.findIndex((known) => sameNames(known, names));
    if (shape === -1) {
      shape = shapes.length;
      shapes.push(names);
    }
    row[0] = shape;
    rows.push(row);
  }
  return { shapes, findings: rows };
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let at = 0; at < a.length; at += 1) if (a[at] !== b[at]) return false;
  return true;
}

function decodeFindings(shapes: unknown, rows: unknown, file: string): Finding[] | null {
  if (!Array.isArray(shapes) || !Array.isArray(rows)) return null;
  if (!shapes.every((shape) => Array.isArray(shape) && shape.every((name) => typeof name === 'string'))) return null;
  const findings: Finding[] = [];
  for (const row of rows) {
    if (!Array.isArray(row)) return null;
    const names = shapes[row[0] as number] as string[] | undefined;
    if (names === undefined) return null;
    const finding: Record<string, unknown> = {};
    let at = 1;
    for (const name of names) finding[name] = name === 'file' ? file : row[at++];
    if (at !== row.length || !isFindingOf(finding, file)) return null;
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
  async lookup(
    key: string,
    file: string,
    artifacts: ArtifactCache,
    known?: KnownDigest,
    options: { readonly countOk?: boolean } = {},
  ): Promise<DocumentResult | null> {
    let text = this.#read(key);
    // A host that answers at once (the pack) costs no promise per document.
    if (typeof text !== 'string' && text !== null) text = await text;
    const entry = parse(text, key, file, options.countOk === true);
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
    return {
      findings: entry.findings,
      skippedInCode: entry.skippedInCode,
      suppressed: entry.suppressed,
      ...(entry.ok === undefined ? {} : { ok: entry.ok }),
    };
  }

  /** Stores a document's result with the states of the artifacts it looked at. */
  async store(key: string, file: string, result: DocumentResult, looked: Iterable<string>, artifacts: ArtifactCache): Promise<void> {
    this.#misses += 1;
    const inputs: [string, string][] = [];
    // The checks loaded every path they looked at: no promise per path for those.
    for (const path of [...new Set(looked)].sort()) inputs.push([path, artifactState(artifacts.peek(path) ?? (await artifacts.get(path)))]);
    const { shapes, findings: rows } = encodeFindings(result.findings);
    const kept: (readonly unknown[])[] = [];
    const stored: StoredOk = [[], []];
    const ok: OkCounts = new Map();
    for (let at = 0; at < rows.length; at += 1) {
      const finding = result.findings[at] as Finding;
      if (finding.severity !== 'ok') {
        kept.push(rows[at] as unknown[]);
        continue;
      }
      stored[0].push(at);
      stored[1].push(rows[at] as unknown[]);
      countOk(ok, finding);
    }
    const entry: StoredEntry = {
      format: FORMAT,
      key,
      file,
      inputs,
      shapes,
      findings: kept,
      ok: [...ok],
      skippedInCode: result.skippedInCode,
      suppressed: result.suppressed,
    };
    try {
      await this.#storage.write(key, file, `${JSON.stringify(entry)}\t${JSON.stringify(stored)}`);
    } catch {
      // A cache that cannot be written costs the next run time, nothing else.
    }
  }

  #read(key: string): MaybePromise<string | null> {
    try {
      const text = this.#storage.read(key);
      return typeof text === 'string' || text === null ? text : Promise.resolve(text).catch(() => null);
    } catch {
      return null;
    }
  }
}

/**
 * An entry, if the text is one for this key and file; anything else is not trusted. With
 * `countOk` its `ok` findings stay unparsed and their counts come back as `ok`; without, they are
 * put back among the others where they stood.
 */
function parse(text: string | null, key: string, file: string, countOk: boolean): (Entry & { readonly ok?: OkCounts }) | null {
  const tab = text?.indexOf('\t') ?? -1;
  if (text === null || tab === -1) return null;
  const entry = parseJson(text.slice(0, tab)) as Partial<StoredEntry> | null;
  if (typeof entry !== 'object' || entry === null) return null;
  if (entry.format !== FORMAT || entry.key !== key || entry.file !== file) return null;
  if (typeof entry.skippedInCode !== 'number' || typeof entry.suppressed !== 'number') return null;
  if (!Array.isArray(entry.inputs) || !entry.inputs.every(isInput)) return null;
  if (!Array.isArray(entry.ok) || !entry.ok.every(isOkCount)) return null;
  const findings = decodeFindings(entry.shapes, entry.findings, file);
  if (findings === null) return null;
  const { shapes, findings: _rows, ok, ...rest } = entry as StoredEntry;
  if (countOk) return { ...rest, findings, ok: new Map(ok) };
  const stored = parseJson(text.slice(tab + 1)) as StoredOk | null;
  if (!Array.isArray(stored) || stored.length !== 2 || !Array.isArray(stored[0])) return null;
  const okFindings = decodeFindings(shapes, stored[1], file);
  const total = findings.length + stored[0].length;
  if (okFindings === null || okFindings.length !== stored[0].length) return null;
  if (okFindings.some((finding) => finding.severity !== 'ok') || ok.reduce((sum, [, count]) => sum + count, 0) !== okFindings.length)
    return null;
  const all: Finding[] = [];
  let other = 0;
  for (let at = 0, next = 0; at < total; at += 1) {
    if (stored[0][next] === at) all.push(okFindings[next++] as Finding);
    else if (other < findings.length) all.push(findings[other++] as Finding);
    else return null;
  }
  if (other !== findings.length) return null;
  return { ...rest, findings: all };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function isOkCount(value: unknown): value is readonly [string, number] {
  return Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && Number.isInteger(value[1]) && value[1] > 0;
}

function isInput(value: unknown): value is readonly [string, string] {
  return Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string';
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
