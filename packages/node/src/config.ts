import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AiwgCiteError, resolveRuleId, type SeverityOverride } from '@aiwg-cite/core';

/** The validated configuration (`aiwg-cite.config.json`, or the `"aiwg-cite"` key of package.json). */
export interface AiwgCiteConfig {
  /** Where the configuration came from, or `null` when there is none. */
  readonly file: string | null;
  /** Corpus roots, relative to the root. */
  readonly corpus?: readonly string[];
  /** Bibliography files (`.bib`, `.csl.json`), relative to the root. */
  readonly bibliography?: readonly string[];
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
export type OnlineService = 'doi' | 'crossref' | 'openalex' | 'arxiv';

const ONLINE_SERVICES: readonly OnlineService[] = ['doi', 'crossref', 'openalex', 'arxiv'];

/** The configuration file name. */
export const CONFIG_FILE = 'aiwg-cite.config.json';

const SEVERITIES = ['off', 'info', 'warning', 'error'] as const;

/**
 * Loads the configuration at the root: `aiwg-cite.config.json` first, else the `"aiwg-cite"` key
 * of package.json, else an empty configuration. A configuration that is not valid is a usage
 * error naming the file and the problem (exit 2).
 */
export function loadConfig(root: string): AiwgCiteConfig {
  const configText = readOptional(join(root, CONFIG_FILE));
  if (configText !== null) {
    let value: unknown;
    try {
      value = JSON.parse(configText);
    } catch (error) {
      throw invalid(CONFIG_FILE, `not valid JSON (${(error as Error).message})`);
    }
    return validateConfig(value, CONFIG_FILE);
  }
  const packageText = readOptional(join(root, 'package.json'));
  if (packageText !== null) {
    let value: unknown;
    try {
      value = JSON.parse(packageText);
    } catch {
      return { file: null };
    }
    if (value !== null && typeof value === 'object' && 'aiwg-cite' in value) {
      return validateConfig((value as Record<string, unknown>)['aiwg-cite'], 'package.json "aiwg-cite"');
    }
  }
  return { file: null };
}

/** Validates a parsed configuration strictly: unknown keys and wrong types are errors. */
export function validateConfig(value: unknown, file: string): AiwgCiteConfig {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalid(file, 'the configuration must be a JSON object');
  const record = value as Record<string, unknown>;
  const known = new Set(['$schema', 'corpus', 'bibliography', 'include', 'exclude', 'rules', 'doi', 'strict', 'online']);
  for (const key of Object.keys(record)) {
    if (!known.has(key))
      throw invalid(file, `unknown key \`${key}\` (known: ${[...known].filter((name) => name !== '$schema').join(', ')})`);
  }
  const config: {
    file: string;
    corpus?: string[];
    bibliography?: string[];
    include?: string[];
    exclude?: string[];
    rules?: Record<string, SeverityOverride>;
    doi?: { placeholders?: string[] };
    strict?: boolean;
    online?: Partial<Record<OnlineService, string>>;
  } = { file };
  for (const key of ['corpus', 'bibliography', 'include', 'exclude'] as const) {
    if (record[key] === undefined) continue;
    config[key] = stringList(record[key], file, key);
  }
  if (record.rules !== undefined) {
    const rules = record.rules;
    if (rules === null || typeof rules !== 'object' || Array.isArray(rules))
      throw invalid(file, '`rules` must be an object of rule id → severity');
    const out: Record<string, SeverityOverride> = {};
    for (const [rule, severity] of Object.entries(rules as Record<string, unknown>)) {
      const resolved = resolveRuleId(rule);
      if (!resolved.ok) {
        const hint = resolved.suggestion === null ? '' : `; did you mean \`${resolved.suggestion}\`?`;
        throw invalid(file, `\`rules\`: unknown rule \`${rule}\`${hint} (\`aiwg-cite rules\` lists them)`);
      }
      if (typeof severity !== 'string' || !(SEVERITIES as readonly string[]).includes(severity)) {
        throw invalid(file, `\`rules.${rule}\` must be one of ${SEVERITIES.join(', ')}, not ${JSON.stringify(severity)}`);
      }
      // A renamed id keeps working (its deprecation is listed by `aiwg-cite explain`).
      out[resolved.id] = severity as SeverityOverride;
    }
    config.rules = out;
  }
  if (record.doi !== undefined) {
    const doi = record.doi;
    if (doi === null || typeof doi !== 'object' || Array.isArray(doi)) throw invalid(file, '`doi` must be an object');
    for (const key of Object.keys(doi)) if (key !== 'placeholders') throw invalid(file, `unknown key \`doi.${key}\` (known: placeholders)`);
    const placeholders = (doi as Record<string, unknown>).placeholders;
    config.doi = placeholders === undefined ? {} : { placeholders: stringList(placeholders, file, 'doi.placeholders') };
  }
  if (record.strict !== undefined) {
    if (typeof record.strict !== 'boolean') throw invalid(file, `\`strict\` must be true or false, not ${JSON.stringify(record.strict)}`);
    config.strict = record.strict;
  }
  if (record.online !== undefined) config.online = onlineUrls(record.online, file);
  return config;
}

function onlineUrls(value: unknown, file: string): Partial<Record<OnlineService, string>> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw invalid(file, '`online` must be an object of service → base URL');
  const out: Partial<Record<OnlineService, string>> = {};
  for (const [service, url] of Object.entries(value as Record<string, unknown>)) {
    if (!(ONLINE_SERVICES as readonly string[]).includes(service)) {
      throw invalid(file, `unknown key \`online.${service}\` (known: ${ONLINE_SERVICES.join(', ')})`);
    }
    if (typeof url !== 'string' || !/^https?:\/\/[^\s/]+/.test(url)) {
      throw invalid(file, `\`online.${service}\` must be an http or https base URL, not ${JSON.stringify(url)}`);
    }
    out[service as OnlineService] = url;
  }
  return out;
}

