import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ArtifactReader,
  contentHash,
  type HistoryAnswer,
  type HistoryFacts,
  type Pin,
  type PinFacts,
  pinKey,
  replacementContentHash,
  type Sha256,
  type VersionSource,
} from '@aiwg-cite/core';
import { GitHistory } from './history.ts';

/** Options of {@link createHistoryFacts}. */
export interface HistoryFactsOptions {
  /** The check root (absolute). */
  readonly root: string;
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Reads the working tree as git would store it. Given in `check --staged`, where the citations
   * are compared with the index: a pin of the unstaged working-tree file is then a fact worth
   * telling. Omitted in `check`, where the working tree is what was compared.
   */
  readonly workingTree?: ArtifactReader;
  readonly sha256?: Sha256;
  /**
   * Facts kept between lookups of a long-running caller (the watch); not used with `workingTree`,
   * whose facts follow every edit.
   */
  readonly memo?: HistoryFactsMemo;
  /**
   * Asked at the start of each lookup, with the artifacts its pins name (sorted, once each): where
   * to tell what the lookup's answer depends on ({@link historyState} for those artifacts, taken
   * from the repository this lookup opened), or `null` to tell nothing and ask git nothing more.
   */
  readonly tellState?: (artifacts: readonly string[]) => ((state: string) => void) | null;
  /**
   * With `memo`: git's refs and index as they look on disk (a {@link GitStateStamp}'s `take`),
   * asked first. While it stays what it was when the memo's facts were last looked up, no ref,
   * HEAD, grafts file or index has moved, and pins the memo holds are answered without starting
   * git (a watch's process is large, and each git it starts costs tens of milliseconds).
   */
  readonly stateStamp?: () => string | null;
}

/**
 * The facts of pins looked up before, kept for as long as git's state stays the same
 * (`GitHistory.factsState`: every ref's commit and the index file). A watch that checks the same
 * document again after each save then asks git where its refs stand instead of walking the
 * history, reading the index and hashing blobs for every batch.
 */
export class HistoryFactsMemo {
  #state: string | null = null;
  /** The state stamp taken before the lookup that last found {@link #state} (see `stateStamp`). */
  #stamp: string | null = null;
  readonly #facts = new Map<string, PinFacts>();

  /**
   * The facts kept in `state`; those kept in another state are dropped. `stamp`: the state stamp
   * taken before this lookup opened git, or `null`.
   */
  factsIn(state: string, stamp: string | null = null): Map<string, PinFacts> {
    if (state !== this.#state) {
      this.#facts.clear();
      this.#state = state;
    }
    this.#stamp = stamp;
    return this.#facts;
  }

  /** The facts kept, when `stamp` is the one taken before they were last looked up (nothing git keeps moved since); else `null`. */
  factsUnder(stamp: string): ReadonlyMap<string, PinFacts> | null {
    return this.#state !== null && this.#stamp === stamp ? this.#facts : null;
  }
}

/**
 * The history port over git: for each stale pin, whether git tracks the artifact's content and
 * whether any version of it (any ref, the index, and with `workingTree` the unstaged file) has
 * the pinned hash. Facts only; the core's `judgeHistory` makes them verdicts. Git is opened per
 * lookup and closed after it, so a long-running caller (watch) sees new commits.
 */
export function createHistoryFacts(options: HistoryFactsOptions): HistoryFacts {
  return {
    async lookup(pins) {
      // Taken before git is asked anything: a ref moved while this lookup runs makes the next stamp differ.
      const stamp = options.memo !== undefined && options.workingTree === undefined ? (options.stateStamp?.() ?? null) : null;
      if (stamp !== null && options.tellState === undefined) {
        const kept = fromMemo(options.memo?.factsUnder(stamp) ?? null, pins, options);
        if (kept !== null) return kept;
      }
      const history = GitHistory.open(options.root, options.env);
      if (options.tellState !== undefined) {
        const artifacts = [...new Set(pins.map((pin) => pin.artifact))].sort();
        options.tellState(artifacts)?.(stateOf(history, options.root, artifacts));
      }
      // Outside git there is no history to consult, and none is expected.
      if (history === null) return { kind: 'unavailable' };
      try {
        const none = noHistory(history);
        if (none !== null) return { kind: 'incomplete', reason: none };
        if (options.memo !== undefined && options.workingTree === undefined)
          return await keptFacts(history, pins, options, options.memo, stamp);
        return await collectFacts(history, pins, options);
      } finally {
        await history.close();
      }
    },
  };
}

/**
 * What the answers of {@link createHistoryFacts} (without `workingTree`) for pins of `artifacts`
 * depend on besides the pins, as one string: whether there is a history to consult (the same
 * branches as its lookup), `GitHistory.factsState`, and which of the artifacts are symbolic links
 * in the working tree (their facts come from there). Two lookups of the same pins in the same
 * state give the same answer. `regular` names artifacts known to be regular files (git's index
 * vouching for them unchanged): they are not looked at.
 */
