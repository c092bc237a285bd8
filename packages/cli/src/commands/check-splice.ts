import {
  type ArtifactCache,
  type BatchOutcome,
  batchPortsOf,
  checkDocumentBatch,
  type Discovery,
  type DocumentOutcome,
  encodeFindingRows,
  type Finding,
  findingRowsDecoder,
  finishPipeline,
  historyMessages,
  type OkJson,
  type PipelinePlan,
  type PipelineResult,
  type RunStage,
  type SkipReason,
  sameItems,
  type TextTemplate,
  TextTemplates,
  verdictJsonWriter,
} from '@aiwg-cite/core';
import type { SignedBody } from '@aiwg-cite/node';
import { type Piece, writeCheckJson, writeCitations } from '../format/json.ts';

/**
 * A kept answer built again after some of its documents changed (issues 13 and 18): a `check`
 * over every document in which only a few documents' bytes changed since the run that kept its
 * answer, or the bytes of artifacts a few documents cite, checks those documents alone, takes
 * every other document's outcome as that run had it, runs the run-level stages and builds the
 * report over them all (core `finishPipeline`, as every run does), and prints it; a JSON report
 * copies each unchanged document's part of the kept output instead of writing it again. The
 * report is the one a run over every document gives, by construction: the same outcomes go
 * through the same stages. Where that cannot be assured, the splice declines and the run checks
 * as it would have (see {@link spliceAnswer}).
 */

/**
 * What the kept answer keeps besides its output so that a changed run can be built from it: each
 * document's outcome of stages 2–6 (the findings, counts, and where each counted key first stood,
 * never the texts of the citations that checked out), the body identities and left-out copies,
 * the documents checked and not stored (which a splice checks again: a run-level note counts what
 * they held back), and for a JSON answer where each document's elements of `citations` stand in
 * the output. Documents are named by their index in the run's documents (the kept answer's, which
 * a splice's discovery equals), findings by rows under shared shapes, their texts in a shared
 * table (long ones as templates over the others; core `encodeFindingRows`): at 100,000 documents
 * this is most of what the kept answer holds.
 */
export interface KeptParts {
  /** Each document's outcome, in the order of the run's documents. */
  readonly outcomes: readonly KeptOutcome[];
  /** The shapes of the findings' rows. */
  readonly shapes: readonly (readonly string[])[];
  /** The templates of the findings' long texts. */
  readonly templates: readonly TextTemplate[];
  /** The counted keys of the citations that checked out, which `ok` and `firsts` name by index. */
  readonly keys: readonly string[];
  /** Each document's body identity (`null`: none was taken). */
  readonly bodies: readonly (string | null)[];
  readonly leftOut: readonly string[];
  readonly unstored: readonly string[];
  /** The documents with stale pins, which the history stage asked git about. */
  readonly pinned: readonly number[];
  /** The history stage's note that git's history is incomplete (a shallow clone, no commits), or `null`. */
  readonly incomplete: string | null;
  /** JSON: each document's elements of `citations` in the output (document, first byte, past the last), in report order. */
  readonly places: readonly (readonly [number, number, number])[] | null;
  /**
   * Each document's inputs, by their index among the kept answer's inputs (`null`: not known), so
   * that a changed artifact names the documents to check again; `null` when none are kept.
   */
  readonly inputs: readonly (readonly number[] | null)[] | null;
}

/**
 * A document's outcome as kept: checked (its findings' rows, the citations in code and the
 * suppressed ones counted, the citations that checked out counted by key in the order the
 * document first had each, and each key's first text: line, column, kind, key), or skipped.
 */
type KeptOutcome =
  | readonly [
      rows: readonly unknown[],
      skippedInCode: number,
      suppressed: number,
      ok: readonly (readonly [number, number])[] | null,
      firsts: readonly (readonly [number, number, string, number])[] | null,
    ]
  | { readonly skip: SkipReason };

/** The formats whose answer a splice can build: JSON (copying the kept parts) and those that count what checked out. */
export const SPLICED_FORMATS: ReadonlySet<string> = new Set(['json', 'pretty', 'sarif', 'github']);

/**
 * A run-level stage that tells whether it revised or added a finding: a JSON splice copies the
 * kept elements of unchanged documents, which holds only while no run-level stage touches a
 * finding (its findings can stand at any document: `corpus/absent` at the first id it counts).
 */
