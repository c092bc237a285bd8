/**
 * The one application pipeline. Every command that checks citations (`check`, `check --staged`,
 * `watch`, `certify --online`'s footnotes, `blame` and `stamp` for their verdicts) runs these
 * stages, in this order, over ports that the command chooses. No command re-implements a stage.
 *
 *   1. discover       which documents: the working tree's markdown, the staged markdown, or paths
 *                     (port: `discover`)
 *   2. read           each document's bytes, from the working tree or the git index (port: `reader`)
 *   3. admit          the document policy: size cap and binary sniff ({@link admitDocument})
 *                     and copies: documents repeating another's body are left out (port: `copies`)
 *   4. extract+verify scan once, run every checker, judge each citation against its artifact as the
 *                     same reader sees it ({@link verifyDocument})
 *   5. history        git's facts on stale pins: unknown-hash and unstaged ({@link judgeHistory};
 *                     port: `history`)
 *   6. settle         suppression comments, then configured severities ({@link settleFindings})
 *   7. staged-change  committed documents the staged change breaks (`check --staged` only;
 *                     {@link judgeStagedChange}; port: `stagedChange`)
 *   8. corpus         run-level findings and notes of the corpus checks (port: `corpus`)
 *   9. online         the online session ends; its request count joins the notes (port: `online`)
 *  10. report         summary and verdict, built once ({@link buildReport})
 *
 * The watch engine runs stages 2–6 on each batch of changed documents through
 * {@link checkDocumentBatch}, the function this pipeline runs for them, so the dashboard and
 * `check` give one verdict for one citation.
 */
import { ArtifactCache } from './artifacts.ts';
import {
  type CheckInput,
  type CheckOptions,
  type DocumentChecker,
  decodeDocument,
  type ResultPort,
  rlmChecker,
  settleFindings,
  type VerifiedDocument,
  verifyDocument,
} from './check.ts';
import { forEachLimited } from './concurrency.ts';
import { type HistoryFacts, isStaleVersioned, judgeHistory, type Pin, stalePins, type VersionSource } from './history-verdict.ts';
import { okJsonOf } from './interop/verdict-model.ts';
import type { Suppression } from './markdown/scan.ts';
import { documentMessages, stagedChangeMessages } from './messages.ts';
import { OutcomeTally } from './outcome-tally.ts';
import { admitDocument, hasUtf16Bom, type SkipReason } from './policy.ts';
import type { ArtifactReader, MaybePromise, ReadResult, Sha256 } from './ports.ts';
import { buildReport, type Coverage, countOk, type Finding, type OkCounts, type OkJson, okJsonHolds, type Report } from './report.ts';
import { type DocumentResult, type OkMode, RecordingArtifacts } from './result-cache.ts';
import { judgeStagedChange, type StagedChangeFacts, type StagedChangeSummary } from './staged-change.ts';

/** The stages of {@link runPipeline}, in the order they run. */
export const PIPELINE_STAGES = [
  'discover',
  'read',
  'admit',
  'extract+verify',
  'history',
  'settle',
  'staged-change',
  'corpus',
  'online',
  'report',
] as const;

/** What a run-level stage adds to the run before the report is built. */
export interface RunStageResult {
  /**
   * The run's findings so far, revised (a severity softened); absent when the stage changes none.
   * Revised findings are taken as they are: the stage settled them.
   */
  readonly revised?: readonly Finding[];
  /** New findings; configured severities are applied to them. */
  readonly findings?: readonly Finding[];
  /** Coverage notes, one line each. */
  readonly notes?: readonly string[];
}

/**
 * A run-level stage (corpus, online): sees every settled finding, revises or adds findings and
 * notes. In a run that counts the citations that checked out, `ok` has them (they are not in `findings`).
 */
export interface RunStage {
  run(findings: readonly Finding[], documents: readonly string[], ok: ReadonlyMap<string, number>): MaybePromise<RunStageResult>;
}

