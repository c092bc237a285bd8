import { type Artifact, ArtifactCache } from './artifacts.ts';
import { decodeFindingRows, encodeFindingRows, isFindingOf } from './finding-rows.ts';
import { CONTENT_HASH_LENGTH, webCryptoSha256 } from './hash.ts';
import { okOwnJson, okReportJson } from './interop/verdict-model.ts';
import type { Suppression } from './markdown/scan.ts';
import type { MaybePromise, Sha256 } from './ports.ts';
import { compareInFile, type Finding, fromOkKey, type OkCounts, type OkJson, okJsonHolds, okKey } from './report.ts';

/**
 * Where cached results live: serialised entries by key. The host decides how (one signed pack
 * under the git directory, memory); it signs and checks what it stores, and answers `null` for
 * anything it cannot trust. Both methods may fail silently: a cache that cannot be read or written
 * only costs time. `file` names the document an entry belongs to, so the host can drop the
 * entries of a document's older versions.
 */
export interface ResultStorage {
  /**
   * The value stored under `key`, or one part of it: its `head`, before its first tab (an entry
   * without the texts of the citations that checked out), or its `tail`, after that tab (`null`
   * when it has none). A host that keeps the parts apart spares a run that only counts those
   * citations the reading of their texts. A `tail` may come as its UTF-8 bytes when every one of
   * them is ASCII (a byte a UTF-16 code unit): a JSON report then copies its texts as bytes,
   * never decoding them.
   */
  read(key: string, part?: 'head' | 'tail'): MaybePromise<string | Uint8Array | null>;
  write(key: string, file: string, value: string): MaybePromise<void>;
}

/**
 * The SHA-256 (lowercase hex) of the bytes the run's reader would return for a path, when the host
 * knows them without reading (the file is unchanged since an earlier run read it); else `null`.
 */
export type KnownDigest = (path: string) => string | null;

/** A {@link ResultStorage} in memory (a host with nowhere to keep the cache between runs; tests): `values` by key, whole. */
export function memoryResultStorage(): ResultStorage & { readonly values: Map<string, string> } {
  const values = new Map<string, string>();
  const read = (key: string, part?: 'head' | 'tail'): string | null => {
    const value = values.get(key) ?? null;
    if (value === null || part === undefined) return value;
    const tab = value.indexOf('\t');
    if (part === 'head') return tab === -1 ? value : value.slice(0, tab);
    return tab === -1 ? null : value.slice(tab + 1);
  };
  return { values, read, write: (key, _file, value) => void values.set(key, value) };
}

/** What one document's check gave, before the report is built. */
export interface DocumentResult {
  readonly findings: readonly Finding[];
  readonly skippedInCode: number;
  readonly suppressed: number;
  /**
   * Suppression comments to apply after git's history stage, with the configured severities: those
   * on the lines of stale pins, whose findings there are stored unsettled (`suppressed` counts only
   * what was settled before storing).
   */
  readonly lateSuppressions?: readonly Suppression[] | undefined;
  /** Looked up with `countOk`: the citations that checked out, counted and not in `findings`. */
  readonly ok?: OkCounts | undefined;
  /** Looked up with `okJson`: the same citations as their JSON text, in report order. */
  readonly okJson?: OkJson | undefined;
}

/**
 * What a lookup does with the citations that checked out: puts them back among the others
 * (`keep`), counts them (`count`), or counts them and hands on their stored JSON text (`json`).
 */
export type OkMode = 'keep' | 'count' | 'json';

/**
 * The state of one artifact a document's findings depend on, as one string: its content hash, or
 * why it is not a file (a missing file's suggested replacement counts, since a message names it).
 */
export function artifactState(artifact: Artifact): string {
  switch (artifact.kind) {
    case 'file':
      return `file:${artifact.hash}`;
    case 'missing':
      return `missing:${artifact.untracked === true ? 'untracked' : ''}:${artifact.suggestion ?? ''}`;
    case 'unreadable':
      return `unreadable:${artifact.reason}`;
    default:
      return artifact.kind;
  }
}