export function watchedStage(stage: RunStage | undefined): { readonly stage: RunStage | undefined; readonly touched: () => boolean } {
  let touched = false;
  if (stage === undefined) return { stage, touched: () => false };
  return {
    stage: {
      async run(findings, documents, ok) {
        const added = await stage.run(findings, documents, ok);
        if (added.revised !== undefined || (added.findings?.length ?? 0) > 0) touched = true;
        return added;
      },
    },
    touched: () => touched,
  };
}

/**
 * The note of the history stage that a splice can give again: git's history is incomplete, which
 * the stage says whenever a document has a stale pin; `undefined` for other notes (how many pins
 * name untracked files, a document read as UTF-16), which count over documents a splice does not
 * check. Outcomes tell their pins (core `PipelinePlan.tellPins`).
 */
function incompleteNote(notes: readonly string[]): string | null | undefined {
  if (notes.length === 0) return null;
  const [note] = notes;
  return notes.length === 1 && (note === historyMessages.shallow() || note === historyMessages.noCommits()) ? note : undefined;
}

/**
 * The parts a splice built its answer from, for the parts of that answer: the kept answer's
 * documents and parts, and the documents the splice checked. Every other document's outcome is the
 * one kept (decoded, it gave the splice's), so it is kept again as it was, under the same shapes,
 * templates and keys, instead of being encoded anew.
 */
export interface PartsBase {
  readonly kept: readonly string[];
  readonly parts: KeptParts;
  readonly checked: ReadonlySet<string>;
}

/**
 * The parts a run over every document keeps beside its answer, or `null` when a splice could not
 * build its answer from them: an outcome that is neither checked nor skipped, a finding of another
 * document, or notes of stages 2–6 that speak of documents a splice does not check
 * ({@link incompleteNote}). `shown`: the report's documents (the others are the copies left out).
 */
export function keptParts(
  documents: readonly string[],
  outcomes: BatchOutcome,
  shown: readonly string[],
  unstored: ReadonlySet<string>,
  places: readonly (readonly [string, number, number])[] | null,
  inputs: readonly (readonly number[] | null)[] | null,
  base?: PartsBase,
): KeptParts | null {
  const incomplete = incompleteNote(outcomes.notes);
  if (incomplete === undefined) return null;
  const shapes: string[][] = base === undefined ? [] : base.parts.shapes.map((shape) => [...shape]);
  const templates = base === undefined ? new TextTemplates() : TextTemplates.from(base.parts.templates);
  const keys = new Map<string, number>(base?.parts.keys.map((key, at) => [key, at]));
  const keptAt = base === undefined ? null : keptPlaces(base.kept, documents);
  const keyOf = (key: string): number => {
    let at = keys.get(key);
    if (at === undefined) {
      at = keys.size;
      keys.set(key, at);
    }
    return at;
  };
  const kept: KeptOutcome[] = [];
  const index = new Map<string, number>();
  for (const [at, file] of documents.entries()) {
    index.set(file, at);
    const before = base === undefined || base.checked.has(file) ? undefined : keptAt?.at(file, at);
    const keptOutcome = before === undefined ? undefined : base?.parts.outcomes[before];
    if (keptOutcome !== undefined) {
      kept.push(keptOutcome);
      continue;
    }
    const outcome = outcomes.get(file);
    if (outcome === undefined || outcome.kind === 'gone') return null;
    if (outcome.kind === 'skipped') {
      kept.push({ skip: outcome.reason });
      continue;
    }
    if (outcome.findings.some((finding) => finding.file !== file)) return null;
    const texts = outcome.okJson;
    kept.push([
      encodeFindingRows(outcome.findings, shapes, templates),
      outcome.skippedInCode,
      outcome.suppressed,
      outcome.ok === undefined ? null : [...outcome.ok].map(([key, count]) => [keyOf(key), count] as const),
      texts === undefined ? null : firstTexts(texts).map((first) => [first[0], first[1], first[2], keyOf(first[3])] as const),
    ]);
  }
  const placed: [number, number, number][] = [];
  for (const [file, start, end] of places ?? []) {
    const at = index.get(file);
    if (at === undefined) return null;
    placed.push([at, start, end]);
  }
  return {
    outcomes: kept,
    shapes,
    templates: templates.list,
    keys: [...keys.keys()],
    bodies: documents.map((file) => outcomes.bodies.get(file) ?? null),
    leftOut: leftOutOf(documents, shown),
    unstored: [...unstored],
    pinned: documents.flatMap((file, at) => (outcomes.pinned.has(file) ? [at] : [])),
    incomplete,
    places: places === null ? null : placed,
    inputs: inputs?.length === documents.length ? inputs : null,
  };
}

