import { lstatSync, readlinkSync, type Stats, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  AiwgCiteError,
  isAiwgCiteError,
  parseConfigValue,
  resolveRuleId,
  type ONLINE_SERVICES as SERVICES,
  type SeverityOverride,
} from '@aiwg-cite/core';
import picomatch from 'picomatch/posix.js';
import { readRegularFile } from './fs.ts';
import { configMessages } from './messages.ts';

/** The validated configuration (`aiwg-cite.config.json`, or the `"aiwg-cite"` key of package.json). */
export interface AiwgCiteConfig {
  /** Where the configuration came from, or `null` when there is none. */
  readonly file: string | null;
  /** Corpus roots, relative to the root. */
  readonly corpus?: readonly string[];
  /** Bibliography files (`.bib`, `.csl.json`), relative to the root. */
  readonly bibliography?: readonly string[];
  /** Folders of research writing, relative to the root: heuristic rules run there by default. */
  readonly research?: readonly string[];
  /** Globs of documents to check when no paths are given. */
  readonly include?: readonly string[];
  /** Globs of documents never checked when no paths are given. */
  readonly exclude?: readonly string[];
  /** Per-rule severities. */
  readonly rules?: Readonly<Record<string, SeverityOverride>>;
  /** DOI options. */
  readonly doi?: { readonly placeholders?: readonly string[] };
  /** Warnings fail the run, as `--strict` does (the commit hook then blocks on stale citations too). @default false */
  readonly strict?: boolean;
  /** Base URLs of the online services (`--online`); the `AIWG_CITE_*_URL` variables take precedence. */
  readonly online?: Readonly<Partial<Record<OnlineService, string>>>;
}

/** The services `--online` talks to. */
export type OnlineService = (typeof SERVICES)[number];

/** The configuration file name. */
export const CONFIG_FILE = 'aiwg-cite.config.json';

/**
 * Loads the configuration at the root: `aiwg-cite.config.json` first, else the `"aiwg-cite"` key
 * of package.json, else an empty configuration. A configuration that is not valid is a usage
 * error naming the file and the problem (exit 2): a directory or a dangling symlink where the file
 * should be, text that is not JSON (a leading UTF-8 BOM is accepted), an unknown key or rule id.
 */
export function loadConfig(root: string, explicit?: ConfigFileChoice): AiwgCiteConfig {
  if (explicit !== undefined) return loadConfigFile(explicit);
  const configText = readConfigFile(join(root, CONFIG_FILE), CONFIG_FILE);
  if (configText !== null) return validateConfig(parseJson(configText, CONFIG_FILE), CONFIG_FILE);
  const packageText = readConfigFile(join(root, 'package.json'), 'package.json');
  if (packageText !== null) {
    const value = parseJson(packageText, 'package.json');
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, 'aiwg-cite')) {
      return validateConfig((value as Record<string, unknown>)['aiwg-cite'], 'package.json "aiwg-cite"');
    }
  }
  return { file: null };
}

/** A configuration file named by the user (`--config PATH`), read instead of the root's. */
export interface ConfigFileChoice {
  /** The absolute path. */
  readonly path: string;
  /** The path as the user wrote it; errors name the file so. */
  readonly name: string;
}

/**
 * Loads a configuration file that may sit anywhere: an `aiwg-cite.config.json`-style file, or a
 * package.json whose `"aiwg-cite"` key holds it. Unlike the root's own file it must exist; every
 * problem is a usage error naming the file as the user wrote it.
 */
function loadConfigFile({ path, name }: ConfigFileChoice): AiwgCiteConfig {
  const text = readConfigFile(path, name);
  if (text === null) throw invalid(name, configMessages.noSuchFile());
  const value = parseJson(text, name);
  if (basename(path) === 'package.json') {
    const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
    if (!isObject || !Object.hasOwn(value, 'aiwg-cite')) throw invalid(name, configMessages.noPackageKey());
    return validateConfig((value as Record<string, unknown>)['aiwg-cite'], `${name} "aiwg-cite"`);
  }
  return validateConfig(value, name);
}