export async function historyState(
  root: string,
  env: NodeJS.ProcessEnv | undefined,
  artifacts: readonly string[],
  regular?: (artifact: string) => boolean,
): Promise<string> {
  const history = GitHistory.open(root, env);
  try {
    return stateOf(history, root, artifacts, regular);
  } finally {
    await history?.close();
  }
}

/**
 * A {@link historyState} taken earlier, with which artifacts are symbolic links looked at again:
 * what `historyState` would give now while git's refs and index are as they were then (a
 * `GitStateStamp` that has not changed says so), without opening the repository. `null` for a
 * state that is not one.
 */
export function historyStateAgain(kept: string, root: string, regular?: (artifact: string) => boolean): string | null {
  let value: unknown;
  try {
    value = JSON.parse(kept);
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 3 || typeof value[0] !== 'string' || !Array.isArray(value[1])) return null;
  const artifacts = value[1] as unknown[];
  if (!artifacts.every((artifact): artifact is string => typeof artifact === 'string')) return null;
  return JSON.stringify([value[0], artifacts, artifacts.map((artifact) => regular?.(artifact) !== true && isSymlink(root, artifact))]);
}

/** A {@link historyState} with the artifacts it was taken for. */
export interface TakenHistoryState {
  readonly state: string;
  readonly artifacts: readonly string[];
}

/**
 * The {@link historyState} of the artifacts of two states together, as one call for them all
 * (sorted, once each) would give it, when both saw git in the same state and each artifact the
 * same (a symbolic link or not); else `null`. A run that asked git about more pins than the
 * answer it builds on (a splice) keeps what both depend on without asking git again.
 */
export function joinedHistoryState(one: TakenHistoryState, other: TakenHistoryState): TakenHistoryState | null {
  const parts = [one.state, other.state].map((state) => {
    try {
      const value: unknown = JSON.parse(state);
      return Array.isArray(value) && value.length === 3 && Array.isArray(value[1]) && Array.isArray(value[2]) ? value : null;
    } catch {
      return null;
    }
  });
  const [first, second] = parts;
  if (first == null || second == null || first[0] !== second[0]) return null;
  const links = new Map<string, unknown>();
  for (const [artifacts, flags] of [
    [first[1], first[2]],
    [second[1], second[2]],
  ] as const) {
    for (const [at, artifact] of artifacts.entries()) {
      if (typeof artifact !== 'string' || (links.has(artifact) && links.get(artifact) !== flags[at])) return null;
      links.set(artifact, flags[at]);
    }
  }
  const artifacts = [...links.keys()].sort();
  return { state: JSON.stringify([first[0], artifacts, artifacts.map((artifact) => links.get(artifact))]), artifacts };
}

/** {@link historyState} of an opened repository (`null`: outside git). */
function stateOf(history: GitHistory | null, root: string, artifacts: readonly string[], regular?: (artifact: string) => boolean): string {
  const git = history === null ? 'unavailable' : (noHistory(history) ?? `facts ${history.factsState()}`);
  return JSON.stringify([git, artifacts, artifacts.map((artifact) => regular?.(artifact) !== true && isSymlink(root, artifact))]);
}

/** Why a repository's history proves nothing about a pin (a shallow clone, no commits yet), or `null`. */
function noHistory(history: GitHistory): 'shallow' | 'no-commits' | null {
  if (history.isShallow) return 'shallow';
  return history.hasCommits() ? null : 'no-commits';
}

/** {@link collectFacts} for the pins `memo` does not have in git's present state; the others from it. */
async function keptFacts(
  history: GitHistory,
  pins: readonly Pin[],
  options: HistoryFactsOptions,
  memo: HistoryFactsMemo,
  stamp: string | null,
): Promise<HistoryAnswer> {
  const kept = memo.factsIn(history.factsState(), stamp);
  const keyed = keyedPins(pins, options.root);
  const wanted = keyed.filter(({ key }) => !kept.has(key));
  if (wanted.length > 0) {
    const answer = await collectFacts(
      history,
      wanted.map(({ pin }) => pin),
      options,
    );
    for (const { pin, key } of wanted) {
      const facts = answer.facts.get(pinKey(pin));
      if (facts !== undefined) kept.set(key, facts);
    }
  }
  const facts = new Map<string, PinFacts>();
  for (const { pin, key } of keyed) {
    const known = kept.get(key);
    if (known !== undefined) facts.set(pinKey(pin), known);
  }
  return { kind: 'facts', facts, searched: searchedIn(options) };
}

/**
 * Each pin with the key its facts are kept under: a symbolic link's facts come from the working
 * tree, not git (see collectFacts), so each pin is kept under what its artifact is now.
 */
function keyedPins(pins: readonly Pin[], root: string): { pin: Pin; key: string }[] {
  const links = new Map<string, boolean>();
  const keyOf = (pin: Pin) => {
    let link = links.get(pin.artifact);
    if (link === undefined) {
      link = isSymlink(root, pin.artifact);
      links.set(pin.artifact, link);
    }
    return `${link ? 'link' : 'file'}\0${pinKey(pin)}`;
  };
  return pins.map((pin) => ({ pin, key: keyOf(pin) }));
}

