import {
  ArtifactCache,
  type ArtifactReader,
  appendAll,
  buildReport,
  type CheckOptions,
  type Coverage,
  checkDocumentBatch,
  type DocumentChecker,
  type DocumentOutcome,
  describeSkip,
  type Finding,
  type HistoryAnswer,
  type HistoryFacts,
  type Pin,
  pinKey,
  type Report,
  rlmChecker,
  type Sha256,
  type SkipReason,
  type Summary,
} from '@aiwg-cite/core';
import { watchMessages } from './messages.ts';

/** Options of a {@link WatchEngine}. */
export interface WatchEngineOptions {
  /** Reads documents and artifacts, confined to the root. */
  readonly reader: ArtifactReader;
  readonly sha256?: Sha256;
  /** The same options `check` takes (strict, include-code, overrides). */
  readonly check?: CheckOptions;
  /** The checks to run. @default [rlmChecker] */
  readonly checkers?: readonly DocumentChecker[];
  /** Documents larger than this many bytes are reported and skipped (the core's document policy). @default 8388608 (8 MiB) */
  readonly maxDocumentBytes?: number;
  /**
   * The pipeline's history stage (git's facts on stale pins), so a fabricated hash is
   * `unknown-hash` here as in `check`. Absent outside git.
   */
  readonly history?: HistoryFacts;
  /** Milliseconds since the epoch; injected so tests need no real clock. @default Date.now */
  readonly clock?: () => number;
  /** How many documents a full load checks at once. @default 32 */
  readonly concurrency?: number;
  /**
   * Called before each load and batch checks documents: the checkers forget what they found of the
   * tree outside the reader (where each `@`-mention target resolved), which may have changed since.
   */
  readonly beforeCheck?: () => void;
  /**
   * Whether what a check finds of a file that is not there depends on git's ignore rules (an
   * `@`-mention of a git-ignored file is `ignored`, not `missing`): a `.gitignore` among a batch's
   * paths then checks again the documents that looked up, below its folder, a path that was no file.
   */
  readonly missingFollowsIgnores?: boolean;
}

/** What the checks run with, which a watch reads again when the configuration or the corpus changes. */
export interface EngineSettings {
  /** The same options `check` takes (strict, include-code, overrides). */
  readonly check: CheckOptions;
  readonly checkers: readonly DocumentChecker[];
}

/** A document that is in scope but could not be checked. */
export interface SkippedDocument {
  readonly file: string;
  readonly reason: string;
}

/** A citation whose status changed, appeared (`before` null) or disappeared (`after` null). */
export interface VerdictChange {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly kind: string;
  readonly text: string;
  readonly before: string | null;
  readonly after: string | null;
}

/** What one batch did to the engine's state. */
export interface EngineUpdate {
  /**
   * `load` for a full (re)check, `change` for a batch of file events, `settings` for a batch that
   * changed the configuration or the corpus (every document checked again with them).
   */
  readonly reason: 'load' | 'change' | 'settings';
  readonly changes: readonly VerdictChange[];
  /** Documents checked again in this update. */
  readonly rechecked: number;
  /** Paths reported changed in the batch. */
  readonly paths: number;
  /** Whether the set of documents or of cited artifacts changed (the watcher may need new paths). */
  readonly scopeChanged: boolean;
  /** When the update started, milliseconds since the epoch. */
  readonly startedAt: number;
  readonly durationMs: number;
}

/** A batch of file-system changes, as root-relative POSIX paths. */
export interface ChangeBatch {
  /** Files that were added, changed or removed (any of them, the engine re-reads). */
  readonly paths: Iterable<string>;
  /** Directories that were added, removed or renamed: everything known below them is re-read. */
  readonly directories?: Iterable<string>;
  /** The complete new set of documents in scope, when the caller re-discovered it. */
  readonly documents?: readonly string[];
  /**
   * Git's refs or index changed (a fetch, a commit, a branch deleted), which no file event says:
   * git is asked again about the stale pins the documents hold, and the documents it now answers
   * otherwise for are checked again.
   */
  readonly history?: boolean;
}

/** Sizes of the engine's retained state, for the soak test: they track the data, never the history. */
export interface EngineStats {
  readonly documents: number;
  readonly findings: number;
  /** Distinct artifact paths in the artifact → documents index. */
  readonly artifacts: number;
  /** Document → artifact edges in the index. */
  readonly edges: number;
  readonly skipped: number;
}

