/**
 * The small subset of YAML 1.2 (https://yaml.org/spec/1.2.2/) that corpus frontmatter and
 * GRADE assessment files use: block mappings by indentation, block sequences (`- item`), flow
 * sequences (`[a, b]`), plain, single- and double-quoted scalars and `#` comments. Anything
 * else (anchors, multi-line scalars, flow mappings) is read as a plain string, never thrown on:
 * a corpus file with unusual YAML still resolves by name.
 */

/** A parsed YAML value. */
export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };

interface Line {
  readonly indent: number;
  readonly text: string;
}

/** Parses a YAML document of the supported subset into plain values. */
export function parseYamlSubset(source: string): YamlValue {
  const lines: Line[] = [];
  for (const raw of source.split(/\r?\n/)) {
    const text = stripComment(raw).trimEnd();
    if (text.trim() === '' || text.trim() === '---' || text.trim() === '...') continue;
    lines.push({ indent: text.length - text.trimStart().length, text: text.trimStart() });
  }
  const cursor = { at: 0 };
  return parseBlock(lines, cursor, lines[0]?.indent ?? 0);
}

function parseBlock(lines: readonly Line[], cursor: { at: number }, indent: number): YamlValue {
  const first = lines[cursor.at];
  if (first === undefined) return null;
  if (first.text.startsWith('- ') || first.text === '-') {
    const list: YamlValue[] = [];
    while (cursor.at < lines.length) {
      const line = lines[cursor.at] as Line;
      if (line.indent !== indent || !(line.text.startsWith('- ') || line.text === '-')) break;
      const rest = line.text.slice(1).trim();
      cursor.at += 1;
      if (rest === '') {
        const next = lines[cursor.at];
        list.push(next !== undefined && next.indent > indent ? parseBlock(lines, cursor, next.indent) : null);
      } else if (/^[^"'[{][^:]*:(\s|$)/.test(rest)) {
        // `- key: value` starts a mapping inside the sequence.
        const nested: Line[] = [{ indent: indent + 2, text: rest }];
        while (cursor.at < lines.length && (lines[cursor.at] as Line).indent > indent) nested.push(lines[cursor.at++] as Line);
        list.push(parseBlock(nested, { at: 0 }, indent + 2));
      } else {
        list.push(parseScalar(rest));
      }
    }
    return list;
  }
  const map: { [key: string]: YamlValue } = {};
  while (cursor.at < lines.length) {
    const line = lines[cursor.at] as Line;
    if (line.indent < indent) break;
    if (line.indent > indent) {
      cursor.at += 1;
      continue;
    }
    const match = /^("(?:[^"\\]|\\.)*"|'[^']*'|[^:]+?):(?:\s+(.*))?$/.exec(line.text);
    cursor.at += 1;
    if (match === null) continue;
    const key = unquote(match[1] as string);
    const value = match[2];
    if (value === undefined || value === '' || value === '|' || value === '>') {
      const next = lines[cursor.at];
      if (next !== undefined && (next.indent > indent || (next.indent === indent && next.text.startsWith('- ')))) {
        if (value === '|' || value === '>') {
          const parts: string[] = [];
          while (cursor.at < lines.length && (lines[cursor.at] as Line).indent > indent) parts.push((lines[cursor.at++] as Line).text);
          map[key] = parts.join(value === '|' ? '\n' : ' ');
        } else {
          map[key] = parseBlock(lines, cursor, next.indent);
        }
      } else {
        map[key] = null;
      }
    } else {
      map[key] = parseScalar(value);
    }
  }
  return map;
}

function parseScalar(text: string): YamlValue {
  const value = text.trim();
  if (value.startsWith('[') && value.endsWith(']')) {
    const inner = value.slice(1, -1).trim();
    return inner === '' ? [] : splitFlow(inner).map(parseScalar);
  }
  if (value.startsWith('"') || value.startsWith("'")) return unquote(value);
  if (value === 'null' || value === '~') return null;
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
}

function splitFlow(text: string): string[] {
  const parts: string[] = [];
  let quote = '';
  let start = 0;
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at] as string;
    if (quote !== '') {
      if (char === quote) quote = '';
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === ',') {
      parts.push(text.slice(start, at));
      start = at + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((part) => part.trim()).filter((part) => part !== '');
}

function unquote(text: string): string {
  const value = text.trim();
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) return value.slice(1, -1).replace(/\\(["\\])/g, '$1');
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1).replace(/''/g, "'");
  return value;
}

function stripComment(line: string): string {
  let quote = '';
  for (let at = 0; at < line.length; at += 1) {
    const char = line[at];
    if (quote !== '') {
      if (char === quote) quote = '';
    } else if (char === '"' || char === "'") {
      if (at === 0 || /[\s:[,-]/.test(line[at - 1] as string)) quote = char;
    } else if (char === '#' && (at === 0 || /\s/.test(line[at - 1] as string))) {
      return line.slice(0, at);
    }
  }
  return line;
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
