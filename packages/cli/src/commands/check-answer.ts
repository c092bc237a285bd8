import { hash } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ArtifactCache,
  type ArtifactReader,
  artifactState,
  CONTENT_HASH_LENGTH,
  type Discovery,
  isStrings,
  type PipelineResult,
  type Sha256,
  sameItems,
} from '@aiwg-cite/core';
import type { GitStatePaths, TakenHistoryState } from '@aiwg-cite/git';
import { type AnswerOutput, type KeptAnswer, knownGitDirectory, type SignedBody, type Workspace } from '@aiwg-cite/node';
import type { ResultCacheRun } from './check-cache.ts';
import {
  dependingOn,
  isKeptParts,
  type KeptParts,
  keptParts,
  keptPlaces,
  named,
  place,
  SPLICED_FORMATS,
  type Spliced,
} from './check-splice.ts';
import { isKeptView, makeView, PATHSPEC_VARIABLES, type ViewBasis, viewFrom, viewTree } from './check-view.ts';

/**
 * A `check` over every document whose answer is kept whole (issue 13): the bytes it printed and
 * its exit code, with everything they depend on. The next identical run prints them again when
 * none of that changed, without looking up 2,000 stored results one by one, parsing their
 * findings and writing the report anew.
 *
 * What the answer depends on: the run's key (this build, its options and flags, configuration,
 * corpus and month, the format and whether it colours, the working directory, the git and
 * aiwg-cite environment); the documents discovered, with the discovery's notes, and the bytes of
 * each (its stamp's digest, or the digest of the bytes read for one never stamped, as a link); the
 * state of every artifact the documents' results depend on; what the run-level stages read
 * besides findings (`runState`: the copies discovery left out, the corpus's notes, the ignored
 * corpus roots); what each `@`-mention target resolved to; and, when the history stage asked git,
 * git's state (every ref, the index, shallowness) and which pinned artifacts are symbolic links.
 *
 * An answer is kept only by a run in which this thread answered every document from the result
 * cache or checked it without storing it (what the profile held back, `@`-mentions: their inputs
 * are recorded as they are checked). A document checked and stored, skipped or gone keeps the
 * run's answer from being kept, and so does one a helper thread took (counted in that thread's
 * cache, not this one's; a helper starts only for documents the cache did not answer): a run that
 * checks an edited document spends nothing on keeping one; the next, if nothing changed, keeps
 * it, and the one after prints it.
 *
 * Beside the answer of a JSON, pretty, SARIF or GitHub run the parts it was built from are kept
 * (check-splice.ts): when only the bytes of a few documents changed since, or of artifacts that a
 * few documents cite, and nothing else the answer depends on, the run checks those documents and
 * builds its answer from the parts.
 *
 * In a large git repository a view of the tree is kept beside the answer too (check-view.ts): the
 * next run asks git which files changed instead of listing and `lstat`ing every one.
 */

/** The layout of {@link AnswerHead}; a new layout never reads an old file. */
const HEAD_FORMAT = 6;
/** A larger answer is not kept: it would cost more to write and read than to build. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

interface AnswerHead {
  readonly format: typeof HEAD_FORMAT;
  readonly key: string;
  readonly documents: readonly string[];
  readonly notes: readonly string[];
  // Each document's digest, in the order of `documents`, is kept beside the head (the answer's
  // lines): a run whose documents git vouches for reads none of them.
  /** Path, state, path, state, ...: every input of the documents' stored results. */
  readonly inputs: readonly string[];
  readonly run: string;
  /** Each `@`-mention target the checks resolved, with its resolution (`ScholarlyRun.mentionsResolved`). */
  readonly mentions: readonly string[];
  /** What the history stage's answer depended on (`historyState` of the artifacts it asked about), else null. */
  readonly history: string | null;
  /** The artifacts the history stage asked about. */
  readonly historyArtifacts: readonly string[];
  /**
   * Git's state stamp (`GitStateStamp`, from `lstat`s alone) taken before the history stage asked
   * git, and the paths it looks at: while a stamp taken now is the same, git's refs and index did
   * not move, and `history` holds without asking git (only which artifacts are links is looked at).
   */
  readonly historyStamp: KeptStamp | null;
  readonly exit: number;
  /** Whether the parts a splice builds from are kept beside the output. */
  readonly spliced: boolean;
}

