import { documentFinding } from './check.ts';
import type { DocumentOutcome } from './pipeline.ts';
import { goneSkip, skippedNote } from './policy.ts';
import type { Finding, OkCounts, OkJson } from './report.ts';

/**
 * What the outcomes of a run's documents (stages 2–6) add up to for its report: the findings, the
 * coverage counts, the notes of skipped documents and the citations that checked out, counted.
 * {@link finishPipeline} tallies a run's outcomes once. A caller that keeps every document's
 * outcome between runs (the watch answering `check`) keeps a tally too and replaces the outcomes
 * of the documents it checked again, instead of passing over every outcome for each report: at
 * 100,000 documents that pass alone costs more than the rest of the report.
 *
 * The report does not depend on the order outcomes came in, with one exception: the counted keys
 * enter the summary in the order the documents first had them. {@link replace} therefore refuses a
 * replacement that could move a key, and the caller tallies its outcomes again.
 */
export class OutcomeTally {
  #checked = 0;
  #skippedInCode = 0;
  #suppressed = 0;
  /** The findings of each document that has some, a document that could not be read included. */
  readonly #findings = new Map<string, readonly Finding[]>();
  /** The note of each skipped document. */
  readonly #skipped = new Map<string, string>();
  readonly #ok: OkCounts = new Map();
  readonly #okJson = new Map<string, OkJson>();

  /** The tally of `outcomes`, in their order, but for the documents in `leftOut`. */
  static of(outcomes: ReadonlyMap<string, DocumentOutcome>, leftOut?: ReadonlySet<string>): OutcomeTally {
    const tally = new OutcomeTally();
    for (const [file, outcome] of outcomes) if (leftOut?.has(file) !== true) tally.add(file, outcome);
    return tally;
  }

  /** Adds one document's outcome. */
  add(file: string, outcome: DocumentOutcome): void {
    this.#count(outcome, 1);
    this.#place(file, outcome);
  }

  /**
   * Replaces the outcome `before`, which this tally has for `file`, with `after`. Returns `false`,
   * changing nothing, when the two do not count the same keys in the same order: the summary's
   * order could change, which only a tally of every outcome knows.
   */
  replace(file: string, before: DocumentOutcome, after: DocumentOutcome): boolean {
    if (!sameKeys(okOf(before), okOf(after))) return false;
    this.#count(before, -1);
    this.#count(after, 1);
    this.#place(file, after);
    return true;
  }

  /** Documents checked (a document that could not be read counts: its finding says why). */
  get checked(): number {
    return this.#checked;
  }

  get skippedInCode(): number {
    return this.#skippedInCode;
  }

  get suppressed(): number {
    return this.#suppressed;
  }

  /** Every finding, document by document. */
  findings(): Finding[] {
    const all: Finding[] = [];
    for (const findings of this.#findings.values()) for (const finding of findings) all.push(finding);
    return all;
  }

  /** The notes of the skipped documents, sorted. */
  skippedNotes(): string[] {
    return [...this.#skipped.values()].sort();
  }

  /** The citations that checked out, counted by key, each key where a document first had it. */
  ok(): OkCounts {
    return new Map(this.#ok);
  }

  /** Per document, the texts of the citations counted in {@link ok}. */
  okJson(): Map<string, OkJson> {
    return new Map(this.#okJson);
  }

  /** Adds (`sign` 1) or takes away (-1) what one outcome counts; taking away leaves every key in place (see {@link replace}). */
  #count(outcome: DocumentOutcome, sign: 1 | -1): void {
    if (outcome.kind === 'skipped') return;
    if (outcome.kind === 'gone') {
      if (outcome.read.kind !== 'file' && goneSkip(outcome.read) === null) this.#checked += sign;
      return;
    }
    this.#checked += sign;
    this.#skippedInCode += sign * outcome.skippedInCode;
    this.#suppressed += sign * outcome.suppressed;
    if (outcome.ok !== undefined) for (const [key, count] of outcome.ok) this.#ok.set(key, (this.#ok.get(key) ?? 0) + sign * count);
  }

  /** Puts one document's findings, note and texts in place of those it had. */
  #place(file: string, outcome: DocumentOutcome): void {
    let findings: readonly Finding[] = [];
    const skip = outcome.kind === 'skipped' ? outcome.reason : outcome.kind === 'gone' ? goneSkip(outcome.read) : null;
    // One document that is there but is not read (a symlink out of the root, a FIFO) is its own finding.
    if (outcome.kind === 'gone' && outcome.read.kind !== 'file' && skip === null) findings = [documentFinding(file, outcome.read)];
    else if (outcome.kind === 'checked') findings = outcome.findings;
    if (findings.length > 0) this.#findings.set(file, findings);
    else this.#findings.delete(file);
    if (skip !== null) this.#skipped.set(file, skippedNote(file, skip));
    else this.#skipped.delete(file);
    if (outcome.kind === 'checked' && outcome.okJson !== undefined && outcome.okJson.ends.length > 0)
      this.#okJson.set(file, outcome.okJson);
    else this.#okJson.delete(file);
  }
}

function okOf(outcome: DocumentOutcome): ReadonlyMap<string, number> | undefined {
  return outcome.kind === 'checked' ? outcome.ok : undefined;
}

function sameKeys(a: ReadonlyMap<string, number> | undefined, b: ReadonlyMap<string, number> | undefined): boolean {
  if ((a?.size ?? 0) !== (b?.size ?? 0)) return false;
  if (a === undefined || b === undefined) return true;
  const other = b.keys();
  for (const key of a.keys()) if (other.next().value !== key) return false;
  return true;
}