/** The answer of {@link keptFacts} from `kept` alone, when it holds every pin; else `null` (git is asked). */
function fromMemo(kept: ReadonlyMap<string, PinFacts> | null, pins: readonly Pin[], options: HistoryFactsOptions): HistoryAnswer | null {
  if (kept === null) return null;
  const facts = new Map<string, PinFacts>();
  for (const { pin, key } of keyedPins(pins, options.root)) {
    const known = kept.get(key);
    if (known === undefined) return null;
    facts.set(pinKey(pin), known);
  }
  return { kind: 'facts', facts, searched: searchedIn(options) };
}

async function collectFacts(history: GitHistory, pins: readonly Pin[], options: HistoryFactsOptions): Promise<HistoryFactsAnswer> {
  const facts = new Map<string, PinFacts>();
  const artifacts = [...new Set(pins.map((pin) => pin.artifact))];
  // First pass: every blob of every artifact under its current name, from one git log.
  const byPath = history.blobsByPath(artifacts);
  const quick = await history.hashBlobs([...byPath.values()].flatMap((oids) => [...oids]));
  const quickHashes = new Map<string, Set<string>>();
  for (const artifact of artifacts) {
    const hashes = new Set<string>();
    for (const oid of byPath.get(artifact) ?? []) {
      const hash = quick.get(oid);
      if (hash === undefined) continue;
      hashes.add(hash.raw);
      if (hash.replacement !== null) hashes.add(hash.replacement);
    }
    quickHashes.set(artifact, hashes);
  }
  // Only a hash the first pass cannot explain needs the rename-following pass (earlier names, the
  // index): one pass for all such artifacts.
  const symlinks = new Map(artifacts.map((artifact) => [artifact, isSymlink(options.root, artifact)]));
  const unexplained = new Set(
    pins
      .filter((pin) => symlinks.get(pin.artifact) !== true && quickHashes.get(pin.artifact)?.has(pin.hash) !== true)
      .map((pin) => pin.artifact),
  );
  const full = await history.knownHashesOf([...unexplained]);
  const staged = new Map<string, string | null>();
  const worktree = new Map<string, Set<string> | null>();
  for (const pin of pins) {
    const { artifact, hash } = pin;
    if (symlinks.get(artifact) === true) {
      // git stores a link's target path, not the content it leads to: there is nothing to compare.
      facts.set(pinKey(pin), { tracked: false, known: false, workingTree: null });
      continue;
    }
    if (quickHashes.get(artifact)?.has(hash) === true) {
      facts.set(pinKey(pin), { tracked: true, known: true, workingTree: null });
      continue;
    }
    const known = full.get(artifact) ?? null;
    if (known === null) {
      facts.set(pinKey(pin), { tracked: false, known: false, workingTree: null });
      continue;
    }
    if (known.has(hash)) {
      facts.set(pinKey(pin), { tracked: true, known: true, workingTree: null });
      continue;
    }
    let inWorkingTree: boolean | null = null;
    if (options.workingTree !== undefined) {
      if (!worktree.has(artifact)) worktree.set(artifact, await workingTreeHashes(options.workingTree, artifact, options.sha256));
      inWorkingTree = worktree.get(artifact)?.has(hash) ?? false;
      if (!staged.has(artifact)) staged.set(artifact, await stagedHash(history, artifact, options.sha256));
    }
    facts.set(pinKey(pin), { tracked: true, known: false, workingTree: inWorkingTree, staged: staged.get(artifact) ?? null });
  }
  return { kind: 'facts', facts, searched: searchedIn(options) };
}

type HistoryFactsAnswer = Extract<HistoryAnswer, { kind: 'facts' }>;

function searchedIn(options: HistoryFactsOptions): VersionSource[] {
  return ['history', 'index', ...(options.workingTree === undefined ? [] : ['working tree' as const])];
}

async function workingTreeHashes(reader: ArtifactReader, artifact: string, sha256: Sha256 | undefined): Promise<Set<string> | null> {
  const read = await reader.read(artifact);
  if (read.kind !== 'file') return null;
  const hashes = new Set([await contentHash(read.bytes, sha256)]);
  const replaced = await replacementContentHash(read.bytes, sha256);
  if (replaced !== null) hashes.add(replaced);
  return hashes;
}

async function stagedHash(history: GitHistory, artifact: string, sha256: Sha256 | undefined): Promise<string | null> {
  const object = await history.readIndex(artifact);
  return object === null || object.type !== 'blob' ? null : contentHash(object.bytes, sha256);
}

/** Whether an artifact is a symbolic link in the working tree: its facts then come from there, not git. */
function isSymlink(root: string, artifact: string): boolean {
  try {
    return lstatSync(join(root, artifact)).isSymbolicLink();
  } catch {
    return false;
  }
}