function stringList(value: unknown, file: string, key: string): string[] {
  if (!Array.isArray(value)) throw invalid(file, `\`${key}\` must be an array of strings`);
  for (const item of value)
    if (typeof item !== 'string' || item.trim() === '')
      throw invalid(file, `\`${key}\` must hold non-empty strings, not ${JSON.stringify(item)}`);
  return value as string[];
}

function invalid(file: string, problem: string): AiwgCiteError {
  return new AiwgCiteError('CONFIG_INVALID', `${file}: ${problem}`, { data: { file } });
}

function readOptional(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/**
 * Compiles a glob to a regular expression over root-relative POSIX paths: `**` crosses
 * directories, `*` and `?` do not, `{a,b}` alternates, `[…]` is a class. A glob without `/`
 * matches the basename at any depth (as in .gitignore).
 */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  const pattern = glob.replace(/^\.\//, '');
  for (let at = 0; at < pattern.length; at += 1) {
    const char = pattern[at] as string;
    if (char === '*') {
      if (pattern[at + 1] === '*') {
        const slash = pattern[at + 2] === '/';
        source += slash ? '(?:.*/)?' : '.*';
        at += slash ? 2 : 1;
      } else {
        source += '[^/]*';
      }
    } else if (char === '?') source += '[^/]';
    else if (char === '{') {
      const close = pattern.indexOf('}', at);
      if (close === -1) source += '\\{';
      else {
        source += `(?:${pattern
          .slice(at + 1, close)
          .split(',')
          .map((part) => part.replace(/[.+^$()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
          .join('|')})`;
        at = close;
      }
    } else if (char === '[') {
      const close = pattern.indexOf(']', at);
      if (close === -1) source += '\\[';
      else {
        source += `[${pattern.slice(at + 1, close).replace(/^!/, '^')}]`;
        at = close;
      }
    } else source += char.replace(/[.+^$()|\\]/g, '\\$&');
  }
  const anchored = pattern.includes('/') ? `^${source}` : `^(?:.*/)?${source}`;
  return new RegExp(`${anchored}(?:/.*)?$`);
}

/** Applies include/exclude globs to discovered documents (never to explicit paths). */
export function filterByGlobs(
  paths: readonly string[],
  include: readonly string[] | undefined,
  exclude: readonly string[] | undefined,
): string[] {
  const includes = (include ?? []).map(globToRegExp);
  const excludes = (exclude ?? []).map(globToRegExp);
  return paths.filter(
    (path) => (includes.length === 0 || includes.some((regex) => regex.test(path))) && !excludes.some((regex) => regex.test(path)),
  );
}