/**
 * What a kept answer gives back: itself, when nothing it depends on changed; or, when only the
 * bytes of the documents in `changed` did or of artifacts they cite, its output and the parts it was
 * built from (a splice). The output is an open file: `pipe` closes it, else the caller does.
 */
export type ReusedAnswer =
  | { readonly kind: 'whole'; readonly output: SignedBody; readonly exit: number }
  | {
      readonly kind: 'splice';
      readonly output: SignedBody;
      /** The kept answer's documents (the run's, but for the few that came or went since). */
      readonly kept: readonly string[];
      readonly changed: ReadonlySet<string>;
      readonly parts: KeptParts;
    };

/** The share of a run's documents that may have changed, come or gone for a splice (more: the run looks each up, as it would). */
const SPLICE_SHARE = 4;

/** The parts of a run a kept answer is checked against. */
export interface RunAnswerInput {
  readonly workspace: Workspace;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cache: ResultCacheRun;
  /** The format, which names the answer's slot (one kept answer per format). */
  readonly format: string;
  /** Everything about the invocation that can change its output and is not in the cache's context. */
  readonly invocation: unknown;
  /** The run's reader, hash and artifacts (shared with its pipeline), for what the stamps do not know. */
  readonly reader: ArtifactReader;
  readonly sha256: Sha256;
  readonly artifacts: ArtifactCache;
  /** What the run-level stages read besides the findings (see `ScholarlyRun.runState`), after discovery. */
  readonly runState: () => string;
  /** The `@`-mention targets the checks resolved against the tree, and whether they still resolve so (`ScholarlyRun`). */
  readonly mentions: {
    resolved(): string[];
    resolveAsBefore(resolved: readonly string[]): Promise<boolean>;
  };
  /** git's state of the working tree for a view ({@link startViewState}), when the run started it early; else `discoverByGit` starts it. */
  readonly view?: Promise<StartedView | null>;
}

/** git's state of the working tree, being taken for a view of the kept answer (check-view.ts). */
export interface StartedView {
  readonly indexFile: string;
  readonly state: Promise<import('@aiwg-cite/git').WorktreeState | null>;
}

/**
 * Starts taking git's state of the working tree for a view of the kept answer (`git diff-files`
 * and `git ls-files --others`, two processes at once: a few hundred milliseconds at 100,000 files),
 * or `null` where a run takes no view: no git, an index under the size views start at, pathspec
 * variables set. A run over every document starts it before its configuration and corpus load
 * (which list the bibliographies, another git process), so that the two waits overlap.
 */
export async function startViewState(workspace: Workspace, env: Readonly<Record<string, string | undefined>>): Promise<StartedView | null> {
  const from = viewFrom(env);
  const gitDir = workspace.isGit ? knownGitDirectory(workspace.root, env) : undefined;
  if (from === null || gitDir === undefined || PATHSPEC_VARIABLES.some((name) => env[name] !== undefined)) return null;
  const indexFile = join(gitDir, 'index');
  if (indexSize(indexFile) < from) return null;
  const git = await import('@aiwg-cite/git');
  const state = git.readWorktreeState(workspace.root, gitDir, { ...env });
  // A failed read of git's state costs the view, never the run.
  state.catch(() => undefined);
  return { indexFile, state };
}