/** The ports a command plugs into the pipeline. Only `discover` and `reader` are required. */
export interface PipelinePorts {
  /**
   * Stage 1: the documents of the run, root-relative POSIX paths; or those with notes on what the
   * discovery skipped (directories it could not read), which join the coverage notes.
   */
  readonly discover: () => MaybePromise<readonly string[] | Discovery>;
  /** Stage 2: reads documents and cited artifacts, confined to the root. */
  readonly reader: ArtifactReader;
  readonly sha256?: Sha256;
  /** A shared artifact cache (a long-running caller reuses hashes); one is made from `reader` otherwise. */
  readonly artifacts?: ArtifactCache;
  /** What `reader` returns: the working tree (`check`) or the index (`check --staged`). @default 'working tree' */
  readonly current?: VersionSource;
  /** Stage 5: git's facts on stale pins; absent outside git or with `--no-history`. */
  readonly history?: HistoryFacts;
  /** Stages 2–6: results of earlier runs (issue 18); an unchanged document takes its stored findings. */
  readonly results?: ResultPort;
  /** Stage 3: documents that repeat another checked document's body are left out of the run. */
  readonly copies?: CopiesPort;
  /** Stage 7: which committed documents cite what the staged change touches. */
  readonly stagedChange?: (artifacts: ArtifactCache, documents: ReadonlySet<string>) => Promise<StagedChangeFacts>;
  /** Stages 2–4: another thread that checks some of the documents read ({@link BatchHelper}). */
  readonly helper?: BatchHelper;
  /** Stage 8. */
  readonly corpus?: RunStage;
  /** Stage 9. */
  readonly online?: RunStage;
}

/**
 * Body identity (issue 14): a generated copy repeats every finding of the document it copies, so
 * it is checked once. The pipeline asks each document's identity while it has the bytes in hand
 * (no second read), then leaves out what {@link CopiesPort.leaveOut} names.
 */
export interface CopiesPort {
  /** A document's body identity from the bytes the run read, or without reading (`bytes` null); `null`: none. */
  bodyOf(file: string, bytes: Uint8Array | null): string | null;
  /** Of the documents and their identities, those the run leaves out. */
  leaveOut(bodies: ReadonlyMap<string, string>): ReadonlySet<string>;
}

/** Stage 1's outcome when it has something to say: the documents, and one line per note. */
export interface Discovery {
  readonly documents: readonly string[];
  readonly notes: readonly string[];
}

/** What a command runs. */
export interface PipelinePlan {
  readonly ports: PipelinePorts;
  readonly options?: CheckOptions;
  /** The checks of stage 4. @default [rlmChecker] */
  readonly checkers?: readonly DocumentChecker[];
  /**
   * Citations that check out are counted, not kept ({@link OkCounts}): for a report that lists
   * none of them (`check`'s pretty, SARIF and GitHub output) and run stages that do not look at
   * them. @default false
   */
  readonly countOk?: boolean;
  /**
   * With {@link countOk}: the counted citations are kept as their JSON text too, per document
   * ({@link PipelineResult.okJson}), for a JSON report that writes them without objects. A
   * document whose texts could not stand for its findings keeps them as findings. @default false
   */
  readonly okJson?: boolean;
  /** With a history port: the outcomes name each document's stale pins ({@link BatchPorts.tellPins}). @default false */
  readonly tellPins?: boolean;
}

/** The outcome of {@link runPipeline}. */
export interface PipelineResult {
  readonly report: Report;
  /** The documents of stage 1. */
  readonly documents: readonly string[];
  /** Stage 7's counts (zero when it did not run). */
  readonly stagedChange: StagedChangeSummary;
  /** With {@link PipelinePlan.countOk}: the citations that checked out, counted (in the summary, not in `citations`). */
  readonly ok: OkCounts;
  /** With {@link PipelinePlan.okJson}: per document, the texts of the citations in `ok`, in report order. */
  readonly okJson: ReadonlyMap<string, OkJson>;
  /** Each document's outcome of stages 2–6, when the run had them (not for tallied outcomes), copies included. */
  readonly outcomes?: BatchOutcome;
}

/** One document through stages 2–6. */
export type DocumentOutcome =
  | {
      readonly kind: 'checked';
      /** Settled findings: suppressed ones removed, severities overridden. */
      readonly findings: readonly Finding[];
      readonly skippedInCode: number;
      readonly suppressed: number;
      /** With {@link BatchPorts.countOk}: the document's citations that checked out, counted, not in `findings`. */
      readonly ok?: OkCounts | undefined;
      /** With {@link BatchPorts.okJson}: the texts of the citations in `ok`, in report order. */
      readonly okJson?: OkJson | undefined;
    }
  | { readonly kind: 'skipped'; readonly reason: SkipReason }
  | { readonly kind: 'gone'; readonly read: ReadResult };

