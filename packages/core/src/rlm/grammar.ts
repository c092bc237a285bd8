import { isPlaceholderPath } from '../paths.ts';

/**
 * The RLM citation grammar (SPEC §2.1–2.2, aiwg `citation-tuple.json`). aiwg's published inline
 * regex opens with a greedy `[^@\]]+` and misparses `[src/legacy/auth.py, L88]`; these patterns
 * anchor each form on its own instead.
 */

/** A cited line range, 1-based and inclusive. */
export interface LineRange {
  readonly start: number;
  readonly end: number;
  /** The range as written, `L42-58` or `L88`. */
  readonly text: string;
}

/** How a citation was written. */
export type RlmForm = 'versioned' | 'path-only' | 'bare' | 'footer';

/** A well-formed RLM citation candidate. */
export interface RlmParsed {
  readonly id: string;
  readonly hash: string | null;
  readonly lines: LineRange | null;
  readonly form: RlmForm;
  /**
   * A bare `[name]` without `/` and an extension, or an example path (`path/to/file.ts`), is a
   * citation only if it names an existing file.
   */
  readonly needsExistingFile: boolean;
}

/** A near-miss: what is wrong with it, and the strict form it was probably meant to be. */
export interface RlmMalformed {
  readonly defects: readonly string[];
  readonly normalised: RlmParsed;
}

/** The classification of the inner text of a `[…]` candidate. */
export type RlmClassification =
  | { readonly type: 'citation'; readonly citation: RlmParsed }
  | { readonly type: 'malformed'; readonly malformed: RlmMalformed }
  | { readonly type: 'none' };

