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
 * (`$AIWG_ROOT` unset, or the usually gitignored `.aiwg/` directory absent); `ignored` when the path
 * is absent and git ignores it, so no clone has it and nothing here can say whether it exists;
 * `package` when the absent path is an import path into an npm package the project depends on
 * (`@scope/name/file.css`), which names no file of the repository.
 */
export type MentionResolution = 'file' | 'directory' | 'missing' | 'unavailable' | 'ignored' | 'package';

/** The host port that resolves mentions; `.aiwg/` may live outside the root (SPEC §2.3 item 4). */
export type MentionResolver = (target: MentionTarget) => MaybePromise<MentionResolution>;

/**
 * What may follow the `@`: an optional `$AIWG_ROOT/`, then an aiwg path or a file path with an
 * extension, which may open with `./` or `../` (relative to its document, as Claude Code reads it).
 */
const MENTION_BODY = /(\$AIWG_ROOT\/)?((?:\.aiwg|aiwg)\/[\w./-]*|(?:\.\.?\/)*[A-Za-z][\w./-]*\.[A-Za-z0-9]{1,10})(?![\w@])/y;
/** What may stand before the `@`: line start, whitespace or an opening bracket or quote. */
const MENTION_BEFORE = /[\s([{"']/;

/**
 * File types a bare `@name.ext` (no `/`) must have to be read as a file mention: `@README.md` and
 * `@setup.py` are files while `@acme.ai`, `@jane.dev` and `@shop.io` are social-media handles or
 * domains. A mention with a `/` is a path (see {@link isFileMention} for scoped npm packages).
 */
const FILE_TYPES = new Set(
  [
    'md markdown mdx txt rst adoc org tex bib json jsonc json5 yaml yml toml ini cfg conf env xml csv tsv ipynb pdf',
    'ts tsx mts cts js jsx mjs cjs py pyi rb go rs java kt kts swift c h cc cpp hpp cs fs php pl lua r jl dart ex exs erl hs scala clj',
    'sh bash zsh fish ps1 bat cmd sql graphql gql proto html htm css scss sass less vue svelte astro',
    'png jpg jpeg gif svg webp ico mp4 mp3 wav zip gz tgz tar lock log patch diff',
    'prisma gradle properties tf tfvars hcl nix mod sum cmake mk mdc zig sol vim erb ejs hbs njk liquid twig j2 tpl',
  ]
    .join(' ')
    .split(' '),
);

/**
 * True when a mention names a path that could exist: its extension is a file type, or it is a path
 * (a `/`) that is not a scope and a package name: `@nodelib/fs.stat` and `@types/lodash.debounce`
 * (two segments, the second's "extension" no file type; each such package's README title) are npm
 * packages, not files. `.aiwg/` paths are always paths.
 */
export function isFileMention(path: string): boolean {
  const extension = /\.([A-Za-z0-9]{1,10})$/.exec(path)?.[1];
  if (extension !== undefined && FILE_TYPES.has(extension.toLowerCase())) return true;
  const slash = path.indexOf('/');
  if (slash === -1) return false;
  return extension === undefined || path.indexOf('/', slash + 1) !== -1 || /^\.?aiwg\//.test(path);
}

/** Finds `@path` mentions: not e-mail addresses, not `@octocat`, not `@types/node`, not `@acme.ai`. */
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
    if (!isFileMention(path)) continue;
    // `@.aiwg/register/{id}.yaml`, `@docs/<name>.md`: a template of a path, not a path.
    if (/^[{<$]/.test(text.slice(at + 1 + (match[1] ?? '').length + path.length))) continue;
    const prefix = match[1] ?? '';
    const textOf = `@${prefix}${path}`;
    found.push({ text: textOf, start: at, end: at + textOf.length, path, aiwgRoot: prefix !== '' });
  }
  return found;
}
