/**
 * YAML (https://yaml.org/spec/1.2.2/) for corpus frontmatter and GRADE assessment files, read
 * with the `yaml` package: flow collections across lines, block scalars (`|`, `|-`, `>`),
 * anchors and the rest of the language read as YAML says. The core schema is used, so a date
 * such as `2024-05-01` stays a string, as the old reader had it.
 *
 * Reading never throws: a corpus file with broken YAML still resolves by name, keeping whatever
 * the parser recovered. {@link parseYaml} says what was wrong for callers that report it.
 */
import { parseAllDocuments } from 'yaml';

/** A parsed YAML value. */
export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };

/** A parsed document and the parser's first problem, if it had one. */
export interface YamlParse {
  readonly value: YamlValue;
  /** `line N: what is wrong`, or `null` when the document is well-formed. */
  readonly problem: string | null;
}

/** Aliases beyond this many are a problem, not an expansion (the "billion laughs" document). */
const MAX_ALIASES = 100;

/**
 * Parses the first YAML document of `source` into plain values, with its first problem.
 * `firstLine` is the line of the file `source` starts on, so problems name lines of the file.
 * @default firstLine 1
 */
export function parseYaml(source: string, firstLine = 1): YamlParse {
  const documents = parseAllDocuments(source, { uniqueKeys: false, prettyErrors: false, strict: false });
  const first = Array.isArray(documents) ? documents[0] : undefined;
  if (first === undefined) return { value: null, problem: null };
  const error = first.errors[0];
  let value: YamlValue = null;
  let problem = error === undefined ? null : describe(error.message, lineAt(source, error.pos[0]) + firstLine - 1);
  try {
    value = toYamlValue(first.toJS({ maxAliasCount: MAX_ALIASES }));
  } catch (thrown) {
    problem ??= describe((thrown as Error).message, undefined);
  }
  return { value, problem };
}

function describe(message: string, line: number | undefined): string {
  const first = message.split('\n')[0] ?? message;
  return line === undefined ? first : `line ${line}: ${first}`;
}

/** The 1-based line of a character offset. */
function lineAt(source: string, offset: number): number {
  let line = 1;
  for (let at = source.indexOf('\n'); at !== -1 && at < offset; at = source.indexOf('\n', at + 1)) line += 1;
  return line;
}

/** The parser's JavaScript values as {@link YamlValue}s: maps become objects, anything else a string. */
function toYamlValue(value: unknown): YamlValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(toYamlValue);
  if (value instanceof Map) {
    const out: { [key: string]: YamlValue } = {};
    for (const [key, entry] of value) out[String(key)] = toYamlValue(entry);
    return out;
  }
  if (value instanceof Set) return [...value].map(toYamlValue);
  if (typeof value === 'object' && !(value instanceof Date) && !(value instanceof Uint8Array)) {
    const out: { [key: string]: YamlValue } = {};
    for (const [key, entry] of Object.entries(value)) out[key] = toYamlValue(entry);
    return out;
  }
  return String(value);
}

/** Reads a dotted path (`quality_assessment.final_grade`) from a parsed value. */
export function yamlPath(value: YamlValue | undefined, path: string): YamlValue | undefined {
  let current: YamlValue | undefined = value;
  for (const key of path.split('.')) {
    if (current === null || current === undefined || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = current[key];
  }
  return current;
}