/** A run's kept answer: reuse it, or keep this run's. */
export interface RunAnswer {
  /**
   * For the history port (`HistoryFactsOptions.tellState`): where a lookup tells what its answer
   * depends on, while this run can still keep its answer.
   */
  readonly tellHistoryState: (artifacts: readonly string[]) => ((state: string) => void) | null;
  /** For a splice's history port: where its lookup (of the checked documents' stale pins) tells what its answer depends on. */
  readonly tellSpliceHistory: (artifacts: readonly string[]) => (state: string) => void;
  /**
   * In a large git repository whose index is the one the kept answer's view was taken against:
   * the documents discovery would find, from git (`filter` is the configuration's, `isGone` says
   * a path is gone), and which paths of the answer kept their bytes, for {@link reuse}; else `null`
   * (the run discovers its documents itself, and git's state is taken for the view of the answer it
   * keeps).
   */
  discoverByGit(
    filter: (found: readonly string[]) => readonly string[],
    isGone: (path: string) => boolean,
  ): Promise<ViewedDiscovery | null>;
  /** The markdown files a discovery found, before the configuration's filter (a view keeps those it left out). */
  discovered(found: readonly string[]): void;
  /**
   * The kept answer, when nothing it depends on changed since, or only some documents' bytes did;
   * `unchanged` (from {@link discoverByGit}) names the paths known to have kept their bytes.
   */
  reuse(discovery: Discovery, unchanged?: (path: string) => boolean): Promise<ReusedAnswer | null>;
  /** Called with every piece the run prints, in order (text, or bytes it may keep a view of). */
  print(piece: string | Uint8Array): void;
  /** For a JSON report's `placed` hook (format/json.ts): where each document's elements of `citations` stand. */
  placed(file: string, start: number, end: number): void;
  /**
   * Keeps this run's answer when it qualifies (see above), and the parts it was built from when
   * the run gives them (`run`: its outcomes, and whether a run-level stage touched a finding); a
   * failure to write costs only time.
   */
  keep(discovery: Discovery, exit: number, run?: KeptRun): Promise<void>;
  /** Keeps a splice's answer (check-splice.ts) in place of the one it was built from, when it qualifies. */
  keepSplice(discovery: Discovery, spliced: Spliced): Promise<void>;
  /**
   * Says that the splice {@link reuse} offered declined: the run looks every document up, and may
   * keep its answer when the cache answers each (the documents the splice checked counted once).
   */
  spliceDeclined(): void;
}

/** A {@link AnswerHead.historyStamp}. */
interface KeptStamp extends GitStatePaths {
  readonly taken: string;
}

/** A discovery by git, from a kept answer's view (check-view.ts). */
export interface ViewedDiscovery {
  readonly discovery: Discovery;
  readonly unchanged: (path: string) => boolean;
}

/** What a run that keeps its answer gives for the parts a splice builds from (check-splice.ts). */
export interface KeptRun {
  readonly outcomes: PipelineResult['outcomes'];
  /** The documents of the report (the discovered ones but the copies left out). */
  readonly documents: readonly string[];
  /** Whether a run-level stage revised or added a finding (a JSON answer's kept elements would not hold). */
  readonly touched: boolean;
}