/**
 * The documents (by index) whose kept outcome depends on one of the changed inputs (by index
 * among the kept answer's inputs), or whose inputs are not known; `null` when the parts keep none.
 */
export function dependingOn(parts: KeptParts, changed: ReadonlySet<number>): number[] | null {
  if (parts.inputs === null) return null;
  const depending: number[] = [];
  parts.inputs.forEach((inputs, at) => {
    if (!Array.isArray(inputs) || inputs.some((input) => changed.has(input))) depending.push(at);
  });
  return depending;
}

/** The discovered documents the report does not have (the copies left out), in the order of discovery. */
function leftOutOf(documents: readonly string[], shown: readonly string[]): string[] {
  const kept = new Set(shown);
  return documents.filter((document) => !kept.has(document));
}

/** Each counted key's first text: all the summary asks of a document's texts (core `buildReport`). */
function firstTexts(texts: OkJson): [number, number, string, string][] {
  const seen = new Set<string>();
  const firsts: [number, number, string, string][] = [];
  texts.keys.forEach((key, at) => {
    if (seen.has(key)) return;
    seen.add(key);
    firsts.push([texts.lines[at] as number, texts.columns[at] as number, texts.kinds[at] as string, key]);
  });
  return firsts;
}

/**
 * What decodes the kept outcomes of a splice's documents: their rows of findings (core
 * `findingRowsDecoder`), and the counts of the citations that checked out, each set of counts made
 * once and shared by the outcomes that have it (most documents count the same few keys alike; the
 * report only reads them): at 100,000 documents, 100,000 maps fewer for the garbage collector.
 */
interface OutcomeDecoder {
  readonly rows: (rows: unknown, file: string) => Finding[] | null;
  readonly okCounts: Map<string, ReadonlyMap<string, number>>;
}

/** No findings, shared by the outcomes of documents that have none. */
const NO_FINDINGS: readonly Finding[] = Object.freeze([]);

/**
 * The outcome a kept one stands for, or `null` when its rows do not fit their shapes or name no
 * kept key. Its texts hold no JSON: a splice copies them from the kept output.
 */
function outcomeOf(kept: KeptOutcome, file: string, parts: KeptParts, decoder: OutcomeDecoder): DocumentOutcome | null {
  if ('skip' in kept) return { kind: 'skipped', reason: kept.skip };
  const [rows, skippedInCode, suppressed, ok, firsts] = kept;
  const findings = Array.isArray(rows) && rows.length === 0 ? NO_FINDINGS : decoder.rows(rows, file);
  const counts = ok === null ? undefined : okCountsOf(ok, parts, decoder);
  const firstKeys = named(parts.keys, firsts?.map((first) => first[3]) ?? []);
  if (findings === null || counts === null || firstKeys === null) return null;
  return {
    kind: 'checked',
    findings,
    skippedInCode,
    suppressed,
    ...(counts === undefined ? {} : { ok: counts as Map<string, number> }),
    ...(firsts === null
      ? {}
      : {
          okJson: {
            lines: firsts.map((first) => first[0]),
            columns: firsts.map((first) => first[1]),
            kinds: firsts.map((first) => first[2]),
            keys: firstKeys,
            json: '',
            ends: firsts.map(() => 0),
          },
        }),
  };
}

/** Kept counts of the citations that checked out (`[key index, count]`), as the one map of them; `null` when one names no kept key. */
function okCountsOf(
  ok: readonly (readonly [number, number])[],
  parts: KeptParts,
  decoder: OutcomeDecoder,
): ReadonlyMap<string, number> | null {
  // The numbers in order tell the counts apart: every entry is a pair.
  const key = String(ok);
  let counts = decoder.okCounts.get(key);
  if (counts === undefined) {
    const keys = named(
      parts.keys,
      ok.map((entry) => entry[0]),
    );
    if (keys === null) return null;
    counts = new Map(ok.map((entry, at) => [keys[at] as string, entry[1]]));
    decoder.okCounts.set(key, counts);
  }
  return counts;
}