/**
 * 5: the texts of citations that checked out are stored as a JSON report writes them, verdicts
 * included; the inputs are one flat list. 6: the findings on a stale pin's line are stored
 * unsettled, with that line's suppression comments (`late`): an entry of 5 may lack a pin that a
 * configured severity turned off before git could call it `unknown-hash`.
 */
const FORMAT = 6;
const encoder = new TextEncoder();
const utf8 = new TextDecoder();
const TAB = 0x09;

interface Entry {
  readonly format: number;
  readonly key: string;
  readonly file: string;
  /** {@link DocumentResult.lateSuppressions}, as `[line, rules]`. */
  readonly late: readonly (readonly [number, readonly string[]])[];
  /**
   * Every artifact the checks looked at, as its path then its state, one after the other (a flat
   * list: no array per artifact for a warm run to parse).
   */
  readonly inputs: readonly string[];
  readonly findings: readonly Finding[];
  readonly skippedInCode: number;
  readonly suppressed: number;
}

/**
 * An entry as stored: findings as rows of values under a shape (their property names, in order),
 * so that a large cache does not repeat every property name of every finding; the document's own
 * path stands in its shape's place and is not repeated either. The citations that checked out
 * (most of them) are counted in the entry; unless a counting run stored it (which never reads
 * more), they follow the entry's JSON after a tab, as {@link StoredOk} and, after another tab,
 * their JSON texts joined by commas (as a JSON report writes them, verdicts included, when they
 * may stand for the findings there): a run that only counts them reads their counts and never
 * parses the rest; a JSON report copies their texts, a document's run of them at once, without
 * making objects of them.
 */
interface StoredEntry extends Omit<Entry, 'findings'> {
  readonly shapes: readonly (readonly string[])[];
  /** `[shape index, ...values]`; `file` takes no value. The findings whose severity is not `ok`. */
  readonly findings: readonly (readonly unknown[])[];
  /** The `ok` findings counted: `[okKey, count]`. */
  readonly ok: readonly (readonly [string, number])[];
}

/**
 * The `ok` findings of an entry, in report order ({@link OkJson}): for each, where it stood among
 * all the findings, its line and column, its counted key (an index into the entry's `ok`) and the
 * length of its JSON text (the texts follow after a tab, joined by commas); and whether the texts
 * may stand for the findings in a report ({@link okJsonHolds}: 1) or not (0).
 */
