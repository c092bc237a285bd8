/**
 * The programmatic API of the `aiwg-cite` package: `import { check } from 'aiwg-cite'`.
 * It runs the same pipeline as `aiwg-cite check --format json`, in-process, and returns the
 * JSON report as an object. The types below are the JSON contract (README "JSON output"):
 * fields are only ever added. They are declared here, not imported, so dist/api.d.ts stands alone.
 */
import { main } from './main.ts';

/** Severity of a finding; `ok` marks a citation that checked out. */
export type Severity = 'error' | 'warning' | 'info' | 'ok';

/** One citation and its verdict. */
export interface Finding {
  /** The citing document, a POSIX path relative to the root. */
  readonly file: string;
  /** 1-based line of the citation's first character. */
  readonly line: number;
  /** 1-based column in UTF-16 code units. */
  readonly column: number;
  /** What was cited: `rlm`, `mention`, `ref`, `doi`, … */
  readonly kind: string;
  /** The citation exactly as written. */
  readonly text: string;
  /** The status, from the closed set of its kind (`fresh`, `stale`, `missing`, …). */
  readonly status: string;
  readonly severity: Severity;
  /** A stable rule id such as `rlm/stale`. */
  readonly rule: string;
  readonly message: string;
  /** How to fix it, or `null` when nothing needs fixing. */
  readonly fix: string | null;
  /** Kind-specific fields: `artifact`, `hash`, `currentHash`, `lines`, `cause`, `verdicts`, … */
  readonly [field: string]: unknown;
}

/** Counts over the whole run. */
export interface Summary {
  readonly files: number;
  readonly citations: number;
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
  /** Code citations (pinned to a file, lines and a commit) by status. */
  readonly rlm: Readonly<Record<'total' | 'fresh' | 'stale' | 'unversioned' | 'missing' | 'malformed' | 'invalidRange', number>>;
  /** Count per kind and status: `{ rlm: { fresh: 3, stale: 1 } }`. */
  readonly kinds: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/** The report of one run. */
export interface Report {
  readonly version: 1;
  readonly verdict: 'PASS' | 'FAIL';
  readonly summary: Summary;
  /** Every citation, fresh ones included. */
  readonly citations: readonly Finding[];
  readonly coverage: { readonly skippedInCode: number; readonly suppressed: number; readonly notes: readonly string[] };
}

/** What to check and how; every field is optional. */
export interface CheckOptions {
  /** Where paths and the project root are resolved from. @default process.cwd() */
  readonly cwd?: string;
  /** The project root. @default the git top level of `cwd`, else `cwd` */
  readonly root?: string;
  /** Markdown files or directories. @default every markdown file git does not ignore */
  readonly paths?: readonly string[];
  /** Check what the next commit contains (the git index), like the commit hook. */
  readonly staged?: boolean;
  /** Warnings fail the run. */
  readonly strict?: boolean;
  /** Fail when there are more warnings than this. */
  readonly maxWarnings?: number;
  /** Code citations only. */
  readonly rlmOnly?: boolean;
  /** Also check citations inside code blocks and code spans. */
  readonly includeCode?: boolean;
  /** The git history pass that turns fabricated hashes into `unknown-hash`. @default true */
  readonly history?: boolean;
  /** Environment the run sees (`AIWG_CITE_STRICT`, `AIWG_CITE_DATE`, …). @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Thrown for a usage or tool error (what the CLI reports with exit code 2). */
export class CheckError extends Error {
  override readonly name: string = 'CheckError';
}

/** Checks citations and resolves to the report; rejects with a `CheckError` on a usage or tool error. */
export async function check(options: CheckOptions = {}): Promise<Report> {
  const argv = ['check', '--format', 'json'];
  if (options.root !== undefined) argv.push('--root', options.root);
  if (options.staged === true) argv.push('--staged');
  if (options.strict === true) argv.push('--strict');
  if (options.maxWarnings !== undefined) argv.push('--max-warnings', String(options.maxWarnings));
  if (options.rlmOnly === true) argv.push('--rlm');
  if (options.includeCode === true) argv.push('--include-code');
  if (options.history === false) argv.push('--no-history');
  if (options.paths !== undefined && options.paths.length > 0) argv.push('--', ...options.paths);
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    cwd: options.cwd ?? process.cwd(),
    env: { ...(options.env ?? process.env), NO_COLOR: '1' },
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  if (code === 2 || stdout === '') throw new CheckError(stderr.trim().replace(/^aiwg-cite: /, '') || `check exited ${code}`);
  return JSON.parse(stdout) as Report;
}