/** The values at these indexes, or `null` when one names none. */
export function named<T>(values: readonly (T | undefined)[], indexes: readonly number[]): T[] | null {
  const out: T[] = [];
  for (const at of indexes) {
    const value = values[at];
    if (value === undefined) return null;
    out.push(value);
  }
  return out;
}

/** Whether a kept value has the shape of {@link KeptParts} (the signature vouches for its bytes; this refuses another layout). */
export function isKeptParts(value: unknown): value is KeptParts {
  const parts = value as Partial<KeptParts> | null;
  return (
    typeof parts === 'object' &&
    parts !== null &&
    Array.isArray(parts.outcomes) &&
    parts.outcomes.every((outcome) => typeof outcome === 'object' && outcome !== null) &&
    Array.isArray(parts.shapes) &&
    Array.isArray(parts.templates) &&
    Array.isArray(parts.keys) &&
    Array.isArray(parts.bodies) &&
    parts.bodies.length === parts.outcomes.length &&
    Array.isArray(parts.leftOut) &&
    Array.isArray(parts.unstored) &&
    Array.isArray(parts.pinned) &&
    (parts.incomplete === null || typeof parts.incomplete === 'string') &&
    (parts.places === null || (Array.isArray(parts.places) && parts.places.every((place) => Array.isArray(place) && place.length === 3))) &&
    (parts.inputs === null || (Array.isArray(parts.inputs) && parts.inputs.length === parts.outcomes.length))
  );
}

/**
 * Where the documents of a run stood among a kept answer's, which may have differed by a few that
 * came or went since: `at` gives a document's index among the kept ones (`undefined`: it came
 * since), `has` whether a kept one is still a document.
 */
export interface KeptPlaces {
  at(file: string, index: number): number | undefined;
  has(file: string): boolean;
}

/** The {@link KeptPlaces} of `documents` (a run's) among `kept` (a kept answer's). */
export function keptPlaces(kept: readonly string[], documents: readonly string[]): KeptPlaces {
  if (sameItems(kept, documents)) return { at: (_file, index) => index, has: () => true };
  const places = new Map(kept.map((file, at) => [file, at]));
  const now = new Set(documents);
  return { at: (file) => places.get(file), has: (file) => now.has(file) };
}

/** What a splice is given. */
export interface SpliceInput {
  readonly discovery: Discovery;
  /** The kept answer's documents, which the parts name by index: the run's, but for a few that came or went since. */
  readonly kept: readonly string[];
  /** The documents whose bytes changed since the kept answer, or the bytes of an artifact they cite (those that came since are checked too). */
  readonly changed: ReadonlySet<string>;
  readonly parts: KeptParts;
  /** The kept answer's output, verified and open (the caller closes it). */
  readonly output: SignedBody;
  /** The run's plan, as `runPipeline` would be given it (no helper thread: a splice checks a few documents). */
  readonly plan: PipelinePlan;
  readonly artifacts: ArtifactCache;
  readonly format: string;
  /** Renders a report in a format other than JSON. */
  readonly render: (result: PipelineResult) => string;
}

/**
 * The answer of a run over every document, built from a kept answer's parts and a check of the
 * changed documents (and of those checked and not stored before); `null` when it cannot be built
 * so, and the run checks as it would have: the history stage had something to say of the run
 * besides that git's history is incomplete, or (JSON) a run-level stage revised or added a
 * finding, the copies left out changed or an element of the report has no kept place.
 */