/** A consistent view for the dashboard: the summary and the citations that need attention. */
export interface EngineSnapshot {
  readonly summary: Summary;
  readonly verdict: 'PASS' | 'FAIL';
  /** Findings whose severity is not `ok`, ordered by document then position. */
  readonly attention: readonly Finding[];
  readonly documents: number;
  readonly skipped: readonly SkippedDocument[];
}

interface DocumentState {
  /** The document's own report: findings escalated and sorted, and its summary. */
  readonly report: Report;
  /** The raw findings, as `checkDocument` returned them (for the whole-run report). */
  readonly findings: readonly Finding[];
  readonly artifacts: ReadonlySet<string>;
  readonly skippedInCode: number;
  readonly suppressed: number;
}

const EMPTY_COVERAGE: Coverage = { skippedInCode: 0, suppressed: 0, notes: [] };

/**
 * Keeps a set of documents verified as files change. It holds each document's findings and an
 * index from every artifact a document asked for (cited, or looked up for a bare `[name]`) to
 * the documents that asked, so a changed source file re-verifies only the documents citing it,
 * and a changed document is re-extracted alone. Hashes are shared through one
 * {@link ArtifactCache}, invalidated per path. No terminal, no watcher: tested on real files.
 */
export class WatchEngine {
  readonly #reader: ArtifactReader;
  readonly #sha256: Sha256 | undefined;
  #options: CheckOptions;
  #checkers: readonly DocumentChecker[];
  readonly #history: HistoryFacts | undefined;
  /** The run notes of the batches that left some (history: a shallow clone, untracked cited files; a UTF-16 document). */
  #historyNotes: string[] = [];
  /**
   * The documents last checked in a batch that left run notes. Such a note counts over the whole
   * run, which the engine's batches do not add up to, so it stands until each of these documents
   * was checked again in a batch that left none (or is gone); then the notes go.
   */
  readonly #noted = new Set<string>();
  readonly #clock: () => number;
  readonly #concurrency: number;
  readonly #beforeCheck: (() => void) | undefined;
  readonly #missingFollowsIgnores: boolean;
  #cache: ArtifactCache;
  readonly #documents = new Map<string, DocumentState>();
  /** Documents in scope that could not be checked, with why. */
  readonly #skipped = new Map<string, SkipReason>();
  readonly #citedBy = new Map<string, Set<string>>();
  /**
   * Documents whose verdicts git's history stage decided: their stale pins (`BatchOutcome.pinned`)
   * and what git answered for them when they were last checked ({@link factsOf}).
   */
  readonly #pinned = new Map<string, { readonly pins: readonly Pin[]; readonly facts: string }>();
  #order: string[] | null = null;
  /** Documents whose state changed since the last {@link takeChanges}; `null`: all of them (a load). */
  #changed: Set<string> | null = null;
  #tail: Promise<unknown> = Promise.resolve();