/**
 * Validates a parsed configuration against the schema in the core (the published JSON Schema is
 * generated from it): unknown keys, unknown rule ids and wrong types are errors that name the
 * nearest valid name. A rule id that was renamed still works under its old name.
 */
export function validateConfig(value: unknown, file: string): AiwgCiteConfig {
  const parsed = parseConfigValue(value);
  if (!parsed.ok) throw invalid(file, parsed.problem);
  const { $schema: _schema, rules, ...rest } = parsed.value;
  const config: AiwgCiteConfig = { file, ...(rest as Omit<AiwgCiteConfig, 'file' | 'rules'>) };
  if (rules === undefined) return config;
  const out: Record<string, SeverityOverride> = {};
  for (const [name, severity] of Object.entries(rules)) {
    if (severity === undefined) continue;
    const resolved = resolveRuleId(name);
    // The schema admits only registered ids and their aliases.
    if (resolved.ok) out[resolved.id] = severity;
  }
  return { ...config, rules: out };
}

function parseJson(text: string, file: string): unknown {
  try {
    // A UTF-8 BOM is not JSON, but editors on Windows write one: accept it.
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw invalid(file, configMessages.notJson((error as Error).message));
  }
}

function invalid(file: string, problem: string): AiwgCiteError {
  return new AiwgCiteError('CONFIG_INVALID', `${file}: ${problem}`, { data: { file } });
}

/** The text of a configuration file, `null` when there is none, or a usage error for what cannot be one. */
function readConfigFile(path: string, file: string): string | null {
  let stat: Stats;
  try {
    stat = statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw invalid(file, configMessages.unreadable(code ?? (error as Error).message));
    let link: Stats | null = null;
    try {
      link = lstatSync(path);
    } catch {
      return null;
    }
    if (link.isSymbolicLink()) throw invalid(file, configMessages.danglingLink(readlinkSync(path)));
    return null;
  }
  if (stat.isDirectory()) throw invalid(file, configMessages.directory());
  if (!stat.isFile()) throw invalid(file, configMessages.notRegular());
  try {
    return readRegularFile(path).toString('utf8');
  } catch (error) {
    // A FIFO, socket or device is refused in one line, never opened (issue 15 item 14).
    if (isAiwgCiteError(error)) throw error;
    throw invalid(file, configMessages.unreadable((error as NodeJS.ErrnoException).code ?? (error as Error).message));
  }
}

/**
 * Compiles include/exclude globs with picomatch (POSIX paths, root-relative): `**` crosses
 * directories, `*` and `?` do not, braces and classes as in a shell, and dot files match. A glob
 * without `/` matches the basename at any depth (as in .gitignore), and a glob that matches a
 * directory matches everything under it (`exclude: ["drafts"]`).
 */
export function compileGlobs(globs: readonly string[]): (path: string) => boolean {
  const cleaned = globs.map((glob) => glob.replace(/^\.\//, ''));
  // picomatch's own `basename` option stops brace patterns with a slash from matching, so the
  // .gitignore rule is applied here: a slash-free glob is tried on every path segment.
  const anySegment = cleaned.filter((glob) => !glob.includes('/'));
  const whole = cleaned.filter((glob) => glob.includes('/'));
  const matchSegment = anySegment.length === 0 ? null : picomatch(anySegment, { dot: true });
  const matchWhole = whole.length === 0 ? null : picomatch(whole, { dot: true });
  return (path) => {
    if (matchSegment !== null && path.split('/').some((segment) => matchSegment(segment))) return true;
    if (matchWhole === null) return false;
    if (matchWhole(path)) return true;
    for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
      if (matchWhole(path.slice(0, slash))) return true;
    }
    return false;
  };
}

/** Applies include/exclude globs to discovered documents (never to explicit paths). */
export function filterByGlobs(
  paths: readonly string[],
  include: readonly string[] | undefined,
  exclude: readonly string[] | undefined,
): string[] {
  if ((include === undefined || include.length === 0) && (exclude === undefined || exclude.length === 0)) return [...paths];
  const included = include === undefined || include.length === 0 ? () => true : compileGlobs(include);
  const excluded = compileGlobs(exclude ?? []);
  return paths.filter((path) => included(path) && !excluded(path));
}