export async function spliceAnswer(input: SpliceInput): Promise<Spliced | null> {
  const { discovery, parts, plan, artifacts, kept } = input;
  const { ports } = plan;
  const { documents } = discovery;
  if (parts.outcomes.length !== kept.length) return null;
  const rows = findingRowsDecoder(parts.shapes, parts.templates);
  if (rows === null) return null;
  const decoder: OutcomeDecoder = { rows, okCounts: new Map() };
  const keptAt = keptPlaces(kept, documents);
  const again = new Set([...input.changed, ...parts.unstored]);
  // A document that came since is checked as one whose bytes changed.
  for (const [at, file] of documents.entries()) if (keptAt.at(file, at) === undefined) again.add(file);
  const checked = documents.filter((file) => again.has(file));
  const checkedDocuments = new Set(checked);
  // Their pins are told: the next splice needs to know which documents have some.
  const batch = await checkDocumentBatch(checked, batchPortsOf({ ...plan, tellPins: true }, artifacts));
  // The history stage's note over every document: that git's history is incomplete, while one has a stale pin.
  const incomplete = incompleteNote(batch.notes);
  if (incomplete === undefined || (incomplete !== null && parts.incomplete !== null && incomplete !== parts.incomplete)) return null;
  // The documents with stale pins: those checked now, as the stage found them; the others as kept (their pins not kept, only that they have some).
  const pinned = new Map(batch.pinned);
  let keptPinned = 0;
  for (const at of parts.pinned) {
    const file = kept[at];
    if (file === undefined || again.has(file) || !keptAt.has(file)) continue;
    pinned.set(file, []);
    keptPinned += 1;
  }
  // The kept note speaks for the kept documents' pins; with none left, the stage's note over those checked now is all there is.
  const note = incomplete ?? (keptPinned > 0 ? parts.incomplete : null);
  const bodies = new Map<string, string>();
  const notes = note !== null && pinned.size > 0 ? [note] : [];
  const outcomes: BatchOutcome = Object.assign(new Map<string, DocumentOutcome>(), { notes, pinned, bodies });
  for (const [index, file] of documents.entries()) {
    const at = keptAt.at(file, index);
    const keptOutcome = at === undefined || again.has(file) ? undefined : parts.outcomes[at];
    const outcome = keptOutcome === undefined ? batch.get(file) : outcomeOf(keptOutcome, file, parts, decoder);
    if (outcome == null || outcome.kind === 'gone') return null;
    outcomes.set(file, outcome);
    const body = keptOutcome === undefined ? batch.bodies.get(file) : parts.bodies[at as number];
    if (typeof body === 'string') bodies.set(file, body);
  }
  const corpus = watchedStage(ports.corpus);
  const result = await finishPipeline(
    { ...plan, ports: { ...ports, ...(corpus.stage === undefined ? {} : { corpus: corpus.stage }) } },
    discovery,
    outcomes,
    artifacts,
  );
  const { output } = input;
  const spliced = {
    exit: result.report.verdict === 'PASS' ? 0 : 1,
    outcomes,
    documents: result.documents,
    checked: checked.length,
    checkedDocuments,
    pinnedArtifacts: [...new Set([...batch.pinned.values()].flatMap((pins) => pins.map((pin) => pin.artifact)))],
  };
  if (input.format !== 'json') {
    const text = input.render(result);
    return { ...spliced, ...handingOn([text], output), bytes: Buffer.byteLength(text), places: null };
  }
  if (corpus.touched()) return null;
  const elements = jsonElements(input, keptAt, result, checkedDocuments);
  if (elements === null) return null;
  const pieces: (Piece | KeptRun)[] = [];
  const places: [string, number, number][] = [];
  const citation = verdictJsonWriter();
  // The copied run being written: its documents' places move with it.
  let copied: Copied | null = null;
  writeCheckJson<KeptRun>(result.report, (piece) => pieces.push(piece), new Map(), {
    citations: (add) => {
      for (const element of elements) {
        if ('from' in element) {
          copied = element;
          add({ start: element.from, end: element.to, length: element.to - element.from }, element.file);
          copied = null;
        } else writeCitations(element.findings, element.texts, citation, add);
      }
    },
    placed: (file, start, end) => {
      if (copied === null) place(places, file, start, end);
      else for (const [document, from, to] of copied.places) places.push([document, start + from - copied.from, start + to - copied.from]);
    },
  });
  const bytes = pieces.reduce((sum, piece) => sum + (typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length), 0);
  return { ...spliced, ...handingOn(pieces, output), bytes, places };
}

/** A run of the kept output's bytes, from `start` to `end`, that a spliced JSON answer copies. */
interface KeptRun {
  readonly start: number;
  readonly end: number;
  readonly length: number;
}