/** Runs every stage for one run of a command and builds the report once. */
export async function runPipeline(plan: PipelinePlan): Promise<PipelineResult> {
  const { ports } = plan;
  const artifacts = ports.artifacts ?? new ArtifactCache(ports.reader, ports.sha256);

  // 1. discover
  const discovered = await ports.discover();
  const found = isDiscovery(discovered) ? discovered.documents : discovered;

  // 2–6. read, admit, extract+verify, history, settle
  const outcomes = await checkDocumentBatch(found, batchPortsOf(plan, artifacts));
  return finishPipeline(plan, discovered, outcomes, artifacts);
}

/** The ports of stages 2–6 ({@link checkDocumentBatch}) that a plan gives, over one artifact cache. */
export function batchPortsOf(plan: PipelinePlan, artifacts: ArtifactCache): BatchPorts {
  const { ports } = plan;
  return {
    reader: ports.reader,
    artifactsFor: () => artifacts,
    ...(ports.copies === undefined ? {} : { bodyOf: ports.copies.bodyOf }),
    ...(ports.history === undefined ? {} : { history: ports.history }),
    ...(ports.current === undefined ? {} : { current: ports.current }),
    ...(ports.results === undefined ? {} : { results: ports.results }),
    ...(ports.helper === undefined ? {} : { helper: ports.helper }),
    options: plan.options ?? {},
    ...(plan.checkers === undefined ? {} : { checkers: plan.checkers }),
    countOk: plan.countOk === true,
    okJson: plan.okJson === true,
    tellPins: plan.tellPins === true,
  };
}

/**
 * Stages 7–10 of {@link runPipeline} over the outcomes of stages 2–6 for the discovered documents:
 * leaves out the copies, tallies the findings and coverage ({@link OutcomeTally}), then runs the
 * staged-change, corpus and online stages and builds the report. A caller that holds every
 * document's outcome already (the watch answering `check`) runs this alone and gets the report
 * `runPipeline` builds; one that keeps their tally between runs passes it instead
 * ({@link TalliedOutcomes}).
 */
export async function finishPipeline(
  plan: PipelinePlan,
  discovered: readonly string[] | Discovery,
  outcomes: BatchOutcome | TalliedOutcomes,
  artifacts: ArtifactCache,
): Promise<PipelineResult> {
  const { ports } = plan;
  const options = plan.options ?? {};
  let tallied: TalliedOutcomes;
  if (outcomes instanceof Map) {
    const leftOut = ports.copies?.leaveOut(outcomes.bodies) ?? new Set<string>();
    tallied = { tally: OutcomeTally.of(outcomes, leftOut), leftOut, notes: outcomes.notes };
  } else tallied = outcomes;
  const { tally, leftOut } = tallied;
  const found = isDiscovery(discovered) ? discovered.documents : discovered;
  const documents = leftOut.size === 0 ? [...found] : found.filter((file) => !leftOut.has(file));
  const findings = tally.findings();
  const ok = tally.ok();
  const okJson = tally.okJson();
  const coverage: Coverage = {
    skippedInCode: tally.skippedInCode,
    suppressed: tally.suppressed,
    notes: [...(isDiscovery(discovered) ? discovered.notes : []), ...tally.skippedNotes(), ...tallied.notes],
  };

  // 7. staged-change
  let stagedChange: StagedChangeSummary = { stale: 0, missing: 0 };
  if (ports.stagedChange !== undefined) {
    const facts = await ports.stagedChange(artifacts, new Set(documents));
    const judged = await judgeStagedChange(facts, artifacts);
    stagedChange = judged.summary;
    for (const finding of settleFindings(judged.findings, [], options.severityOverrides).findings) findings.push(finding);
    if (judged.findings.length > 0) coverage.notes.push(stagedChangeMessages.note(judged.summary.stale, judged.summary.missing));
  }

  // 8. corpus, 9. online
  for (const stage of [ports.corpus, ports.online]) {
    if (stage === undefined) continue;
    const added = await stage.run(findings, documents, ok);
    if (added.revised !== undefined) findings.splice(0, findings.length, ...added.revised);
    for (const finding of settleFindings(added.findings ?? [], [], options.severityOverrides).findings) findings.push(finding);
    coverage.notes.push(...(added.notes ?? []));
  }

  // 10. report
  const report = buildReport(findings, tally.checked, coverage, options, ok, okJson);
  return { report, documents, stagedChange, ok, okJson, ...(outcomes instanceof Map ? { outcomes } : {}) };
}