/** The kept answer of a `check` run over every document. */
export function openRunAnswer(input: RunAnswerInput): RunAnswer {
  const { workspace, cache } = input;
  const file = cache.answers(input.format);
  const key = hash('sha256', JSON.stringify([HEAD_FORMAT, cache.context, input.invocation, environment(input.env)]), 'hex');
  const results = cache.results.cache;
  results.record();
  // The documents of the run, once discovered: the answer is kept only if the cache answered each.
  // A run over none keeps nothing (it costs nothing to build, and writes nothing where it cannot).
  let documents = 0;
  // The cache's counts before the run's own lookups: a splice that declined looked some documents up already.
  let before = { hits: 0, misses: 0, unstored: 0, onTree: 0 };
  const everyDocumentAnswered = () => {
    const { hits, misses, unstored, onTree } = results.stats;
    const answered = hits - before.hits + (unstored - before.unstored) + (onTree - before.onTree);
    return documents > 0 && misses === before.misses && answered === documents;
  };
  const printed: (string | Uint8Array)[] = [];
  const places: [string, number, number][] = [];
  let printedBytes = 0;
  let asked: TakenHistoryState | null = null;
  // git's adapter, once a run in a repository compares a kept answer (the history stage loads it anyway),
  // and the state stamp taken before the history stage asked git.
  let git: typeof import('@aiwg-cite/git') | null = null;
  let askedStamp: KeptStamp | null = null;
  // Where the kept answer's stamp looked (a stamp taken there needs no git process).
  let stampPaths: GitStatePaths | null = null;
  // What a splice's history lookups told, and git's state stamp before each (`null`: none taken).
  const spliceAsked: TakenHistoryState[] = [];
  const spliceStamps: (string | null)[] = [];
  let unkept = false;
  let runState: string | null = null;
  const stateOf = () => (runState ??= input.runState());
  // The kept answer a splice builds from, and its parts; whether git's history moved since it was kept.
  let historyMoved = false;
  let base: AnswerHead | null = null;
  let baseParts: KeptParts | null = null;
  // The kept answer, read once.
  let keptAnswer: KeptAnswer | null | undefined;
  const readKept = () => {
    if (keptAnswer === undefined) keptAnswer = file.read();
    return keptAnswer;
  };
  // The kept answer's digests (one per document), read when a document is compared; `null` when they are not its.
  let keptDigests: readonly string[] | null | undefined;
  const digestsOf = (answer: KeptAnswer, documents: number) => {
    if (keptDigests === undefined) {
      const lines = answer.lines();
      keptDigests = lines !== null && lines.length === documents ? lines : null;
    }
    return keptDigests;
  };
  // In a large git repository: git's state taken before the run read a file (a view of the answer
  // it keeps is made from it), whether the kept answer's view holds, and what discovery found.
  let basis: Promise<ViewBasis | null> | null = null;
  let viewHolds = false;
  let found: readonly string[] | null = null;
  const viewOf = async (documents: readonly string[], inputs: readonly string[]) => {
    const taken = await basis;
    return taken == null || found === null ? undefined : makeView(taken, documents, inputs, found);
  };
  const write = (
    head: Omit<AnswerHead, 'format' | 'key' | 'notes' | 'run' | 'spliced'>,
    digests: readonly string[],
    discovery: Discovery,
    output: AnswerOutput,
    parts: KeptParts | null,
    view: unknown,
  ) => {
    try {
      file.write({ ...head, format: HEAD_FORMAT, key, notes: discovery.notes, run: stateOf(), spliced: parts !== null }, output, {
        lines: digests,
        ...(parts === null ? {} : { parts }),
        ...(view === undefined ? {} : { view }),
      });
    } catch {
      // Not kept: the next run builds its answer again.
    }
  };

  return {
    tellHistoryState(artifacts) {
      // Only when this run can still keep its answer (stages 2-4 are over): nothing else asks git.
      if (unkept || !everyDocumentAnswered()) {
        unkept = true;
        return null;
      }
      // Before the lookup: a ref that moves after it makes the next run's stamp differ.
      const stamp =
        git === null
          ? null
          : stampPaths === null
            ? git.GitStateStamp.open(workspace.root, { ...input.env })
            : git.GitStateStamp.at(stampPaths);
      const taken = stamp?.take() ?? null;
      askedStamp = stamp === null || taken === null ? null : { ...stamp.paths, taken };
      return (state) => {
        asked = { state, artifacts };
      };
    },
    tellSpliceHistory(artifacts) {
      spliceStamps.push(git === null || stampPaths === null ? null : git.GitStateStamp.at(stampPaths).take());
      return (state) => {
        spliceAsked.push({ state, artifacts });
      };
    },
    async discoverByGit(filter, isGone) {
      const started = await (input.view ?? startViewState(workspace, input.env));
      if (started === null) return null;
      const { indexFile, state } = started;
      const git = await import('@aiwg-cite/git');
      const env = { ...input.env };
      const answer = readKept();
      const head = answer !== null && isHead(answer.head) && answer.head.key === key ? answer.head : null;
      const view = head === null ? null : answer?.view();
      if (head === null || !isKeptView(view) || view.index !== git.indexIdentity(indexFile)) {
        // No view, or one of another index: a view of this run's answer needs every plain entry.
        const entries = git.indexEntries(workspace.root, env);
        basis = Promise.all([state, entries]).then(
          ([taken, index]) =>
            taken === null || index === null
              ? null
              : { state: taken, isPlain: (path: string) => index.plain.has(path), flagged: index.flagged },
          () => null,
        );
        return null;
      }
      viewHolds = true;
      // The index is the view's: a path of the answer is a plain entry as it was then; any other is not known to be.
      const unplain = new Set(view.unplain);
      let known: Set<string> | undefined;
      const isPlain = (path: string) => {
        known ??= new Set([...head.documents, ...inputPaths(head)]);
        return known.has(path) && !unplain.has(path);
      };
      basis = state.then(
        (taken) => (taken === null ? null : { state: taken, isPlain, flagged: view.flagged }),
        () => null,
      );
      const taken = await basis;
      if (taken === null || head.notes.length > 0) return null;
      const tree = viewTree(view, taken.state, head.documents, isGone, filter);
      if (tree === null) return null;
      found = tree.found;
      return { discovery: { documents: tree.documents, notes: [] }, unchanged: tree.unchanged };
    },
    discovered(list) {
      found = list;
    },
    async reuse(discovery, unchanged) {
      // git's state for a view is taken before the run reads a file (check-view.ts).
      await basis;
      if (workspace.isGit) git ??= await import('@aiwg-cite/git');
      // Taken now, after discovery and before the pipeline changes what the stages hold: a run
      // that keeps its answer compares the state it started from.
      const run = stateOf();
      documents = discovery.documents.length;
      // The head first (small): the output is read only when everything it depends on holds.
      const kept = readKept();
      if (kept === null || !isHead(kept.head)) return null;
      const head = kept.head;
      if (head.key !== key || !sameItems(head.notes, discovery.notes)) return null;
      const known = cache.stamps?.digestOf;
      if (known === undefined || head.run !== run) return null;
      // Documents that came or went since: a splice checks those that came (see check-splice.ts).
      const places = keptPlaces(head.documents, discovery.documents);
      const came = discovery.documents.filter((document, at) => places.at(document, at) === undefined);
      const gone = head.documents.filter((document) => !places.has(document));
      if ((came.length > 0 || gone.length > 0) && !head.spliced) return null;
      // Documents whose bytes changed: a splice may build the answer again (see check-splice.ts).
      const changed = new Set<string>(came);
      const most = Math.floor(head.documents.length / SPLICE_SHARE) - gone.length;
      if (changed.size > most) return null;
      const change = (at: number): boolean => {
        changed.add(head.documents[at] as string);
        return head.spliced && changed.size <= most;
      };
      // What the stamps know first; the rest is read (links, files never stamped, missing files),
      // as the pipeline would read it.
      const unknownDocuments: number[] = [];
      for (let at = 0; at < head.documents.length; at += 1) {
        if (unchanged?.(head.documents[at] as string) || !places.has(head.documents[at] as string)) continue;
        const digests = digestsOf(kept, head.documents.length);
        if (digests === null) return null;
        const digest = known(head.documents[at] as string);
        if (digest === null) unknownDocuments.push(at);
        else if (digest !== digests[at] && !change(at)) return null;
      }
      // Inputs whose state changed (by index among the head's inputs): the documents that depend
      // on one are checked again by a splice, as if their bytes had changed.
      const changedInputs = new Set<number>();
      const changeInput = (at: number): boolean => {
        changedInputs.add(at / 2);
        return head.spliced;
      };
      const unknownInputs: number[] = [];
      for (let at = 0; at < head.inputs.length; at += 2) {
        if (unchanged?.(head.inputs[at] as string)) continue;
        const digest = known(head.inputs[at] as string);
        if (digest === null) unknownInputs.push(at);
        else if (`file:${digest.slice(0, CONTENT_HASH_LENGTH)}` !== head.inputs[at + 1] && !changeInput(at)) return null;
      }
      for (const at of unknownDocuments) {
        const read = await input.reader.read(head.documents[at] as string);
        if (read.kind !== 'file') return null;
        if ((await input.sha256(read.bytes)) !== digestsOf(kept, head.documents.length)?.[at] && !change(at)) return null;
      }
      for (const at of unknownInputs) {
        if (artifactState(await input.artifacts.get(head.inputs[at] as string)) !== head.inputs[at + 1] && !changeInput(at)) return null;
      }
      if (!(await input.mentions.resolveAsBefore(head.mentions))) return null;
      if (head.history !== null) {
        const { historyState, historyStateAgain, GitStateStamp } = await import('@aiwg-cite/git');
        // A pinned artifact git vouches for is a regular file (one of the answer's inputs, not looked at).
        let regular: ((artifact: string) => boolean) | undefined;
        if (unchanged !== undefined) {
          const inputs = new Set(inputPaths(head));
          regular = (artifact) => inputs.has(artifact) && unchanged(artifact);
        }
        // git's refs and index as they were when the kept answer's history stage asked: no git process.
        const kept = head.historyStamp;
        if (kept !== null) stampPaths = { files: kept.files, trees: kept.trees };
        const still = kept !== null && GitStateStamp.at(kept).take() === kept.taken;
        const now = still
          ? historyStateAgain(head.history, workspace.root, regular)
          : await historyState(workspace.root, { ...input.env }, head.historyArtifacts, regular);
        // git's refs or index moved (a commit, a checkout, a fetch): only the documents with stale
        // pins asked git, and a splice checks them again.
        if (now !== head.history) {
          if (!head.spliced) return null;
          historyMoved = true;
        }
      }
      // The documents whose outcome depends on a changed input or on git's history, from the
      // parts: none, and the answer holds whole.
      let parts: unknown = null;
      if (changedInputs.size > 0 || historyMoved) {
        parts = kept.parts();
        if (!isKeptParts(parts)) return null;
        const depending = changedInputs.size > 0 ? dependingOn(parts, changedInputs) : [];
        if (depending === null) return null;
        for (const at of historyMoved ? [...depending, ...parts.pinned] : depending) {
          if (at >= head.documents.length) return null;
          if (places.has(head.documents[at] as string) && !change(at)) return null;
        }
      }
      if (changed.size === 0 && gone.length === 0 && !historyMoved) {
        const body = kept.outputBody();
        if (body === null) return null;
        if (!viewHolds) {
          // The answer holds in a tree git's state was taken of (a large repository): its view, for the next run.
          const view = await viewOf(head.documents, inputPaths(head));
          try {
            if (view !== undefined) kept.keepView(view);
          } catch {}
        }
        return { kind: 'whole', output: body, exit: head.exit };
      }
      parts ??= kept.parts();
      if (!isKeptParts(parts)) return null;
      const output = kept.outputBody();
      if (output === null) return null;
      base = head;
      baseParts = parts;
      return { kind: 'splice', output, kept: head.documents, changed, parts };
    },
    print(piece) {
      if (unkept || !everyDocumentAnswered()) return;
      printedBytes += Buffer.byteLength(piece);
      if (printedBytes > MAX_OUTPUT_BYTES) {
        unkept = true;
        printed.length = 0;
        return;
      }
      printed.push(piece);
    },
    placed(file, start, end) {
      if (!unkept) place(places, file, start, end);
    },
    async keep(discovery, exit, run) {
      const recorded = results.recorded();
      if (unkept || recorded === null || !everyDocumentAnswered()) return;
      const digests: string[] = [];
      for (const document of discovery.documents) {
        const digest = recorded.digests.get(document);
        if (digest === undefined) return;
        digests.push(digest);
      }
      // Git's state as the history lookup found it when it opened the repository: a ref or the
      // index that moved since makes the next run compare another state, and build its answer again.
      const history = asked as TakenHistoryState | null;
      // The parts a splice builds from, when this run gives them and its format can be spliced.
      let parts: KeptParts | null = null;
      const { inputs, numbered } = numberedFirst(recorded.inputs, recorded.documentInputs.paths);
      if (run?.outcomes !== undefined && SPLICED_FORMATS.has(input.format) && !(input.format === 'json' && run.touched)) {
        const { documents } = recorded.documentInputs;
        parts = keptParts(
          discovery.documents,
          run.outcomes,
          run.documents,
          recorded.unstored,
          input.format === 'json' ? places : null,
          numbered ? discovery.documents.map((document) => documents.get(document) ?? null) : null,
        );
      }
      write(
        {
          documents: discovery.documents,
          inputs: inputs.flat(),
          mentions: input.mentions.resolved(),
          history: history?.state ?? null,
          historyArtifacts: history?.artifacts ?? [],
          historyStamp: history === null ? null : askedStamp,
          exit,
        },
        digests,
        discovery,
        printed,
        parts,
        await viewOf(
          discovery.documents,
          inputs.map(([path]) => path),
        ),
      );
    },
    spliceDeclined() {
      before = { ...results.stats };
    },
    async keepSplice(discovery, spliced) {
      const recorded = results.recorded();
      if (base === null || baseParts === null || recorded === null) return;
      // Kept when the cache answered every document the splice checked (the next run after the
      // one that checked an edit), and git's state held for the kept answer's pins and for those
      // the splice asked about: the kept answer's state held when `reuse` compared it, each of the
      // splice's lookups told its own, and the answer depends on them together when they saw git
      // alike (git's refs or index moving since make the next run compare another state, and
      // build its answer again).
      const { hits, misses, unstored, onTree } = results.stats;
      if (misses > 0 || hits + unstored + onTree !== spliced.checked) return;
      // When git's history moved, the splice asked again of every document with stale pins: its lookups are all it depends on.
      let history: TakenHistoryState | null =
        base.history === null || historyMoved ? null : { state: base.history, artifacts: base.historyArtifacts };
      if (spliceAsked.length > 0) {
        const { joinedHistoryState } = await import('@aiwg-cite/git');
        for (const told of spliceAsked) {
          history = history === null ? told : joinedHistoryState(history, told);
          if (history === null) return;
        }
      }
      const covered = new Set(history?.artifacts ?? []);
      if (spliced.pinnedArtifacts.some((artifact) => !covered.has(artifact))) return;
      if (spliced.bytes > MAX_OUTPUT_BYTES) return;
      // The documents it did not check kept their bytes (`reuse` compared them), and the inputs theirs.
      const baseDigests = keptAnswer == null ? null : digestsOf(keptAnswer, base.documents.length);
      if (baseDigests === null) return;
      // The base's documents, by which its digests and parts are in order (a few may have come or gone since).
      const places = keptPlaces(base.documents, discovery.documents);
      const baseAt = (document: string, at: number): number => places.at(document, at) ?? -1;
      const digests: string[] = [];
      for (const [at, document] of discovery.documents.entries()) {
        const digest = recorded.digests.get(document) ?? baseDigests[baseAt(document, at)];
        if (digest === undefined) return;
        digests.push(digest);
      }
      // The base's inputs keep their places (and so the indexes its parts name them by).
      const states = new Map<string, string>();
      for (let at = 0; at < base.inputs.length; at += 2) states.set(base.inputs[at] as string, base.inputs[at + 1] as string);
      for (const [path, state] of recorded.inputs) states.set(path, state);
      const inputs = [...states];
      const checked = inputIndexes(discovery.documents, inputs, recorded.documentInputs);
      const kept = baseParts.inputs;
      write(
        {
          documents: discovery.documents,
          inputs: inputs.flat(),
          mentions: [...new Set([...base.mentions, ...input.mentions.resolved()])],
          history: history?.state ?? null,
          historyArtifacts: history?.artifacts ?? [],
          // The kept stamp, while git's state was the same before each of the splice's lookups.
          historyStamp: !historyMoved && spliceStamps.every((taken) => taken === base?.historyStamp?.taken) ? base.historyStamp : null,
          exit: spliced.exit,
        },
        digests,
        discovery,
        (append) =>
          spliced.handOn(append, (chunk) => {
            append(chunk);
            return true;
          }),
        keptParts(
          discovery.documents,
          spliced.outcomes,
          spliced.documents,
          recorded.unstored,
          spliced.places,
          // A document checked now depends on what it did now; any other, on what it did in the base.
          kept === null
            ? null
            : checked.map((indexes, at) =>
                recorded.documentInputs.documents.has(discovery.documents[at] as string)
                  ? indexes
                  : (kept[baseAt(discovery.documents[at] as string, at)] ?? null),
              ),
          // The outcomes of the documents it did not check, as the base kept them.
          { kept: base.documents, parts: baseParts, checked: spliced.checkedDocuments },
        ),
        await viewOf(
          discovery.documents,
          inputs.map(([path]) => path),
        ),
      );
    },
  };
}