const VERSIONED = /^(\S(?:[^@\n]*\S)?)@([0-9a-f]{16})(?:, (L\d+(?:-\d+)?))?$/;
const PATH_ONLY = /^([^\s@]+), (L\d+(?:-\d+)?)$/;
const BARE = /^[^\s@,]+$/;
/** A file extension at the end: `.ts`, `.md` (1-10 letters or digits). */
const EXTENSION = /\.[A-Za-z0-9]{1,10}$/;
/** A name that ends in a file type with a letter in it (`x.ts`, `src/a.py`, `b.7z`), not a version (`v2.0.0`). */
const FILE_NAME = /\.[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*$/;
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;
/**
 * A last segment that is a version or a number (`v1.3`, `2.0.0`, `v20.x`, `2.5`): `[v1.2/v1.3]`,
 * `[node/v20.x]` and `[1/2.5]` in prose are versions and ratios, not files.
 */
const VERSION_NAME = /(?:^|[/\\])v?\d+(?:\.(?:\d+|x))+$/i;

/** A relative path a manual writes as an example (`path/to/file.ts`): a citation only if the file exists. */
function isExamplePath(id: string): boolean {
  return !/^(?:[/~]|[A-Za-z]:)/.test(id) && isPlaceholderPath(id);
}

/**
 * `/\/.*\.[A-Za-z0-9]{1,10}$/.test(id)`: a `/` somewhere before a final extension, on the same
 * line. That regex tried `.*` from every `/` (quadratic: 5 s for a 40 kB `a/a/a/…` bracket); this
 * finds the extension once and looks back for the `/`.
 */
export function hasPathWithExtension(id: string): boolean {
  const extension = EXTENSION.exec(id);
  if (extension === null) return false;
  const slash = id.lastIndexOf('/', extension.index - 1);
  return slash !== -1 && !LINE_TERMINATOR.test(id.slice(slash + 1, extension.index));
}
/**
 * A path-shaped id: optional `/`, `~/`, `./` or `../` prefixes, then segments of letters, digits,
 * `.`, `_`, `-` and `+` joined by `/` or `\`. Text such as `>4.0/5.0` or `a|b` is not a path.
 * Written so that each character has one way to match: the earlier
 * `(?:[/\\]?[\p{L}\p{N}_.+-]+)+` backtracked exponentially on a run of name characters before a
 * character that fails (`[aaaaaaaaaaaaaaaaaaaaaaaa!]` took 0.6 s, each letter more doubled it).
 */
export const PATH_SHAPED = /^(?:~(?=\/|$)|\.{1,2}(?=\/))?[/\\]?[\p{L}\p{N}_.+-]+(?:[/\\][\p{L}\p{N}_.+-]+)*$/u;
/** An absolute or home-relative path: a citation, always `outside-root`, never read. */
const OUTSIDE_ROOT = /^(?:\/|~\/)/;
/**
 * One segment after `/`, with no extension: `[/mo]`, `[/help]`, `[/yr]` read as a unit or a slash
 * command, not as a file at the root of the file system, so a bare one is not a citation.
 */
const SLASH_WORD = /^\/[^/\\.]+$/;
const NEAR_MISS = /^([^\s@,]+)(?:@([0-9A-Fa-f]{6,}))?(?:(\s*,\s*)([Ll])(\s*)(\d+)(?:(\s*)([-–—])(\s*)([Ll]?)(\d+))?)?$/;
const FOOTER_VERSIONED = /^(\S(?:[^@\n]*?\S)?)@([0-9a-f]{16})(?: \((L\d+(?:-\d+)?)\))?[ \t]*$/;
const FOOTER_PATH_ONLY = /^([^\s@[\]]+)(?: \((L\d+(?:-\d+)?)\))? \[un-versioned\][ \t]*$/;

/** Parses `L42-58` or `L88`. */
export function parseLineRange(text: string): LineRange {
  const dash = text.indexOf('-');
  const start = parseDigits(text, 1, dash === -1 ? text.length : dash);
  const end = dash === -1 ? start : parseDigits(text, dash + 1, text.length);
  return { start, end, text };
}

/**
 * `Number.parseInt(text.slice(from, to), 10)` without the copy when `[from, to)` is 1 to 15 ASCII
 * digits (exact in a double); anything else goes to parseInt.
 */
function parseDigits(text: string, from: number, to: number): number {
  if (to <= from || to - from > 15) return Number.parseInt(text.slice(from, to), 10);
  let value = 0;
  for (let at = from; at < to; at += 1) {
    const digit = text.charCodeAt(at) - 48;
    if (digit < 0 || digit > 9) return Number.parseInt(text.slice(from, to), 10);
    value = value * 10 + digit;
  }
  return value;
}

/** Classifies the inner text of a bracket candidate that survived the exclusion rules. */
export function classifyInner(inner: string): RlmClassification {
  const versioned = VERSIONED.exec(inner);
  if (versioned !== null) {
    return {
      type: 'citation',
      citation: {
        id: versioned[1] as string,
        hash: versioned[2] as string,
        lines: versioned[3] === undefined ? null : parseLineRange(versioned[3]),
        form: 'versioned',
        needsExistingFile: isExamplePath(versioned[1] as string),
      },
    };
  }
  const pathOnly = PATH_ONLY.exec(inner);
  if (pathOnly !== null && PATH_SHAPED.test(pathOnly[1] as string)) {
    return {
      type: 'citation',
      citation: {
        id: pathOnly[1] as string,
        hash: null,
        lines: parseLineRange(pathOnly[2] as string),
        form: 'path-only',
        needsExistingFile: isExamplePath(pathOnly[1] as string),
      },
    };
  }
  if (BARE.test(inner)) {
    if (!PATH_SHAPED.test(inner) || SLASH_WORD.test(inner)) return { type: 'none' };
    const needsExistingFile =
      (!hasPathWithExtension(inner) && !OUTSIDE_ROOT.test(inner)) ||
      isExamplePath(inner) ||
      (VERSION_NAME.test(inner) && !OUTSIDE_ROOT.test(inner));
    return { type: 'citation', citation: { id: inner, hash: null, lines: null, form: 'bare', needsExistingFile } };
  }
  return diagnose(inner);
}

/**
 * `classifyInner(inner).type !== 'none'` without building the result: extraction only counts the
 * candidates that stand in code, so it need not make their objects.
 */
export function isClassified(inner: string): boolean {
  if (VERSIONED.test(inner)) return true;
  const pathOnly = PATH_ONLY.exec(inner);
  if (pathOnly !== null && PATH_SHAPED.test(pathOnly[1] as string)) return true;
  if (BARE.test(inner)) return PATH_SHAPED.test(inner) && !SLASH_WORD.test(inner);
  return diagnose(inner).type !== 'none';
}

/** Explains a near-miss, or returns `none` for text that is not trying to be a citation. */
function diagnose(inner: string): RlmClassification {
  const match = NEAR_MISS.exec(inner);
  if (match === null) return { type: 'none' };
  const [, id, hash, separator, lMark, lGap, startDigits, dashGap1, dash, dashGap2, endL, endDigits] = match;
  if (hash === undefined && startDigits === undefined) return { type: 'none' };
  // Without a line range, a short hash after a name that is no file (`[main@a1b2c3d]`,
  // `[actions/checkout@<40 hex>]`, `[v2.0.0@3f4e5d6a]`) is a git ref, not a citation gone wrong.
  if (startDigits === undefined && !FILE_NAME.test(id as string)) return { type: 'none' };
  const defects: string[] = [];
  let normalisedHash: string | null = null;
  if (hash !== undefined) {
    const hasUpper = /[A-F]/.test(hash);
    if (hash.length !== 16) defects.push(`hash \`${hash}\` has ${hash.length} hex characters, not 16`);
    if (hasUpper) defects.push(`hash \`${hash}\` uses uppercase hex`);
    if (hash.length === 16) normalisedHash = hash.toLowerCase();
  }
  let lines: LineRange | null = null;
  if (startDigits !== undefined) {
    if (separator !== ', ') defects.push(`the separator before the line range must be exactly \`, \`, not \`${separator}\``);
    if (lMark !== 'L') defects.push('the line range must start with an uppercase `L`');
    if (lGap !== '') defects.push('no space may follow `L`');
    if (dash !== undefined && dash !== '-') defects.push(`the range uses \`${dash}\` where a hyphen \`-\` is required`);
    if ((dashGap1 ?? '') !== '' || (dashGap2 ?? '') !== '') defects.push('no spaces may surround the range hyphen');
    if (endL !== undefined && endL !== '') defects.push(`the range end takes no \`${endL}\`: write \`L${startDigits}-${endDigits}\``);
    const rangeText = endDigits === undefined ? `L${startDigits}` : `L${startDigits}-${endDigits}`;
    lines = parseLineRange(rangeText);
  }
  if (defects.length === 0) return { type: 'none' };
  return {
    type: 'malformed',
    malformed: {
      defects,
      normalised: {
        id: id as string,
        hash: normalisedHash,
        lines,
        form: normalisedHash === null ? (lines === null ? 'bare' : 'path-only') : 'versioned',
        needsExistingFile: false,
      },
    },
  };
}

/** Formats a parsed citation in its canonical inline form. */
export function formatCitation(citation: Pick<RlmParsed, 'id' | 'hash' | 'lines'>): string {
  const hash = citation.hash === null ? '' : `@${citation.hash}`;
  const lines = citation.lines === null ? '' : `, ${citation.lines.text}`;
  return `[${citation.id}${hash}${lines}]`;
}

/** Parses the content of a `## Sources` bullet: `id@hash16 (L1-2)` or `id (L1-2) [un-versioned]`. */
export function parseFooterBullet(content: string): RlmParsed | null {
  const versioned = FOOTER_VERSIONED.exec(content);
  if (versioned !== null) {
    return {
      id: versioned[1] as string,
      hash: versioned[2] as string,
      lines: versioned[3] === undefined ? null : parseLineRange(versioned[3]),
      form: 'footer',
      needsExistingFile: false,
    };
  }
  const pathOnly = FOOTER_PATH_ONLY.exec(content);
  if (pathOnly !== null) {
    return {
      id: pathOnly[1] as string,
      hash: null,
      lines: pathOnly[2] === undefined ? null : parseLineRange(pathOnly[2]),
      form: 'footer',
      needsExistingFile: false,
    };
  }
  return null;
}