/**
 * The outcomes of stages 2–6 as a caller that keeps them between runs passes them to
 * {@link finishPipeline}: their tally without the copies, the copies it left out, and the notes.
 */
export interface TalliedOutcomes {
  readonly tally: OutcomeTally;
  /** The documents the copies port left out, which the tally does not have. */
  readonly leftOut: ReadonlySet<string>;
  readonly notes: readonly string[];
}

function isDiscovery(value: readonly string[] | Discovery): value is Discovery {
  return !Array.isArray(value);
}

/** The ports of {@link checkDocumentBatch}. */
export interface BatchPorts {
  readonly reader: ArtifactReader;
  /** The artifact cache a document's checks use (the watch engine records what each document asks for). */
  readonly artifactsFor: (file: string) => ArtifactCache;
  readonly history?: HistoryFacts;
  /**
   * With `history`: the outcome names each document's stale pins (`BatchOutcome.pinned`), for a
   * caller that follows git's state between batches (the watch).
   */
  readonly tellPins?: boolean;
  readonly current?: VersionSource;
  /** Results of earlier runs: a hit skips extract+verify and settle for that document. */
  readonly results?: ResultPort;
  /** Asked for each checked document's body identity ({@link CopiesPort.bodyOf}), kept in the outcome's `bodies`. */
  readonly bodyOf?: CopiesPort['bodyOf'];
  readonly options?: CheckOptions;
  /** @default [rlmChecker] */
  readonly checkers?: readonly DocumentChecker[];
  /** See {@link PipelinePlan.countOk}. @default false */
  readonly countOk?: boolean;
  /** See {@link PipelinePlan.okJson}. @default false */
  readonly okJson?: boolean;
  /**
   * Another thread that checks some of the documents the run reads, beside this one: asked when
   * at least {@link BatchHelper.minimum} documents are left to read after the stored results.
   */
  readonly helper?: BatchHelper;
}

/**
 * Another thread (a worker) that reads and checks documents while this one does, both taking them
 * from one queue, and returns what {@link checkDocumentShare} found for those it took, with the
 * same ports, in the parts it handed on. The pipeline takes that as its own, so the report is the
 * one a run on one thread gives. When the helper fails, the documents it took are checked here.
 */
export interface BatchHelper {
  /** How many documents left to read make starting the helper worth it. */
  readonly minimum: number;
  /**
   * Starts the helper on `files`. This thread takes its documents from the same queue through
   * `next` (`undefined`: none left); `done` is what the helper found in the others.
   */
  start(files: readonly string[]): HelperRun;
}

/** See {@link BatchHelper.start}. */
export interface HelperRun {
  next(): string | undefined;
  readonly done: Promise<readonly BatchShare[]>;
  /**
   * When present, asked after each document this thread checks while no pause it gave is pending:
   * a promise when this thread should let its event loop turn before it takes another (so that the
   * helper's parts are received as they come, while both threads check, not all at the end), else
   * `null`.
   */
  readonly pause?: () => Promise<void> | null;
  /**
   * When present, this thread takes no document from the queue before it settles (the helper has
   * taken its first batch, or failed): a split that is never empty, for tests.
   */
  readonly started?: Promise<void>;
}

/**
 * What checking a share of a batch's documents found before the history stage, as plain data (it
 * crosses threads): outcomes of documents not checked, verified documents, stored results that
 * held, the admission notes and the body identities.
 */
export interface BatchShare {
  readonly early: readonly (readonly [string, DocumentOutcome])[];
  readonly verified: readonly (readonly [string, Counted<VerifiedForHistory>])[];
  readonly cached: readonly (readonly [string, Counted<DocumentResult>])[];
  readonly notes: readonly string[];
  readonly bodies: readonly (readonly [string, string])[];
}

