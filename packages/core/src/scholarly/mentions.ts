import type { MaybePromise } from '../ports.ts';

/** An `@path` mention (SPEC §3.3). */
export interface MentionMatch {
  /** The mention as written, `@` included, trailing punctuation excluded. */
  readonly text: string;
  readonly start: number;
  readonly end: number;
  /** The path after `@` and any `$AIWG_ROOT/`. */
  readonly path: string;
  /** True for `@$AIWG_ROOT/…`. */
  readonly aiwgRoot: boolean;
}

/** Where a mention points: the project root, or the aiwg installation named by `$AIWG_ROOT`. */
export interface MentionTarget {
  readonly base: 'root' | 'aiwg-root';
  /** A normalised relative path. */
  readonly path: string;
}

/**
 * What a host found at a mention: `unavailable` when the base cannot be looked at all
 * (`$AIWG_ROOT` unset, or the usually gitignored `.aiwg/` directory absent).
 */
export type MentionResolution = 'file' | 'directory' | 'missing' | 'unavailable';

/** The host port that resolves mentions; `.aiwg/` may live outside the root (SPEC §2.3 item 4). */
export type MentionResolver = (target: MentionTarget) => MaybePromise<MentionResolution>;

/** What may follow the `@`: an optional `$AIWG_ROOT/`, then an aiwg path or a file path with an extension. */
const MENTION_BODY = /(\$AIWG_ROOT\/)?((?:\.aiwg|aiwg)\/[\w./-]*|[A-Za-z][\w./-]*\.[A-Za-z0-9]{1,10})(?![\w@])/y;
/** What may stand before the `@`: line start, whitespace or an opening bracket or quote. */
const MENTION_BEFORE = /[\s([{"']/;

/** Finds `@path` mentions: not e-mail addresses, not `@octocat`, not `@types/node`. */
export function findMentions(text: string): MentionMatch[] {
  const found: MentionMatch[] = [];
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    if (at > 0 && !MENTION_BEFORE.test(text[at - 1] as string)) continue;
    MENTION_BODY.lastIndex = at + 1;
    const match = MENTION_BODY.exec(text);
    if (match === null) continue;
    const path = (match[2] as string).replace(/[.,;:)]+$/, '');
    if (path === '' || path === '.aiwg' || path === 'aiwg') continue;
    if (!/^\.?aiwg\//.test(path) && !/\.[A-Za-z0-9]{1,10}$/.test(path)) continue;
    const prefix = match[1] ?? '';
    const textOf = `@${prefix}${path}`;
    found.push({ text: textOf, start: at, end: at + textOf.length, path, aiwgRoot: prefix !== '' });
  }
  return found;
}
