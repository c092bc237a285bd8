import * as v from 'valibot';
import { nearestName, RULE_LIST } from './rules.ts';

/** The severities configuration may give a rule. */
export const SEVERITY_OVERRIDES = ['off', 'info', 'warning', 'error'] as const;

/** The services `--online` talks to, whose base URLs configuration may set. */
export const ONLINE_SERVICES = ['doi', 'crossref', 'openalex', 'arxiv', 'dblp', 's2'] as const;

const severity = v.picklist(SEVERITY_OVERRIDES);

const nonEmpty = v.pipe(v.string(), v.regex(/\S/));
const stringList = (description: string) => v.pipe(v.array(nonEmpty), v.description(description));

const baseUrl = v.pipe(v.string(), v.regex(/^https?:\/\/[^\s/]+/), v.description('an http or https base URL'));

/**
 * The `rules` object: every registered id and every alias it shipped under, each with its
 * description, so an editor completes and explains them; anything else is an error.
 */
const rulesSchema = v.pipe(
  v.strictObject(
    Object.fromEntries(
      RULE_LIST.flatMap((rule) => [
        [rule.id, v.optional(v.pipe(severity, v.description(`${rule.description} (default: ${rule.severity})`)))],
        ...rule.aliases.map((alias) => [alias.id, v.optional(v.pipe(severity, v.description(`Deprecated: ${alias.note}.`)))]),
      ]),
    ),
  ),
  v.description('Severity per rule id: off, info, warning or error (`aiwg-cite rules` lists them).'),
);

/**
 * The configuration (`aiwg-cite.config.json`, or the `"aiwg-cite"` key of package.json), strict:
 * unknown keys are errors. The published JSON Schema is generated from it.
 */
export const CONFIG_SCHEMA = v.pipe(
  v.strictObject({
    $schema: v.optional(v.pipe(v.string(), v.description('The JSON Schema of this file, for editors.'))),
    corpus: v.optional(stringList('Corpus roots, relative to the project root; they replace the defaults.')),
    bibliography: v.optional(stringList('Bibliography files (.bib, .csl.json), relative to the project root.')),
    research: v.optional(
      stringList(
        'Folders of research writing, relative to the project root: heuristic rules (statistics, author-year, quotes, GRADE) run there under the recommended profile. They add to .aiwg/research and the corpus roots.',
      ),
    ),
    include: v.optional(stringList('Globs of documents to check when no paths are given.')),
    exclude: v.optional(stringList('Globs of documents never checked when no paths are given.')),
    rules: v.optional(rulesSchema),
    doi: v.optional(
      v.pipe(
        v.strictObject({ placeholders: v.optional(stringList('DOIs that are placeholders, reported as doi/placeholder.')) }),
        v.description('DOI options.'),
      ),
    ),
    strict: v.optional(v.pipe(v.boolean(), v.description('Warnings fail every run, the commit hook included (like --strict).'))),
    online: v.optional(
      v.pipe(
        v.strictObject(
          Object.fromEntries(ONLINE_SERVICES.map((service) => [service, v.optional(baseUrl)])) as Record<
            (typeof ONLINE_SERVICES)[number],
            v.OptionalSchema<typeof baseUrl, undefined>
          >,
        ),
        v.description('Base URLs of the online services; an AIWG_CITE_*_URL variable overrides one for a run.'),
      ),
    ),
  }),
  v.description('aiwg-cite configuration'),
);

/** A configuration as read, before rule aliases are resolved. */
export type ConfigInput = v.InferOutput<typeof CONFIG_SCHEMA>;

/** The result of {@link parseConfigValue}: the value, or one line saying what is wrong. */
export type ConfigParse = { readonly ok: true; readonly value: ConfigInput } | { readonly ok: false; readonly problem: string };

const TYPE_WORDS: Readonly<Record<string, string>> = {
  array: 'an array of strings',
  boolean: 'true or false',
  string: 'a string',
  strict_object: 'an object',
  object: 'an object',
  picklist: `one of ${SEVERITY_OVERRIDES.join(', ')}`,
};