/** How a splice's pieces are handed on: text and bytes as they are, each run of the kept output a chunk at a time as it is read. */
function handingOn(pieces: readonly (Piece | KeptRun)[], output: SignedBody): Pick<Spliced, 'handOn'> {
  return {
    handOn(piece, chunk) {
      for (const each of pieces) {
        if (typeof each === 'string' || each instanceof Uint8Array) piece(each);
        else output.copy(each.start, each.end, chunk);
      }
    },
  };
}

/** A splice's answer, and what keeping it needs. */
export interface Spliced {
  /**
   * Hands the answer on, in order: its text and bytes to `piece`, and the runs it copies from the
   * kept output to `chunk` as they are read, which returns whether that chunk may be read over.
   */
  handOn(piece: (piece: Piece) => void, chunk: (chunk: Buffer) => boolean): void;
  /** How many bytes it hands on. */
  readonly bytes: number;
  readonly exit: number;
  /** Every document's outcome, as the report was built from them. */
  readonly outcomes: BatchOutcome;
  /** The documents of the report. */
  readonly documents: readonly string[];
  /** How many documents it checked. */
  readonly checked: number;
  /** The documents it checked (the others' outcomes are the kept answer's). */
  readonly checkedDocuments: ReadonlySet<string>;
  /** The artifacts of the stale pins of the documents it checked, which the history stage asked git about. */
  readonly pinnedArtifacts: readonly string[];
  /** JSON: where each document's elements of `citations` stand in the answer. */
  readonly places: [string, number, number][] | null;
}

/**
 * Adds an element of a JSON report's `citations` to the places of the documents' elements (a
 * document's elements come one after the other, report order being by file: one place for them all).
 */
export function place(places: [string, number, number][], file: string, start: number, end: number): void {
  const last = places[places.length - 1];
  if (last !== undefined && last[0] === file) last[2] = end;
  else places.push([file, start, end]);
}

/**
 * An element of a spliced report's `citations`: a run of unchanged documents' elements, copied
 * from the kept output (`from` to `to`, and where each document's stand there); or a checked
 * document's, written again.
 */
type Element = Copied | { readonly file: string; readonly findings: readonly Finding[]; readonly texts: ReadonlyMap<string, OkJson> };

interface Copied {
  readonly file: string;
  from: number;
  to: number;
  readonly places: [string, number, number][];
}

const COMMA = 0x2c;

/**
 * The elements of a spliced JSON report's `citations`, in report order (by file): an unchanged
 * document's run of them copied from the kept output, a checked document's written again; `null`
 * when they cannot be placed so.
 */
function jsonElements(input: SpliceInput, documents: KeptPlaces, result: PipelineResult, checked: ReadonlySet<string>): Element[] | null {
  const { parts, output } = input;
  if (parts.places === null) return null;
  if (!sameItems(leftOutOf(input.discovery.documents, result.documents), parts.leftOut)) return null;
  const places = new Map<string, readonly [number, number]>();
  for (const [at, start, end] of parts.places) {
    const file = input.kept[at];
    if (file === undefined) return null;
    if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start < end && end <= output.length)) return null;
    places.set(file, [start, end]);
  }
  const byFile = new Map<string, Finding[]>();
  for (const finding of result.report.citations) {
    const findings = byFile.get(finding.file);
    if (findings === undefined) byFile.set(finding.file, [finding]);
    else findings.push(finding);
  }
  const files = new Set(byFile.keys());
  for (const file of result.okJson.keys()) files.add(file);
  const elements: Element[] = [];
  for (const file of [...files].sort()) {
    if (checked.has(file)) {
      const texts = result.okJson.get(file);
      elements.push({ file, findings: byFile.get(file) ?? [], texts: texts === undefined ? new Map() : new Map([[file, texts]]) });
      continue;
    }
    const kept = places.get(file);
    if (kept === undefined) return null;
    // Unchanged documents next to each other in the kept output (a comma between them) are copied as one run.
    const last = elements[elements.length - 1];
    if (last !== undefined && 'from' in last && last.to + 1 === kept[0] && output.byteAt(last.to) === COMMA) {
      last.to = kept[1];
      last.places.push([file, kept[0], kept[1]]);
    } else elements.push({ file, from: kept[0], to: kept[1], places: [[file, kept[0], kept[1]]] });
  }
  // Every unchanged document with a kept place still has elements: else the report differs from the kept one there.
  for (const file of places.keys()) if (!checked.has(file) && !files.has(file) && documents.has(file)) return null;
  return elements;
}