/**
 * Per document, its outcome; plus the run's history notes (shallow clone, untracked files), with
 * `tellPins` the stale pins the history stage asked about per document (`pinned`: those documents'
 * verdicts change with git's refs and index, not only with files) and, when `bodyOf` was given,
 * the body identity of each checked document.
 */
export type BatchOutcome = Map<string, DocumentOutcome> & {
  readonly notes: readonly string[];
  readonly pinned: ReadonlyMap<string, readonly Pin[]>;
  readonly bodies: ReadonlyMap<string, string>;
};

/**
 * Stages 2–6 for a batch of documents: read and admit each, extract and verify it, then one
 * history lookup for every stale pin of the batch, then settle each document. {@link runPipeline}
 * runs it over the whole run; the watch engine over each batch of changed documents, so the
 * dashboard and `check` give one verdict for one citation.
 */
export async function checkDocumentBatch(files: readonly string[], ports: BatchPorts): Promise<BatchOutcome> {
  const options = ports.options ?? {};
  const early = new Map<string, DocumentOutcome>();
  const verified = new Map<string, Counted<VerifiedForHistory>>();
  const cached = new Map<string, Counted<DocumentResult>>();
  // A citation that checked out is final when stored (no history, override or later stage changes
  // it) and, when its document has no suppression comment, when verified: then it is only counted
  // (and, for a JSON report, kept as its text).
  const mode = okModeOf(ports);
  const lookupOk = lookupOptionsOf(mode);
  const admitNotes: string[] = [];
  const bodies = new Map<string, string>();
  // A document unchanged since an earlier run, with a stored result that still holds, is not
  // read. Those are answered first, in one pass that costs no promise per document where the
  // cache answers at once (most of a warm run); a lookup that waits (on an artifact not known
  // unread) is awaited with the documents that are read.
  const pending = new Map<string, Promise<DocumentResult | null>>();
  if (ports.results !== undefined) {
    const { cache, known } = ports.results;
    for (const file of files) {
      const digest = known?.(file);
      if (digest == null) continue;
      const key = cache.keyOfDigest(file, digest);
      const hit =
        typeof key === 'string'
          ? cache.lookup(key, file, ports.artifactsFor(file), known, lookupOk)
          : key.then((text) => cache.lookup(text, file, ports.artifactsFor(file), known, lookupOk));
      if (hit instanceof Promise) {
        // Awaited below, maybe after it settles: handled now, so a failure is the run's, once.
        hit.catch(() => undefined);
        pending.set(file, hit);
      } else if (hit !== null) {
        cached.set(file, counted(hit, mode));
        noteBody(ports, bodies, file, null);
      }
    }
  }
  const rest = cached.size === 0 ? files : files.filter((file) => !cached.has(file));
  const share: ShareState = { early, verified, cached, notes: admitNotes, bodies };
  const limit = options.concurrency ?? 32;
  const helper = ports.helper;
  const unread = helper === undefined ? [] : rest.filter((file) => !pending.has(file));
  if (helper === undefined || unread.length < helper.minimum) {
    await forEachLimited(rest, limit, (file) => checkOne(file, ports, mode, pending, share));
  } else {
    // The documents whose lookup waits stay here; the others are a queue that this thread and the
    // helper both take from, so neither waits long for the other.
    const mine = rest.filter((file) => pending.has(file));
    const run = helper.start(unread);
    run.done.catch(() => undefined);
    if (run.started !== undefined) await run.started;
    let own = 0;
    const next = (): string | undefined => (own < mine.length ? mine[own++] : run.next());
    // One pause for every loop: each waits for it before taking its next document, so the loops
    // all stop within a few documents and the event loop turns.
    let pause: Promise<void> | null = null;
    await forEachLimited(Array.from({ length: limit }), limit, async () => {
      for (let file = next(); file !== undefined; file = next()) {
        await checkOne(file, ports, mode, pending, share);
        if (pause === null) {
          pause = run.pause?.() ?? null;
          pause?.then(() => {
            pause = null;
          });
        }
        if (pause !== null) await pause;
      }
    });
    let theirs: readonly BatchShare[] = [];
    try {
      theirs = await run.done;
    } catch {
      // The helper is gone: what it took is checked here, as if there had been none.
      const left = unread.filter((file) => !share.early.has(file) && !share.verified.has(file) && !share.cached.has(file));
      await forEachLimited(left, limit, (file) => checkOne(file, ports, mode, pending, share));
    }
    for (const part of theirs) takeShare(share, part);
  }
  // Stored results are findings before history, settled but for those on their stale pins' lines:
  // history runs on them like on the rest, and those lines are settled after it, below.
  const pinned = new Map<string, readonly Pin[]>();
  if (ports.history !== undefined && ports.tellPins === true) {
    for (const [file, document] of [...verified, ...cached]) {
      const pins = stalePins(document.findings);
      if (pins.length > 0) pinned.set(file, pins);
    }
  }
  const notes = await historyStage([...verified.values(), ...cached.values()], ports.history, ports.current);
  const out = Object.assign(new Map<string, DocumentOutcome>(), { notes: [...admitNotes.sort(), ...notes], pinned, bodies });
  for (const file of files) {
    const outcome = early.get(file);
    if (outcome !== undefined) {
      out.set(file, outcome);
      continue;
    }
    const hit = cached.get(file);
    if (hit !== undefined) {
      // The findings on its stale pins' lines are settled now, with those lines' suppression
      // comments; the configured severities come again on the others, as they did before storing.
      const settled = settleFindings(hit.findings, hit.lateSuppressions ?? [], options.severityOverrides);
      out.set(file, {
        kind: 'checked',
        findings: settled.findings,
        skippedInCode: hit.skippedInCode,
        suppressed: hit.suppressed + settled.suppressed,
        ok: hit.ok,
        okJson: hit.okJson,
      });
      continue;
    }
    const document = verified.get(file);
    if (document === undefined) continue;
    const settled = settleFindings(document.findings, document.suppressions, options.severityOverrides);
    out.set(file, {
      kind: 'checked',
      findings: settled.findings,
      skippedInCode: document.skippedInCode,
      suppressed: settled.suppressed,
      ok: document.ok,
      okJson: document.okJson,
    });
  }
  return out;
}