/**
 * The inputs of a head (path and state): first the paths the result cache numbered
 * (`ResultCache.recorded`), in that order, so that the indexes it gives each document's inputs
 * name them in the head too (`numbered`: each of them has a state), then the others.
 */
function numberedFirst(states: ReadonlyMap<string, string>, paths: readonly string[]): { inputs: [string, string][]; numbered: boolean } {
  const inputs: [string, string][] = [];
  const placed = new Set<string>();
  for (const path of paths) {
    const state = states.get(path);
    if (state === undefined) break;
    inputs.push([path, state]);
    placed.add(path);
  }
  const numbered = inputs.length === paths.length;
  for (const [path, state] of states) if (!placed.has(path)) inputs.push([path, state]);
  return { inputs, numbered };
}

/**
 * Each document's inputs by their index in `inputs` (a head's, as path and state), from the
 * result cache's record (`ResultCache.recorded`); `null` for a document whose inputs it does not
 * know, or that names one the head does not have.
 */
function inputIndexes(
  documents: readonly string[],
  inputs: readonly (readonly [string, string])[],
  recorded: { readonly paths: readonly string[]; readonly documents: ReadonlyMap<string, readonly number[]> },
): (number[] | null)[] {
  const position = new Map(inputs.map(([path], at) => [path, at]));
  const positions = recorded.paths.map((path) => position.get(path));
  return documents.map((document) => {
    const indexes = recorded.documents.get(document);
    return indexes === undefined ? null : named(positions, indexes);
  });
}