/**
 * Validates a parsed configuration. The problem names the offending key, and for an unknown key or
 * rule id the nearest valid name.
 */
export function parseConfigValue(value: unknown): ConfigParse {
  if (Array.isArray(value)) return { ok: false, problem: 'the configuration must be a JSON object' };
  const result = v.safeParse(CONFIG_SCHEMA, value);
  if (result.success) return { ok: true, value: result.output };
  const issue = result.issues[0];
  return { ok: false, problem: describeIssue(issue, value) };
}

function describeIssue(issue: v.BaseIssue<unknown>, root: unknown): string {
  const keys = (issue.path ?? []).map((item) => String(item.key));
  const where = keys.join('.');
  if (issue.type === 'strict_object' && keys.length > 0) {
    const key = keys[keys.length - 1] as string;
    const parentPath = keys.slice(0, -1);
    const known = knownKeys(parentPath);
    if (parentPath.length === 1 && parentPath[0] === 'rules') {
      const suggestion = nearestName(key, known);
      return `\`rules\`: unknown rule \`${key}\`${suggestion === null ? '' : `; did you mean \`${suggestion}\`?`} (\`aiwg-cite rules\` lists them)`;
    }
    const suggestion = nearestName(key, known);
    return `unknown key \`${where}\`${suggestion === null ? '' : `; did you mean \`${suggestion}\`?`} (known: ${known.join(', ')})`;
  }
  if (keys.length === 0) return 'the configuration must be a JSON object';
  const got = valueAt(root, keys);
  if (issue.type === 'check' || issue.type === 'regex') {
    if (keys[0] === 'online') return `\`${where}\` must be an http or https base URL, not ${JSON.stringify(got)}`;
    return `\`${keys.slice(0, -1).join('.')}\` must hold non-empty strings, not ${JSON.stringify(got)}`;
  }
  if (typeof keys[keys.length - 1] === 'string' && /^\d+$/.test(keys[keys.length - 1] as string)) {
    return `\`${keys.slice(0, -1).join('.')}\` must hold non-empty strings, not ${JSON.stringify(got)}`;
  }
  if (keys[0] === 'online' && keys.length === 2) return `\`${where}\` must be an http or https base URL, not ${JSON.stringify(got)}`;
  return `\`${where}\` must be ${TYPE_WORDS[issue.type] ?? issue.expected ?? 'valid'}, not ${JSON.stringify(got)}`;
}

function knownKeys(path: readonly string[]): string[] {
  let schema: v.GenericSchema = CONFIG_SCHEMA;
  for (const key of ['', ...path]) {
    schema = unwrap(schema);
    if (key === '') continue;
    const entries = (schema as unknown as { entries?: Record<string, v.GenericSchema> }).entries;
    if (entries === undefined || entries[key] === undefined) return [];
    schema = entries[key] as v.GenericSchema;
  }
  const entries = (unwrap(schema) as unknown as { entries?: Record<string, unknown> }).entries ?? {};
  return Object.keys(entries).filter((key) => key !== '$schema');
}

/** The schema inside `optional` and `pipe` wrappers. */
function unwrap(schema: v.GenericSchema): v.GenericSchema {
  let current = schema as unknown as { wrapped?: v.GenericSchema; pipe?: readonly v.GenericSchema[]; type: string };
  for (;;) {
    if (current.type === 'optional' && current.wrapped !== undefined) current = current.wrapped as unknown as typeof current;
    else if (current.pipe !== undefined && current.pipe[0] !== undefined && current.pipe[0] !== (current as unknown))
      current = current.pipe[0] as unknown as typeof current;
    else return current as unknown as v.GenericSchema;
  }
}

function valueAt(root: unknown, keys: readonly string[]): unknown {
  let current = root;
  for (const key of keys) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