/** What a batch's documents found before history, as {@link checkDocumentBatch} gathers it. */
interface ShareState {
  readonly early: Map<string, DocumentOutcome>;
  readonly verified: Map<string, Counted<VerifiedForHistory>>;
  readonly cached: Map<string, Counted<DocumentResult>>;
  readonly notes: string[];
  readonly bodies: Map<string, string>;
}

/** The run's mode for the citations that checked out (see {@link PipelinePlan.countOk}). */
function okModeOf(ports: Pick<BatchPorts, 'countOk' | 'okJson'>): OkMode {
  return ports.countOk !== true ? 'keep' : ports.okJson === true ? 'json' : 'count';
}

/**
 * A checked document's outcome as a run with `plan`'s {@link PipelinePlan.countOk} and
 * {@link PipelinePlan.okJson} holds it (the citations that checked out counted, or kept as texts),
 * for a caller that kept the outcome whole and hands it to {@link finishPipeline}. Counting changes
 * what the run holds, never the report it prints.
 */
export function outcomeForPlan(
  outcome: Extract<DocumentOutcome, { kind: 'checked' }>,
  plan: Pick<PipelinePlan, 'countOk' | 'okJson'>,
): DocumentOutcome {
  return counted(outcome, okModeOf(plan));
}

/** What a result-cache lookup is asked for the citations that checked out, in a run of `mode`. */
function lookupOptionsOf(mode: OkMode): { readonly countOk: boolean; readonly okJson: boolean } {
  return { countOk: mode !== 'keep', okJson: mode === 'json' };
}

/**
 * One document through read, admit, extract+verify: its stored result when one holds (a lookup
 * already waiting in `pending`, or one by the bytes read), else its verified findings, stored.
 */