  constructor(options: WatchEngineOptions) {
    this.#reader = options.reader;
    this.#sha256 = options.sha256;
    this.#options = {
      ...options.check,
      ...(options.maxDocumentBytes === undefined ? {} : { maxDocumentBytes: options.maxDocumentBytes }),
    };
    this.#checkers = options.checkers ?? [rlmChecker];
    this.#history = options.history;
    this.#clock = options.clock ?? Date.now;
    this.#concurrency = options.concurrency ?? 32;
    this.#beforeCheck = options.beforeCheck;
    this.#missingFollowsIgnores = options.missingFollowsIgnores === true;
    this.#cache = new ArtifactCache(this.#reader, this.#sha256);
  }

  /**
   * Checks every document from scratch with a fresh hash cache: the first load, `a` (re-verify
   * all), and new `settings` (the configuration or the corpus changed). Changes are reported
   * against the previous state.
   */
  load(documents: readonly string[], settings?: EngineSettings): Promise<EngineUpdate> {
    return this.#exclusive(async () => {
      const startedAt = this.#clock();
      const before = this.#captureAll();
      if (settings !== undefined) {
        this.#options = {
          ...settings.check,
          ...(this.#options.maxDocumentBytes === undefined ? {} : { maxDocumentBytes: this.#options.maxDocumentBytes }),
        };
        this.#checkers = settings.checkers;
      }
      this.#cache = new ArtifactCache(this.#reader, this.#sha256);
      this.#documents.clear();
      this.#skipped.clear();
      this.#citedBy.clear();
      this.#pinned.clear();
      this.#order = null;
      const unique = [...new Set(documents)];
      this.#historyNotes = [];
      this.#noted.clear();
      this.#changed = null;
      await this.#recheck(unique);
      const changes = diffAll(before, this.#captureAll());
      return {
        reason: 'load',
        changes,
        rechecked: unique.length,
        paths: 0,
        scopeChanged: true,
        startedAt,
        durationMs: this.#clock() - startedAt,
      };
    });
  }

  /** Applies a batch of file-system changes and re-verifies only what they affect. */
  apply(batch: ChangeBatch): Promise<EngineUpdate> {
    return this.#exclusive(async () => {
      const startedAt = this.#clock();
      const affected = new Set<string>();
      let paths = 0;
      for (const path of batch.paths) {
        paths += 1;
        this.#cache.invalidate(path);
        if (this.#documents.has(path) || this.#skipped.has(path)) affected.add(path);
        for (const document of this.#citedBy.get(path) ?? []) affected.add(document);
        if (this.#missingFollowsIgnores && isGitignore(path)) {
          const prefix = path.slice(0, -'.gitignore'.length);
          for (const [artifact, citing] of this.#citedBy) {
            if (!artifact.startsWith(prefix) || this.wasFile(artifact)) continue;
            this.#cache.invalidate(artifact);
            for (const document of citing) affected.add(document);
          }
        }
      }
      for (const directory of batch.directories ?? []) {
        paths += 1;
        const prefix = directory === '' ? '' : `${directory}/`;
        for (const [artifact, citing] of this.#citedBy) {
          if (artifact !== directory && !artifact.startsWith(prefix)) continue;
          this.#cache.invalidate(artifact);
          for (const document of citing) affected.add(document);
        }
        for (const document of this.#allDocuments()) if (document.startsWith(prefix)) affected.add(document);
      }
      if (batch.history === true) for (const document of await this.#pinsMoved()) affected.add(document);
      let scopeChanged = false;
      const removed: string[] = [];
      if (batch.documents !== undefined) {
        const next = new Set(batch.documents);
        for (const document of this.#allDocuments()) if (!next.has(document)) removed.push(document);
        for (const document of next) {
          if (!this.#documents.has(document) && !this.#skipped.has(document)) affected.add(document);
        }
      }
      const touched = [...new Set([...affected, ...removed])];
      const before = new Map(touched.map((file) => [file, this.#capture(file)]));
      for (const document of removed) {
        affected.delete(document);
        scopeChanged = this.#forget(document) || scopeChanged;
      }
      scopeChanged = (await this.#recheck([...affected])) || scopeChanged;
      const changes: VerdictChange[] = [];
      for (const file of touched.sort()) appendAll(changes, diffDocument(before.get(file) ?? [], this.#capture(file)));
      return {
        reason: 'change',
        changes,
        rechecked: affected.size,
        paths,
        scopeChanged,
        startedAt,
        durationMs: this.#clock() - startedAt,
      };
    });
  }

  /** Whether a path is a document in scope (checked or skipped). */
  hasDocument(path: string): boolean {
    return this.#documents.has(path) || this.#skipped.has(path);
  }

  /** Whether any document cites (or looked up) this artifact path. */
  isCited(path: string): boolean {
    return this.#citedBy.has(path);
  }

  /** Whether an artifact was a readable file when it was last read (`false` when unknown or not a file). */
  wasFile(path: string): boolean {
    return this.#cache.peek(path)?.kind === 'file';
  }

  /** The documents in scope, sorted. */
  documents(): string[] {
    return [...this.#allDocuments()].sort();
  }

  /** Every artifact path some document asked for. */
  artifacts(): string[] {
    return [...this.#citedBy.keys()];
  }

  /** The documents that cite an artifact. */
  citing(artifact: string): string[] {
    return [...(this.#citedBy.get(artifact) ?? [])].sort();
  }

  /** The same report `check --format json` builds for the same tree (skipped documents noted). */
  report(): Report {
    const findings: Finding[] = [];
    const coverage: Coverage = { skippedInCode: 0, suppressed: 0, notes: [] };
    for (const state of this.#documents.values()) {
      appendAll(findings, state.findings);
      coverage.skippedInCode += state.skippedInCode;
      coverage.suppressed += state.suppressed;
    }
    for (const [file, reason] of [...this.#skipped].sort(([a], [b]) => (a < b ? -1 : 1)))
      coverage.notes.push(watchMessages.skippedDocument(file, describeSkip(reason)));
    coverage.notes.push(...this.#historyNotes);
    return buildReport(findings, this.#documents.size, coverage, this.#options);
  }

  /**
   * A document's outcome of stages 2–6 as the engine's last check of it gave it (a skipped one with
   * its reason), for `check`'s report over the same documents (core `finishPipeline`); `undefined`
   * for a path that is not a document of the engine. The findings of a checked document are the
   * same array until it is checked again.
   */
  outcomeOf(file: string): Extract<DocumentOutcome, { kind: 'checked' | 'skipped' }> | undefined {
    const state = this.#documents.get(file);
    if (state !== undefined)
      return { kind: 'checked', findings: state.findings, skippedInCode: state.skippedInCode, suppressed: state.suppressed };
    const reason = this.#skipped.get(file);
    return reason === undefined ? undefined : { kind: 'skipped', reason };
  }

  /**
   * Whether the history stage left a coverage note (shallow clone, no commits, untracked cited
   * files) that still stands: its count is over the whole run, which the engine's batches do not
   * add up to. It stands until every document checked in a batch that left one was checked again
   * in a batch that left none, or is gone.
   */
  get hasHistoryNotes(): boolean {
    return this.#historyNotes.length > 0;
  }

  /**
   * The documents whose outcome changed (checked again, skipped, forgotten) since the last call;
   * `null` when every one may have (the first call, and after a load).
   */
  takeChanges(): ReadonlySet<string> | null {
    const changed = this.#changed;
    this.#changed = new Set();
    return changed;
  }

  /** Summary and attention list, assembled from per-document reports without re-sorting everything. */
  snapshot(): EngineSnapshot {
    const summary = emptySummary();
    const attention: Finding[] = [];
    for (const file of this.#sortedDocuments()) {
      const state = this.#documents.get(file);
      if (state === undefined) continue;
      addSummary(summary, state.report.summary);
      for (const finding of state.report.citations) if (finding.severity !== 'ok') attention.push(finding);
    }
    summary.files = this.#documents.size;
    const failed = summary.errors > 0 || summary.warnings > (this.#options.maxWarnings ?? Number.POSITIVE_INFINITY);
    const skipped = [...this.#skipped]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([file, reason]) => ({ file, reason: describeSkip(reason) }));
    return { summary, verdict: failed ? 'FAIL' : 'PASS', attention, documents: this.#documents.size, skipped };
  }

  /** Sizes of the retained state. */
  stats(): EngineStats {
    let findings = 0;
    let edges = 0;
    for (const state of this.#documents.values()) {
      findings += state.findings.length;
      edges += state.artifacts.size;
    }
    return { documents: this.#documents.size, findings, artifacts: this.#citedBy.size, edges, skipped: this.#skipped.size };
  }

  /** Resolves once no state change (a load, a batch) is running or queued. */
  async idle(): Promise<void> {
    for (let tail = this.#tail; ; tail = this.#tail) {
      await tail;
      if (tail === this.#tail) return;
    }
  }

  /** Runs one state change at a time, in call order. */
  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(work, work);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  *#allDocuments(): Iterable<string> {
    yield* this.#documents.keys();
    yield* this.#skipped.keys();
  }

  #sortedDocuments(): string[] {
    if (this.#order === null) this.#order = [...this.#documents.keys()].sort();
    return this.#order;
  }

  /**
   * Reads and checks documents again through the pipeline's stages 2–6 (the function `check`
   * runs: admission, verdicts, one history lookup for the batch, settling); returns whether the
   * set of documents or of artifacts changed.
   */
  async #recheck(files: readonly string[]): Promise<boolean> {
    if (files.length === 0) return false;
    this.#beforeCheck?.();
    const seen = new Map<string, Set<string>>();
    // What git answered for this batch's pins (one lookup per batch), kept with each pinned document.
    let answered: HistoryAnswer | null = null;
    const inner = this.#history;
    const history: HistoryFacts | undefined =
      inner === undefined
        ? undefined
        : {
            lookup: async (pins) => {
              answered = await inner.lookup(pins);
              return answered;
            },
          };
    const outcomes = await checkDocumentBatch(files, {
      reader: this.#reader,
      artifactsFor: (file) => {
        const paths = new Set<string>();
        seen.set(file, paths);
        return recordingArtifacts(this.#cache, paths);
      },
      ...(history === undefined ? {} : { history, tellPins: true }),
      options: { ...this.#options, concurrency: this.#concurrency },
      checkers: this.#checkers,
    });
    for (const note of outcomes.notes) if (!this.#historyNotes.includes(note)) this.#historyNotes.push(note);
    for (const file of files) {
      if (outcomes.notes.length > 0) this.#noted.add(file);
      else this.#noted.delete(file);
    }
    if (this.#noted.size === 0) this.#historyNotes = [];
    let changed = false;
    for (const file of files) {
      const pins = outcomes.pinned.get(file);
      if (pins === undefined) this.#pinned.delete(file);
      else this.#pinned.set(file, { pins, facts: factsOf(answered, pins) });
      const outcome = outcomes.get(file);
      if (outcome === undefined) continue;
      changed = this.#record(file, outcome, seen.get(file) ?? new Set()) || changed;
    }
    return changed;
  }

  /** Takes one document's outcome into the state; returns whether its document or artifact set changed. */
  #record(file: string, outcome: DocumentOutcome, seen: ReadonlySet<string>): boolean {
    this.#changed?.add(file);
    if (outcome.kind === 'gone') return this.#forget(file);
    if (outcome.kind === 'skipped') {
      this.#forget(file);
      this.#skipped.set(file, outcome.reason);
      return true;
    }
    const result = outcome;
    const previous = this.#documents.get(file);
    const wasSkipped = this.#skipped.delete(file);
    const report = buildReport(result.findings, 1, EMPTY_COVERAGE, this.#options);
    this.#documents.set(file, {
      report,
      findings: result.findings,
      artifacts: seen,
      skippedInCode: result.skippedInCode,
      suppressed: result.suppressed,
    });
    if (previous === undefined) this.#order = null;
    const indexChanged = this.#reindex(file, previous?.artifacts ?? new Set(), seen);
    return previous === undefined || wasSkipped || indexChanged;
  }

  /** Drops a document and its index edges; returns whether anything was known about it. */
  #forget(file: string): boolean {
    this.#changed?.add(file);
    this.#pinned.delete(file);
    this.#noted.delete(file);
    if (this.#noted.size === 0) this.#historyNotes = [];
    const previous = this.#documents.get(file);
    const wasSkipped = this.#skipped.delete(file);
    if (previous === undefined) return wasSkipped;
    this.#documents.delete(file);
    this.#order = null;
    this.#reindex(file, previous.artifacts, new Set());
    return true;
  }

  /** Moves a document's index edges from `before` to `after`; an artifact nobody cites leaves the cache. */
  #reindex(file: string, before: ReadonlySet<string>, after: ReadonlySet<string>): boolean {
    let changed = false;
    for (const artifact of before) {
      if (after.has(artifact)) continue;
      const citing = this.#citedBy.get(artifact);
      citing?.delete(file);
      if (citing !== undefined && citing.size === 0) {
        this.#citedBy.delete(artifact);
        this.#cache.invalidate(artifact);
        changed = true;
      }
    }
    for (const artifact of after) {
      if (before.has(artifact)) continue;
      let citing = this.#citedBy.get(artifact);
      if (citing === undefined) {
        citing = new Set();
        this.#citedBy.set(artifact, citing);
        changed = true;
      }
      citing.add(file);
    }
    return changed;
  }

  /**
   * After git's refs or index moved: asks git once for every pin the pinned documents hold, and
   * names the documents for which it answers otherwise than when they were last checked (only
   * those can get another verdict).
   */
  async #pinsMoved(): Promise<string[]> {
    const history = this.#history;
    if (history === undefined || this.#pinned.size === 0) return [];
    const pins = new Map<string, Pin>();
    for (const { pins: held } of this.#pinned.values()) for (const pin of held) pins.set(pinKey(pin), pin);
    const answer = await history.lookup([...pins.values()]);
    const moved: string[] = [];
    for (const [file, held] of this.#pinned) if (factsOf(answer, held.pins) !== held.facts) moved.push(file);
    return moved;
  }

  #capture(file: string): readonly Finding[] {
    return this.#documents.get(file)?.report.citations ?? [];
  }

  #captureAll(): Map<string, readonly Finding[]> {
    const out = new Map<string, readonly Finding[]>();
    for (const [file, state] of this.#documents) out.set(file, state.report.citations);
    return out;
  }
}

/**
 * The shared cache seen through one document: every path the document's checks ask about is
 * recorded, which is how the engine learns what a document depends on, including bare `[name]`
 * lookups of files that do not exist yet. A proxy rather than a subclass, so every method the
 * cache has or gains (`get`, `peek`, `loadAll`, …) reaches the one shared instance: a method's
 * path argument (a string, or an iterable of strings) is recorded before the call.
 */
function recordingArtifacts(shared: ArtifactCache, seen: Set<string>): ArtifactCache {
  return new Proxy(shared, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        recordPaths(args[0], seen);
        return (value as (...inner: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

function recordPaths(argument: unknown, seen: Set<string>): void {
  if (typeof argument === 'string') {
    seen.add(argument);
    return;
  }
  if (typeof argument !== 'object' || argument === null || !(Symbol.iterator in argument)) return;
  // Copying an iterable may consume it (a generator); only arrays and sets are read here.
  if (Array.isArray(argument) || argument instanceof Set) {
    for (const item of argument) if (typeof item === 'string') seen.add(item);
  }
}

/** The identity of a citation inside its document that survives lines moving: text and occurrence. */
function keysOf(findings: readonly Finding[]): Map<string, Finding> {
  const seen = new Map<string, number>();
  const out = new Map<string, Finding>();
  for (const finding of findings) {
    const base = `${finding.kind}\u0000${finding.text}`;
    const occurrence = seen.get(base) ?? 0;
    seen.set(base, occurrence + 1);
    out.set(`${base}\u0000${occurrence}`, finding);
  }
  return out;
}

function diffDocument(before: readonly Finding[], after: readonly Finding[]): VerdictChange[] {
  if (before === after) return [];
  const old = keysOf(before);
  const next = keysOf(after);
  const changes: VerdictChange[] = [];
  for (const [key, finding] of next) {
    const previous = old.get(key);
    if (previous?.status === finding.status) continue;
    changes.push(toChange(finding, previous?.status ?? null, finding.status));
  }
  for (const [key, finding] of old) if (!next.has(key)) changes.push(toChange(finding, finding.status, null));
  return changes.sort((a, b) => a.line - b.line || a.column - b.column);
}

function diffAll(before: Map<string, readonly Finding[]>, after: Map<string, readonly Finding[]>): VerdictChange[] {
  const files = [...new Set([...before.keys(), ...after.keys()])].sort();
  return files.flatMap((file) => diffDocument(before.get(file) ?? [], after.get(file) ?? []));
}

function toChange(finding: Finding, before: string | null, after: string | null): VerdictChange {
  return { file: finding.file, line: finding.line, column: finding.column, kind: finding.kind, text: finding.text, before, after };
}

function emptySummary(): Summary {
  return {
    files: 0,
    citations: 0,
    errors: 0,
    warnings: 0,
    infos: 0,
    rlm: { total: 0, fresh: 0, stale: 0, unversioned: 0, missing: 0, malformed: 0, invalidRange: 0 },
    kinds: {},
  };
}

function addSummary(total: Summary, part: Summary): void {
  total.citations += part.citations;
  total.errors += part.errors;
  total.warnings += part.warnings;
  total.infos += part.infos;
  for (const key of Object.keys(total.rlm) as (keyof Summary['rlm'])[]) total.rlm[key] += part.rlm[key];
  for (const [kind, statuses] of Object.entries(part.kinds)) {
    const into = total.kinds[kind] ?? {};
    for (const [status, count] of Object.entries(statuses)) into[status] = (into[status] ?? 0) + count;
    total.kinds[kind] = into;
  }
}

/**
 * What git's answer says of some pins, as one comparable string: the kind of answer, the sources
 * searched (they are in the message) and each pin's facts; `null` answer (none asked) never
 * compares equal to a real one.
 */
function factsOf(answer: HistoryAnswer | null, pins: readonly Pin[]): string {
  if (answer === null) return '\u0000none';
  if (answer.kind !== 'facts') return JSON.stringify([answer.kind, answer.kind === 'incomplete' ? answer.reason : null]);
  return JSON.stringify(['facts', answer.searched, pins.map((pin) => answer.facts.get(pinKey(pin)) ?? null)]);
}

/** Whether a root-relative path is a `.gitignore` file (at the root or in a folder). */
export function isGitignore(path: string): boolean {
  return path === '.gitignore' || path.endsWith('/.gitignore');
}
