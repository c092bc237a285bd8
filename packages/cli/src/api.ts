/**
 * The programmatic API of the `aiwg-cite` package: `import { check } from 'aiwg-cite'`.
 * It runs the same pipeline as `aiwg-cite check --format json`, in-process, and returns the
 * JSON report as an object. The report's types are the core's (`core/src/report-types.ts`, the
 * JSON contract of README "JSON output": fields are only ever added); the build ships their
 * declaration as dist/report-types.d.ts, so dist/api.d.ts stands alone.
 */
import type { Report } from '@aiwg-cite/core';
import { main } from './main.ts';
import { cliMessages } from './messages.ts';

export type { Coverage, Finding, Report, RlmSummary, Severity, Summary } from '@aiwg-cite/core';

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
  /** A configuration file (`--config`), relative to `cwd`. @default the root's aiwg-cite.config.json or package.json key */
  readonly config?: string;
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
  if (options.config !== undefined) argv.push('--config', options.config);
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
  if (code === 2 || stdout === '') throw new CheckError(stderr.trim().replace(/^aiwg-cite: /, '') || cliMessages.checkExited(code));
  return JSON.parse(stdout) as Report;
}