async function checkOne(
  file: string,
  ports: BatchPorts,
  mode: OkMode,
  pending: ReadonlyMap<string, Promise<DocumentResult | null>>,
  share: ShareState,
): Promise<void> {
  const options = ports.options ?? {};
  const checkers = ports.checkers ?? [rlmChecker];
  const digest = ports.results?.known?.(file);
  const waited = await pending.get(file);
  if (waited != null) {
    share.cached.set(file, counted(waited, mode));
    noteBody(ports, share.bodies, file, null);
    return;
  }
  const admission = admitDocument(await ports.reader.read(file), options);
  if (admission.kind === 'admit' && hasUtf16Bom(admission.bytes)) {
    share.notes.push(documentMessages.utf16Decoded(file, admission.bytes[0] === 0xff ? 'LE' : 'BE'));
  }
  if (admission.kind === 'gone') share.early.set(file, { kind: 'gone', read: admission.read });
  else if (admission.kind === 'skip') share.early.set(file, { kind: 'skipped', reason: admission.reason });
  else noteBody(ports, share.bodies, file, admission.bytes);
  if (admission.kind !== 'admit') return;
  if (ports.results === undefined) {
    const document = await verifyDocument(file, decodeDocument(admission.bytes), ports.artifactsFor(file), options, checkers);
    share.verified.set(file, forHistory(document, mode));
    return;
  }
  const artifacts = ports.artifactsFor(file);
  const key = await ports.results.cache.keyOf(file, admission.bytes);
  const lookupOk = lookupOptionsOf(mode);
  const hit = digest == null ? await ports.results.cache.lookup(key, file, artifacts, ports.results.known, lookupOk) : null;
  if (hit !== null) {
    share.cached.set(file, counted(hit, mode));
    return;
  }
  const recording = new RecordingArtifacts(artifacts);
  const document = await verifyDocument(file, decodeDocument(admission.bytes), recording, options, checkers);
  share.verified.set(file, forHistory(document, mode));
  // Stored as soon as it is verified, so a large run holds no document's entry until its end.
  // What is stored is the document's own result, before git's history: the next run asks git
  // again. Git judges a stale pin (stage 5) before the settle stage does (6), so the findings on
  // a stale pin's line that did not check out are stored unsettled, with that line's suppression
  // comments, and settled after git's answer on each hit: a configuration that turns `rlm/stale`
  // off, or a comment naming it, must not hide the `unknown-hash` git makes of a pin no version
  // ever had. (Citations that checked out are final: git judges none of them.)
  const pinLines = new Set(document.findings.filter(isStaleVersioned).map((finding) => finding.line));
  const late = (finding: Finding) => finding.severity !== 'ok' && pinLines.has(finding.line);
  const own = settleFindings(document.findings, document.suppressions, options.severityOverrides, late);
  const lateSuppressions = document.suppressions.filter((suppression) => pinLines.has(suppression.line));
  // Findings of these kinds depend on files no citation names (the whole tree): never stored.
  const uncacheable = ports.results.uncacheableKinds ?? [];
  const onTree = own.findings.some((finding) => uncacheable.includes(finding.kind));
  if (!document.uncacheable && !onTree) {
    const stored = { findings: own.findings, skippedInCode: document.skippedInCode, suppressed: own.suppressed, lateSuppressions };
    // A counting run stores no texts of the citations that checked out: it never reads them.
    await ports.results.cache.store(key, file, stored, recording.looked, artifacts, mode !== 'count');
  } else await ports.results.cache.recordUnstored(file, recording.looked, artifacts, onTree);
}

/** Keeps a document's body identity ({@link CopiesPort.bodyOf}) when the run asks for them. */
function noteBody(ports: BatchPorts, bodies: Map<string, string>, file: string, bytes: Uint8Array | null): void {
  const body = ports.bodyOf?.(file, bytes) ?? null;
  if (body !== null) bodies.set(file, body);
}

/** Adds a helper's share to this thread's. */
function takeShare(share: ShareState, theirs: BatchShare): void {
  for (const [file, outcome] of theirs.early) share.early.set(file, outcome);
  for (const [file, document] of theirs.verified) share.verified.set(file, document);
  for (const [file, result] of theirs.cached) share.cached.set(file, result);
  for (const [file, body] of theirs.bodies) share.bodies.set(file, body);
  share.notes.push(...theirs.notes);
}

/**
 * A helper's part of {@link checkDocumentBatch} (run in another thread with the same ports, no
 * history): reads and checks the documents of each batch `take` gives until one is empty, and
 * hands on what each batch found, for the batch to take as its own ({@link BatchHelper}). A part
 * at a time, so that the thread it helps can receive them while both check, not one large share
 * at the end.
 */
