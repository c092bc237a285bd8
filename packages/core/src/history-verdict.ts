import { historyMessages } from './drift/messages.ts';
import { rlmMessages } from './messages.ts';
import type { Finding } from './report.ts';
import { RULES } from './rules.ts';

/** A versioned citation's pin: the artifact and the hash it cites. */
export interface Pin {
  readonly artifact: string;
  readonly hash: string;
}

/** Where git looked for a pinned version: the words of the `unknown-hash` message. */
export type VersionSource = 'history' | 'index' | 'working tree';

/** What git knows of one pin. Facts only: the verdict is {@link judgeHistory}'s. */
export interface PinFacts {
  /** git keeps the artifact's content (false: untracked, or a symlink, whose target text git stores). */
  readonly tracked: boolean;
  /** The hash is the content of a committed version (any ref) or of the staged one. */
  readonly known: boolean;
  /** The hash is the working-tree file's content as git would store it; `null` when not consulted. */
  readonly workingTree: boolean | null;
  /** The staged version's hash, when the index holds the artifact. */
  readonly staged?: string | null;
}

/** git's answer for a set of pins. */
export type HistoryAnswer =
  /** Not a repository: there is no history, and none is expected. */
  | { readonly kind: 'unavailable' }
  /** History is incomplete: an absent hash proves nothing. */
  | { readonly kind: 'incomplete'; readonly reason: 'shallow' | 'no-commits' }
  | {
      readonly kind: 'facts';
      /** By {@link pinKey}. A pin missing here is treated as untracked. */
      readonly facts: ReadonlyMap<string, PinFacts>;
      /** What was searched, for the message: never claim a source that was not read. */
      readonly searched: readonly VersionSource[];
    };

/** The history port: git (or any version store) answers for the pins of stale citations. */
export interface HistoryFacts {
  lookup(pins: readonly Pin[]): Promise<HistoryAnswer>;
}

/** The map key of a pin. */
export function pinKey(pin: Pin): string {
  return `${pin.artifact}\u0000${pin.hash}`;
}

/** The stale, versioned RLM findings whose pins the history stage asks about. */
export function stalePins(findings: readonly Finding[]): Pin[] {
  const seen = new Map<string, Pin>();
  for (const finding of findings) {
    if (!isStaleVersioned(finding)) continue;
    const pin = { artifact: finding.artifact as string, hash: finding.hash as string };
    seen.set(pinKey(pin), pin);
  }
  return [...seen.values()];
}

/** The outcome of {@link judgeHistory}. */
export interface HistoryJudgement {
  readonly findings: Finding[];
  readonly notes: string[];
}

/**
 * The history stage's verdicts (issue #6, issue 15): a stale pin whose hash no version of the
 * artifact ever had becomes `unknown-hash` (an error: a fabricated pin); one whose hash is the
 * working-tree file that is not staged becomes `unstaged` (only when the check compares with the
 * index and git looked at the working tree). `current` names what the citation was compared with
 * first, so the message lists only sources that were really read.
 */
export function judgeHistory(
  findings: readonly Finding[],
  answer: HistoryAnswer,
  current: VersionSource = 'working tree',
): HistoryJudgement {
  if (answer.kind === 'unavailable') return { findings: [...findings], notes: [] };
  if (!findings.some(isStaleVersioned)) return { findings: [...findings], notes: [] };
  if (answer.kind === 'incomplete') {
    return { findings: [...findings], notes: [answer.reason === 'shallow' ? historyMessages.shallow() : historyMessages.noCommits()] };
  }
  const searched = orderSources([current, ...answer.searched]);
  let untracked = 0;
  const out: Finding[] = [];
  for (const finding of findings) {
    if (!isStaleVersioned(finding)) {
      out.push(finding);
      continue;
    }
    const artifact = finding.artifact as string;
    const hash = finding.hash as string;
    const facts = answer.facts.get(pinKey({ artifact, hash }));
    if (facts === undefined || !facts.tracked) {
      untracked += 1;
      out.push(finding);
      continue;
    }
    if (facts.known) {
      out.push(finding);
      continue;
    }
    if (facts.workingTree === true && current !== 'working tree') {
      out.push({
        ...finding,
        status: 'unstaged',
        severity: RULES['rlm/unstaged'].severity,
        rule: 'rlm/unstaged',
        message: rlmMessages.unstaged(artifact, hash),
        fix: rlmMessages.unstagedFix(artifact, facts.staged ?? null),
      });
      continue;
    }
    const currentHash = typeof finding.currentHash === 'string' ? finding.currentHash : null;
    out.push({
      ...finding,
      status: 'unknown-hash',
      severity: RULES['rlm/unknown-hash'].severity,
      rule: 'rlm/unknown-hash',
      message: historyMessages.unknownHash(artifact, hash, searched),
      fix: historyMessages.unknownHashFix(artifact, currentHash),
    });
  }
  return { findings: out, notes: untracked > 0 ? [historyMessages.untracked(untracked)] : [] };
}

const SOURCE_ORDER: readonly VersionSource[] = ['history', 'index', 'working tree'];

function orderSources(sources: readonly VersionSource[]): VersionSource[] {
  return SOURCE_ORDER.filter((source) => sources.includes(source));
}

/** Whether the history stage asks git about this finding's pin: a stale, versioned RLM citation. */
export function isStaleVersioned(finding: Finding): boolean {
  return finding.kind === 'rlm' && finding.status === 'stale' && typeof finding.hash === 'string' && typeof finding.artifact === 'string';
}