type StoredOk = [at: number[], lines: number[], columns: number[], keys: number[], lengths: number[], holds: 0 | 1];

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
  readonly #sha256Text: (text: string) => MaybePromise<string>;
  readonly #context: string;
  #contextDigest: MaybePromise<string> | null = null;
  /**
   * Per `known` (one per run), the state of each artifact it knew unread, as stored: a warm run
   * compares each input with one lookup and no string built (most artifacts are cited by many
   * documents). A path known unread stays known for the run.
   */
  readonly #knownStates = new WeakMap<KnownDigest, Map<string, string>>();
  #hits = 0;
  #misses = 0;
  #unstored = 0;
  #onTree = 0;
  /**
   * Once {@link record} asked: the inputs of the entries that held, with their states (one per
   * path: an artifact has one state in a run), and the digest each document was last keyed by.
   * The inputs an entry's lookup compared with a known state are not copied here: the maps of
   * known states the lookups used (`#knownUsed`) hold them, 10,000 paths for a million inputs.
   */
  #held: Map<string, string> | null = null;
  #knownUsed: Set<Map<string, string>> | null = null;
  #keyed: Map<string, string> | null = null;
  /** Since {@link record}: the documents checked and not stored. */
  #unstoredFiles: Set<string> | null = null;
  /** Since {@link record}: each document's inputs, by their index in `paths` (an artifact's path is kept once). */
  #documentInputs: { readonly paths: string[]; readonly index: Map<string, number>; readonly documents: Map<string, number[]> } | null =
    null;

  /**
   * `context` must change whenever anything but the document and its artifacts could change a
   * finding. `sha256Text` hashes a text's UTF-8 bytes, where the host can without encoding it
   * first (a key per document is hashed on every run).
   */
  constructor(
    storage: ResultStorage,
    context: string,
    sha256: Sha256 = webCryptoSha256,
    sha256Text?: (text: string) => MaybePromise<string>,
  ) {
    this.#storage = storage;
    this.#context = context;
    this.#sha256 = sha256;
    this.#sha256Text = sha256Text ?? ((text) => sha256(encoder.encode(text)));
  }

  /**
   * So far: documents answered from the cache (`hits`), checked and stored (`misses`), and checked
   * but not stored ({@link recordUnstored}): for a run-level note alone (`unstored`), or because
   * their findings depend on the whole tree (`onTree`).
   */
  get stats(): { readonly hits: number; readonly misses: number; readonly unstored: number; readonly onTree: number } {
    return { hits: this.#hits, misses: this.#misses, unstored: this.#unstored, onTree: this.#onTree };
  }

  /**
   * From now on, keeps what the results this cache answers depend on: the inputs of every entry
   * that holds, and the digest of each document's bytes as keyed (a run that keeps its whole
   * answer for the next one compares these); {@link recorded} gives them.
   */
  record(): void {
    this.#held ??= new Map();
    this.#knownUsed ??= new Set();
    this.#keyed ??= new Map();
    this.#unstoredFiles ??= new Set();
    this.#documentInputs ??= { paths: [], index: new Map(), documents: new Map() };
  }

  /**
   * Since {@link record}: each input of the entries that held, with its state, and the digest each
   * document was last keyed by; `null` before.
   */
  recorded(): {
    readonly inputs: ReadonlyMap<string, string>;
    readonly digests: ReadonlyMap<string, string>;
    /** The documents checked and not stored ({@link recordUnstored}). */
    readonly unstored: ReadonlySet<string>;
    /**
     * Each document's inputs (answered or checked unstored: a run that stored one keeps no answer),
     * by their index in `paths`.
     */
    readonly documentInputs: { readonly paths: readonly string[]; readonly documents: ReadonlyMap<string, readonly number[]> };
  } | null {
    const documentInputs = this.#documentInputs;
    if (
      this.#held === null ||
      this.#knownUsed === null ||
      this.#keyed === null ||
      this.#unstoredFiles === null ||
      documentInputs === null
    ) {
      return null;
    }
    // A known state is the artifact's state in this run (from its stamp, never from an entry), so
    // a path an entry that did not hold put there still names its true state: the next run's
    // answer is at worst built again for it, never printed wrongly.
    const inputs = new Map<string, string>();
    for (const states of this.#knownUsed) for (const [path, state] of states) inputs.set(path, state);
    for (const [path, state] of this.#held) inputs.set(path, state);
    return { inputs, digests: this.#keyed, unstored: this.#unstoredFiles, documentInputs };
  }

  /** The key of a document: the run's context, its path and its bytes. */
  async keyOf(file: string, bytes: Uint8Array): Promise<string> {
    return this.keyOfDigest(file, await this.#sha256(bytes));
  }

  /**
   * {@link keyOf} from the SHA-256 of the document's bytes, known without reading them; at once
   * (no promise) when the digest of the context is known and `sha256` answers at once.
   */
  keyOfDigest(file: string, digest: string): MaybePromise<string> {
    // The context can hold a whole research corpus: digest it once per run, not once per document.
    if (this.#contextDigest === null) {
      const context = this.#sha256Text(this.#context);
      this.#contextDigest = typeof context === 'string' ? context : context.then((known) => (this.#contextDigest = known));
    }
    const context = this.#contextDigest;
    if (typeof context !== 'string') return context.then(() => this.keyOfDigest(file, digest));
    this.#keyed?.set(file, digest);
    return this.#sha256Text(`aiwg-cite result v${FORMAT}\u0000${context}\u0000${file}\u0000${digest}`);
  }

  /**
   * The stored result of a document, or `null` when there is none that still holds. An artifact
   * the run has not read yet and whose digest `known` gives is compared by that digest, unread.
   * At once (no promise) when the storage answers at once and every input is known.
   */
  lookup(
    key: string,
    file: string,
    artifacts: ArtifactCache,
    known?: KnownDigest,
    options: { readonly countOk?: boolean; readonly okJson?: boolean } = {},
  ): MaybePromise<DocumentResult | null> {
    const mode: OkMode = options.okJson === true ? 'json' : options.countOk === true ? 'count' : 'keep';
    const head = this.#read(key, 'head');
    const tail = mode === 'count' ? null : this.#read(key, 'tail');
    // A host that answers at once (the pack) costs no promise per document.
    if (isPromise(head) || isPromise(tail)) {
      return Promise.all([head, tail]).then(([one, two]) => this.#lookup(one, two, mode, key, file, artifacts, known));
    }
    return this.#lookup(head, tail, mode, key, file, artifacts, known);
  }

  #lookup(
    head: string | Uint8Array | null,
    tail: string | Uint8Array | null,
    mode: OkMode,
    key: string,
    file: string,
    artifacts: ArtifactCache,
    known: KnownDigest | undefined,
  ): MaybePromise<DocumentResult | null> {
    const entry = parse(head, tail, key, file, mode);
    if (entry === null) return null;
    let states: Map<string, string> | undefined;
    if (known !== undefined) {
      states = this.#knownStates.get(known);
      if (states === undefined) {
        states = new Map();
        this.#knownStates.set(known, states);
      }
      this.#knownUsed?.add(states);
    }
    // Whether every input was compared with a state of `states` (see `#held`).
    let allKnown = states !== undefined;
    // Most artifacts are answered at once (known, loaded already, or stamped): no promise per input.
    let waiting: Promise<boolean>[] | null = null;
    const inputs = entry.inputs;
    for (let at = 0; at < inputs.length; at += 2) {
      // The shape of each input is checked here, where it is read.
      const path: unknown = inputs[at];
      const state: unknown = inputs[at + 1];
      if (typeof path !== 'string' || typeof state !== 'string') return null;
      const stated = states?.get(path);
      if (stated !== undefined) {
        if (stated !== state) return null;
        continue;
      }
      const loaded = artifacts.peek(path);
      if (loaded !== undefined) {
        if (artifactState(loaded) !== state) return null;
        allKnown = false;
        continue;
      }
      const digest = known?.(path);
      if (digest != null) {
        const fileState = `file:${digest.slice(0, CONTENT_HASH_LENGTH)}`;
        states?.set(path, fileState);
        if (fileState !== state) return null;
        continue;
      }
      allKnown = false;
      waiting ??= [];
      waiting.push(artifacts.get(path).then((artifact) => artifactState(artifact) === state));
    }
    const result: DocumentResult = {
      findings: entry.findings,
      skippedInCode: entry.skippedInCode,
      suppressed: entry.suppressed,
      lateSuppressions: entry.late,
      ok: entry.ok,
      okJson: entry.okJson,
    };
    if (waiting === null) {
      this.#hold(file, inputs, allKnown);
      return result;
    }
    return Promise.all(waiting).then((same) => {
      if (same.includes(false)) return null;
      this.#hold(file, inputs, false);
      return result;
    });
  }

  /**
   * Counts a hit, and when asked to ({@link record}) keeps its inputs, unless the known states hold
   * them (`allKnown`), and which they were.
   */
  #hold(file: string, inputs: readonly string[], allKnown: boolean): void {
    this.#hits += 1;
    if (this.#held !== null && !allKnown) keepInputs(this.#held, inputs);
    this.#noteInputs(file, inputs);
  }

  /** Since {@link record}: notes which inputs (path, state, path, ...) a document's result depends on. */
  #noteInputs(file: string, inputs: readonly string[]): void {
    const noted = this.#documentInputs;
    if (noted === null) return;
    const indexes: number[] = [];
    for (let at = 0; at < inputs.length; at += 2) {
      const path = inputs[at] as string;
      let index = noted.index.get(path);
      if (index === undefined) {
        index = noted.paths.length;
        noted.index.set(path, index);
        noted.paths.push(path);
      }
      indexes.push(index);
    }
    noted.documents.set(file, indexes);
  }

  /**
   * Counts a document checked whose result is not stored: its findings depend on the whole tree
   * (`onTree`: what they read of it is the host's to know), or, like a stored result, only on its
   * bytes, the context and the artifacts it looked at, but a run-level note counts what its checks
   * held back. When recording ({@link record}), keeps the states of those artifacts.
   */
  async recordUnstored(file: string, looked: Iterable<string>, artifacts: ArtifactCache, onTree: boolean): Promise<void> {
    if (onTree) this.#onTree += 1;
    else this.#unstored += 1;
    this.#unstoredFiles?.add(file);
    if (this.#held === null) return;
    const inputs = await inputsOf(looked, artifacts);
    keepInputs(this.#held, inputs);
    this.#noteInputs(file, inputs);
  }

  /**
   * Stores a document's result with the states of the artifacts it looked at. With `texts` false
   * (a run that only counts the citations that checked out) the entry is stored without their
   * texts, which a counting run never reads: a cold counting run spends no time writing them, and
   * a run that needs them (JSON, JUnit, source-check, `--fix`) takes such an entry as no entry and
   * stores it whole.
   */
  async store(
    key: string,
    file: string,
    result: DocumentResult,
    looked: Iterable<string>,
    artifacts: ArtifactCache,
    texts = true,
  ): Promise<void> {
    this.#misses += 1;
    const inputs = await inputsOf(looked, artifacts);
    const others: Finding[] = [];
    const places: number[] = [];
    result.findings.forEach((finding, at) => {
      if (finding.severity === 'ok') places.push(at);
      else others.push(finding);
    });
    // In report order (a stable sort: findings at one place keep their order), so that a JSON
    // report writes a run of them as one slice.
    places.sort((a, b) => compareInFile(result.findings[a] as Finding, result.findings[b] as Finding));
    const stored: StoredOk = [places, [], [], [], [], texts && okJsonHolds(result.findings) ? 1 : 0];
    const jsons: string[] = [];
    // Counted in the order their keys first came, which is the order of `ok` in the entry.
    const ok: OkCounts = new Map();
    const keys = new Map<string, number>();
    for (const at of places) {
      const finding = result.findings[at] as Finding;
      const countedAs = okKey(finding);
      ok.set(countedAs, (ok.get(countedAs) ?? 0) + 1);
      if (!texts) continue;
      let index = keys.get(countedAs);
      if (index === undefined) {
        index = keys.size;
        keys.set(countedAs, index);
      }
      // As a JSON report writes it, when the texts may stand for the findings there; else as it is.
      const json = stored[5] === 1 ? okReportJson(finding, countedAs) : JSON.stringify(finding);
      stored[1].push(finding.line);
      stored[2].push(finding.column);
      stored[3].push(index);
      stored[4].push(json.length);
      jsons.push(json);
    }
    const shapes: string[][] = [];
    const rows = encodeFindingRows(others, shapes);
    const entry: StoredEntry = {
      format: FORMAT,
      key,
      file,
      inputs,
      shapes,
      findings: rows,
      ok: [...ok],
      skippedInCode: result.skippedInCode,
      suppressed: result.suppressed,
      late: (result.lateSuppressions ?? []).map((suppression) => [suppression.line, suppression.rules] as const),
    };
    // Without the texts, the head alone: no tab, so nothing after it.
    const value = texts ? `${JSON.stringify(entry)}\t${JSON.stringify(stored)}\t${jsons.join(',')}` : JSON.stringify(entry);
    try {
      await this.#storage.write(key, file, value);
    } catch {
      // A cache that cannot be written costs the next run time, nothing else.
    }
  }

  #read(key: string, part: 'head' | 'tail'): MaybePromise<string | Uint8Array | null> {
    try {
      const text = this.#storage.read(key, part);
      return isPromise(text) ? text.catch(() => null) : text;
    } catch {
      return null;
    }
  }
}

/** Adds an entry's inputs (path, state, path, ...) to the states kept by path. */
function keepInputs(states: Map<string, string>, inputs: readonly string[]): void {
  for (let at = 0; at < inputs.length; at += 2) states.set(inputs[at] as string, inputs[at + 1] as string);
}

/** The paths a check looked at, each then its state, in path order (an entry's `inputs`). */
async function inputsOf(looked: Iterable<string>, artifacts: ArtifactCache): Promise<string[]> {
  const inputs: string[] = [];
  // The checks loaded every path they looked at: no promise per path for those.
  for (const path of [...new Set(looked)].sort()) inputs.push(path, artifactState(artifacts.peek(path) ?? (await artifacts.get(path))));
  return inputs;
}

/** What a lookup takes of an entry. */
interface Parsed extends Pick<Entry, 'inputs' | 'findings' | 'skippedInCode' | 'suppressed'> {
  readonly late: readonly Suppression[] | undefined;
  readonly ok: OkCounts | undefined;
  readonly okJson: OkJson | undefined;
}

/**
 * An entry, if its head (and, unless `mode` only counts, its tail) is one for this key and file;
 * anything else is not trusted. Its `ok` findings are, by `mode`: put back among the others where
 * they stood (`keep`), counted and left unread (`count`), or counted and handed on as their JSON
 * text (`json`; kept as in `keep` when the texts may not stand for them).
 */
function parse(head: string | Uint8Array | null, tail: string | Uint8Array | null, key: string, file: string, mode: OkMode): Parsed | null {
  if (head === null) return null;
  const entry = parseJson(typeof head === 'string' ? head : utf8.decode(head)) as Partial<StoredEntry> | null;
  if (typeof entry !== 'object' || entry === null) return null;
  if (entry.format !== FORMAT || entry.key !== key || entry.file !== file) return null;
  if (typeof entry.skippedInCode !== 'number' || typeof entry.suppressed !== 'number') return null;
  // Each input's shape is checked where the lookup reads it.
  if (!Array.isArray(entry.inputs)) return null;
  if (!Array.isArray(entry.ok) || !entry.ok.every(isOkCount)) return null;
  const findings = decodeFindingRows(entry.shapes, entry.findings, file);
  if (findings === null) return null;
  const late = suppressionsOf(entry.late);
  if (late === null) return null;
  const { inputs, ok, skippedInCode, suppressed } = entry as StoredEntry;
  // Built whole, property by property (a rest and a spread per entry cost a warm run more than parsing it).
  if (mode === 'count') return { inputs, findings, skippedInCode, suppressed, late, ok: new Map(ok), okJson: undefined };
  if (tail === null) return null;
  const tab = typeof tail === 'string' ? tail.indexOf('\t') : tail.indexOf(TAB);
  if (tab === -1) return null;
  const stored = parseJson(typeof tail === 'string' ? tail.slice(0, tab) : utf8.decode(tail.subarray(0, tab)));
  const count = ok.reduce((sum, [, counted]) => sum + counted, 0);
  if (!isStoredOk(stored, count)) return null;
  // Bytes stay bytes for a JSON report, which copies them; a finding is made of text.
  const bytes = typeof tail !== 'string' && mode === 'json' && stored[5] === 1;
  const texts = typeof tail === 'string' ? tail.slice(tab + 1) : bytes ? tail.subarray(tab + 1) : utf8.decode(tail.subarray(tab + 1));
  const ends = textEnds(stored[4], texts);
  if (ends === null) return null;
  // Each text's counted key; the texts of each key must add up to its count.
  const keys: string[] = [];
  const tally = ok.map(() => 0);
  for (const index of stored[3]) {
    const countedAs = ok[index]?.[0];
    if (countedAs === undefined) return null;
    keys.push(countedAs);
    tally[index] = (tally[index] as number) + 1;
  }
  if (ok.some(([, counted], index) => tally[index] !== counted)) return null;
  if (mode === 'json' && stored[5] === 1) {
    // One kind per counted key (a few per entry), not one split per text.
    const kindOf = ok.map(([countedAs]) => fromOkKey(countedAs).kind);
    const kinds = stored[3].map((index) => kindOf[index] as string);
    const okJson: OkJson = { lines: stored[1], columns: stored[2], kinds, keys, json: texts, ends };
    return { inputs, findings, skippedInCode, suppressed, late, ok: new Map(ok), okJson };
  }
  if (typeof texts !== 'string') return null;
  // The findings' own texts: a report text loses the verdicts it was stored with.
  let own = texts;
  if (stored[5] === 1 && count > 0) {
    const owns: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const text = okOwnJson(texts.slice(index === 0 ? 0 : (ends[index - 1] as number) + 1, ends[index]), keys[index] as string);
      if (text === null) return null;
      owns.push(text);
    }
    own = owns.join(',');
  }
  const okFindings = count === 0 ? [] : parseJson(`[${own}]`);
  if (!Array.isArray(okFindings) || okFindings.length !== count) return null;
  if (!okFindings.every((finding) => isFindingOf(finding, file) && finding.severity === 'ok')) return null;
  // Each where it stood among all the findings (places distinct, among them); the others fill the rest in their order.
  const all = new Array<Finding | undefined>(count + findings.length);
  for (let index = 0; index < count; index += 1) {
    const at = stored[0][index] as number;
    if (at >= all.length || all[at] !== undefined) return null;
    all[at] = okFindings[index] as Finding;
  }
  let other = 0;
  for (let at = 0; at < all.length; at += 1) if (all[at] === undefined) all[at] = findings[other++];
  return { inputs, findings: all as Finding[], skippedInCode, suppressed, late, ok: undefined, okJson: undefined };
}

/**
 * Where each text ends in `texts` (the texts joined by commas, as a string or as ASCII bytes), from
 * their lengths; `null` when they do not fill it exactly, or one is not a JSON object (the pack's
 * signature vouches for the bytes; this only refuses what is not laid out as {@link StoredOk} says).
 */
function textEnds(lengths: readonly number[], texts: string | Uint8Array): number[] | null {
  const codeAt = typeof texts === 'string' ? (at: number) => texts.charCodeAt(at) : (at: number) => texts[at];
  const ends: number[] = [];
  let from = 0;
  for (let at = 0; at < lengths.length; at += 1) {
    if (at > 0 && codeAt(from++) !== 0x2c) return null;
    const to = from + (lengths[at] as number);
    if (codeAt(from) !== 0x7b || codeAt(to - 1) !== 0x7d) return null;
    ends.push(to);
    from = to;
  }
  return from === texts.length ? ends : null;
}

/** Whether `value` is a {@link StoredOk} of `count` findings (where they stood is checked where it is used). */
function isStoredOk(value: unknown, count: number): value is StoredOk {
  if (!Array.isArray(value) || value.length !== 6 || (value[5] !== 0 && value[5] !== 1)) return false;
  for (let column = 0; column < 5; column += 1) {
    const numbers: unknown = value[column];
    if (!Array.isArray(numbers) || numbers.length !== count || !numbers.every((number) => Number.isInteger(number) && number >= 0)) {
      return false;
    }
  }
  return true;
}

/** An entry's `late` as suppressions (`undefined` when there are none); `null` when it is not laid out as `[line, rules]`. */
function suppressionsOf(value: unknown): readonly Suppression[] | undefined | null {
  if (!Array.isArray(value)) return null;
  if (value.length === 0) return undefined;
  const out: Suppression[] = [];
  for (const item of value) {
    if (!Array.isArray(item) || item.length !== 2 || !Number.isInteger(item[0])) return null;
    const rules: unknown = item[1];
    if (!Array.isArray(rules) || !rules.every((rule) => typeof rule === 'string')) return null;
    out.push({ line: item[0] as number, rules: rules as string[] });
  }
  return out;
}

function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return value instanceof Promise;
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

  /**
   * Passed on, not recorded as an input: a stored result never holds a mention (an uncacheable
   * kind), and a kept answer compares each mention's resolution itself.
   */
  override dependsOn(path: string): void {
    this.#run.dependsOn(path);
  }
}