export async function checkDocumentShare(
  take: () => readonly string[],
  ports: BatchPorts,
  hand: (part: BatchShare) => void,
): Promise<void> {
  const mode = okModeOf(ports);
  const none = new Map<string, Promise<DocumentResult | null>>();
  const limit = ports.options?.concurrency ?? 32;
  for (let batch = take(); batch.length > 0; batch = take()) {
    const share: ShareState = { early: new Map(), verified: new Map(), cached: new Map(), notes: [], bodies: new Map() };
    await forEachLimited(batch, limit, (file) => checkOne(file, ports, mode, none, share));
    hand({
      early: [...share.early],
      verified: [...share.verified],
      cached: [...share.cached],
      notes: share.notes,
      bodies: [...share.bodies],
    });
  }
}

/** Checks documents and builds the report: {@link runPipeline} over the documents given, without history. */
export async function checkDocuments(input: CheckInput): Promise<Report> {
  const result = await runPipeline({
    ports: {
      discover: () => input.documents,
      reader: input.reader,
      ...(input.sha256 === undefined ? {} : { sha256: input.sha256 }),
      ...(input.artifacts === undefined ? {} : { artifacts: input.artifacts }),
      ...(input.results === undefined ? {} : { results: input.results }),
    },
    ...(input.options === undefined ? {} : { options: input.options }),
    ...(input.checkers === undefined ? {} : { checkers: input.checkers }),
  });
  return result.report;
}

/** A verified document on its way to the history stage. */
export interface VerifiedForHistory {
  findings: readonly Finding[];
  readonly suppressions: readonly Suppression[];
  readonly skippedInCode: number;
}

/**
 * A document's findings with those that checked out taken out and counted, when the run counts
 * them; with their texts, when it keeps those.
 */
export type Counted<T extends { findings: readonly Finding[] }> = T & {
  readonly ok?: OkCounts | undefined;
  readonly okJson?: OkJson | undefined;
};

function forHistory(document: VerifiedDocument, mode: OkMode): Counted<VerifiedForHistory> {
  const verified = { findings: document.findings, suppressions: document.suppressions, skippedInCode: document.skippedInCode };
  // A suppression comment can hide a citation that checked out: those documents keep theirs.
  return document.suppressions.length === 0 ? counted(verified, mode) : verified;
}

/**
 * `result` with its `ok` findings counted (beside those it counted already) and left out, unless
 * `mode` keeps them; in `json` mode with their texts, unless those cannot stand for them.
 */
function counted<T extends { findings: readonly Finding[]; readonly ok?: OkCounts | undefined; readonly okJson?: OkJson | undefined }>(
  result: T,
  mode: OkMode,
): Counted<T> {
  if (mode === 'keep' || !result.findings.some((finding) => finding.severity === 'ok')) return result;
  if (mode === 'json' && !okJsonHolds(result.findings)) return result;
  const ok: OkCounts = new Map(result.ok);
  const kept: Finding[] = [];
  const checkedOut: Finding[] = [];
  for (const finding of result.findings) {
    if (finding.severity !== 'ok') kept.push(finding);
    else {
      countOk(ok, finding);
      checkedOut.push(finding);
    }
  }
  // A result with texts already (a stored one) has no `ok` findings left to make texts of.
  return mode === 'json' ? { ...result, findings: kept, ok, okJson: okJsonOf(checkedOut) } : { ...result, findings: kept, ok };
}

/** Stage 5 over verified documents, in place (one lookup and one judgement for all): returns the coverage notes. */
async function historyStage(
  documents: { findings: readonly Finding[] }[],
  history: HistoryFacts | undefined,
  current: VersionSource | undefined,
): Promise<readonly string[]> {
  if (history === undefined) return [];
  const all = documents.flatMap((document) => document.findings);
  const pins = stalePins(all);
  if (pins.length === 0) return [];
  const judged = judgeHistory(all, await history.lookup(pins), current);
  let at = 0;
  for (const document of documents) {
    const count = document.findings.length;
    document.findings = judged.findings.slice(at, at + count);
    at += count;
  }
  return judged.notes;
}