/** The paths of a head's inputs (it lists each with its state). */
function inputPaths(head: AnswerHead): string[] {
  return head.inputs.filter((_, at) => at % 2 === 0);
}

/** The size of git's index file; 0 when it cannot be looked at. */
function indexSize(file: string): number {
  try {
    return statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  } catch {
    return 0;
  }
}

/** The environment that can change a run's answer: git's (`GIT_*`: what it lists and answers) and aiwg-cite's own. */
function environment(env: Readonly<Record<string, string | undefined>>): [string, string][] {
  return Object.entries(env)
    .filter(
      (entry): entry is [string, string] => (entry[0].startsWith('GIT_') || entry[0].startsWith('AIWG_CITE_')) && entry[1] !== undefined,
    )
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function isKeptStamp(value: unknown): value is KeptStamp {
  const stamp = value as Partial<KeptStamp> | undefined;
  return typeof stamp === 'object' && stamp !== null && typeof stamp.taken === 'string' && isStrings(stamp.files) && isStrings(stamp.trees);
}

/** Whether a kept head is one of this layout (the signature vouches for the bytes; this refuses other layouts). */
function isHead(value: unknown): value is AnswerHead {
  const head = value as Partial<AnswerHead> | null;
  return (
    typeof head === 'object' &&
    head !== null &&
    head.format === HEAD_FORMAT &&
    typeof head.key === 'string' &&
    isStrings(head.documents) &&
    isStrings(head.notes) &&
    isStrings(head.inputs) &&
    head.inputs.length % 2 === 0 &&
    typeof head.run === 'string' &&
    isStrings(head.mentions) &&
    (head.history === null || typeof head.history === 'string') &&
    isStrings(head.historyArtifacts) &&
    (head.historyStamp === null || isKeptStamp(head.historyStamp)) &&
    (head.exit === 0 || head.exit === 1) &&
    typeof head.spliced === 'boolean'
  );
}
