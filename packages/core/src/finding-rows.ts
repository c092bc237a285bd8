import { sameItems } from './arrays.ts';
import type { Finding } from './report.ts';

/**
 * Findings kept as rows of values under shapes (their property names, in order), so that many
 * findings do not repeat every property name: a result cache entry's, and a kept answer's parts
 * (the cli's check-splice.ts). The document's own path takes no value: the decoder puts it back.
 *
 * Most of a finding's bytes are its message and fix, which name its artifact, hash and lines again
 * (`hash \`0123…\` matches no version of \`src/a.ts\`…`). Given a table of {@link TextTemplates},
 * a long text of a finding is kept as a template: literal pieces and references to the finding's
 * shorter values (or the document's path), one template shared by every finding whose text has
 * that form. Every other text of a row (a path, a hash, a status) is kept in the same table as a
 * template of one piece, once for all the rows that have it, so that such rows hold numbers alone.
 * Its property name is marked in the shape. At 100,000 documents the parts a kept answer holds,
 * which a run after an edit reads, are a third of their size so, and parse without a string per value.
 */

/**
 * Literal pieces with, between each two, the row place of the value that stands there (0: the
 * document's path); one piece alone is a text kept once.
 */
export type TextTemplate = readonly (string | number)[];

/** The templates of one set of rows, each kept once. */
export class TextTemplates {
  readonly #list: TextTemplate[] = [];
  readonly #index = new Map<string, number>();

  /** Templates that go on from `list` (kept rows name them by these indexes), new ones added after. */
  static from(list: readonly TextTemplate[]): TextTemplates {
    const templates = new TextTemplates();
    for (const template of list) {
      templates.#index.set(JSON.stringify(template), templates.#list.length);
      templates.#list.push(template);
    }
    return templates;
  }

  /** The templates, by the index a row names them with. */
  get list(): readonly TextTemplate[] {
    return this.#list;
  }

  /** The index of a template, added if new. */
  idOf(template: TextTemplate): number {
    const key = JSON.stringify(template);
    let id = this.#index.get(key);
    if (id === undefined) {
      id = this.#list.length;
      this.#list.push(template);
      this.#index.set(key, id);
    }
    return id;
  }
}

/** Marks a property whose value in a row is a template's index. */
const TEMPLATED = '~';
const TEMPLATED_CODE = 0x7e;
/** The shortest text kept as a template: a shorter one saves little, and costs its decoding. */
const TEMPLATED_TEXT = 24;
/** The shortest value a template refers to. */
const REFERRED_VALUE = 4;

/**
 * Findings as rows of values under shapes, the shape a row's first value names: new shapes are
 * added to `shapes`, which several documents may share; with `templates`, long texts become
 * templates added there.
 */
export function encodeFindingRows(findings: readonly Finding[], shapes: string[][], templates?: TextTemplates): unknown[][] {
  const rows: unknown[][] = [];
  for (const finding of findings) {
    // As JSON.stringify would write it: a property whose value is undefined is left out.
    const names: string[] = [];
    const row: unknown[] = [0];
    for (const name of Object.keys(finding)) {
      const value = finding[name];
      if (value === undefined) continue;
      names.push(name);
      if (name !== 'file') row.push(value);
    }
    if (templates !== undefined) templateTexts(names, row, finding.file, templates);
    // A set of rows has a few shapes: compared name by name, with no key string built per finding.
    let shape = shapes.findIndex((known) => sameItems(known, names));
    if (shape === -1) {
      shape = shapes.length;
      shapes.push(names);
    }
    row[0] = shape;
    rows.push(row);
  }
  return rows;
}

/**
 * Replaces each long text of a row by a template over the row's shorter values, shortest first (so
 * a template refers only to texts kept once), when one of those stands in it; each template is
 * checked to give the text back. Every other text then becomes a template of one piece.
 */
function templateTexts(names: string[], row: unknown[], file: string, templates: TextTemplates): void {
  const texts: (readonly [nameAt: number, rowAt: number])[] = [];
  let rowAt = 1;
  for (const [nameAt, name] of names.entries()) {
    if (name === 'file') continue;
    if (typeof row[rowAt] === 'string') texts.push([nameAt, rowAt]);
    rowAt += 1;
  }
  texts.sort((a, b) => (row[a[1]] as string).length - (row[b[1]] as string).length);
  const referred: (readonly [rowAt: number, value: string])[] = file.length >= REFERRED_VALUE ? [[0, file]] : [];
  for (const [nameAt, at] of texts) {
    const text = row[at] as string;
    const template = text.length >= TEMPLATED_TEXT ? templateOf(text, referred) : null;
    if (template !== null && filled(template, row, file, null, []) === text) {
      row[at] = templates.idOf(template);
      names[nameAt] = `${TEMPLATED}${names[nameAt]}`;
    } else if (text.length >= REFERRED_VALUE) referred.push([at, text]);
  }
  for (const [nameAt, at] of texts) {
    const text = row[at];
    if (typeof text !== 'string') continue;
    row[at] = templates.idOf([text]);
    names[nameAt] = `${TEMPLATED}${names[nameAt]}`;
  }
}

/** `text` as literal pieces and references to the values it holds (the first, then the longest, at each place), or `null` when it holds none. */
function templateOf(text: string, referred: readonly (readonly [number, string])[]): TextTemplate | null {
  const template: (string | number)[] = [];
  let from = 0;
  for (;;) {
    let best: readonly [number, string] | null = null;
    let bestAt = -1;
    for (const value of referred) {
      const at = text.indexOf(value[1], from);
      if (at !== -1 && (best === null || at < bestAt || (at === bestAt && value[1].length > best[1].length))) {
        best = value;
        bestAt = at;
      }
    }
    if (best === null) break;
    template.push(text.slice(from, bestAt), best[0]);
    from = bestAt + best[1].length;
  }
  if (template.length === 0) return null;
  template.push(text.slice(from));
  return template;
}

/**
 * The text a template gives for a row, or `null` when a place it refers to holds no text (with
 * `templatedAt`, the row places that hold a template's index: one of a text kept once stands for
 * that text). Joined as one flat string: pieces concatenated one by one would each stay a node of
 * the text, and a kept answer's hundred thousand findings would cost the garbage collector their copying.
 */
function filled(
  template: TextTemplate,
  row: readonly unknown[],
  file: string,
  templatedAt: readonly boolean[] | null,
  templates: readonly TextTemplate[],
): string | null {
  if (template.length === 1) return template[0] as string;
  const pieces = template.slice();
  for (let at = 1; at < pieces.length; at += 2) {
    const place = pieces[at] as number;
    let value = place === 0 ? file : row[place];
    if (templatedAt?.[place] === true) {
      const kept = templates[value as number];
      value = kept?.length === 1 ? kept[0] : undefined;
    }
    if (typeof value !== 'string') return null;
    pieces[at] = value;
  }
  return pieces.join('');
}

/**
 * A decoder of {@link encodeFindingRows}'s rows under `shapes` (and `templates`, when they were
 * made with some): each document's rows, its path put back; `null` for rows that do not fit. `null`
 * when the shapes or templates are not laid out as they are made (a kept file's signature vouches
 * for its bytes; this refuses another layout).
 */
export function findingRowsDecoder(shapes: unknown, templates: unknown = []): ((rows: unknown, file: string) => Finding[] | null) | null {
  if (!Array.isArray(shapes) || !shapes.every((shape) => Array.isArray(shape) && shape.every((name) => typeof name === 'string')))
    return null;
  if (!Array.isArray(templates) || !templates.every(isTemplate)) return null;
  // Each shape's property names, a templated one unmarked, and which are templated (by name, and by row place).
  const layouts = (shapes as string[][]).map((shape) => {
    const templated = shape.map((name) => name.charCodeAt(0) === TEMPLATED_CODE);
    return {
      names: shape.map((name) => (name.charCodeAt(0) === TEMPLATED_CODE ? name.slice(1) : name)),
      templated,
      templatedAt: [false, ...templated.filter((_, at) => shape[at] !== 'file')],
    };
  });
  return (rows, file) => {
    if (!Array.isArray(rows)) return null;
    const findings: Finding[] = [];
    for (const row of rows) {
      if (!Array.isArray(row)) return null;
      const layout = layouts[row[0] as number];
      if (layout === undefined) return null;
      const finding: Record<string, unknown> = {};
      let at = 1;
      for (const [index, name] of layout.names.entries()) {
        if (name === 'file') {
          finding.file = file;
          continue;
        }
        const value = row[at++];
        if (!layout.templated[index]) {
          finding[name] = value;
          continue;
        }
        const template = (templates as TextTemplate[])[value as number];
        const text = template === undefined ? null : filled(template, row, file, layout.templatedAt, templates as TextTemplate[]);
        if (text === null) return null;
        finding[name] = text;
      }
      if (at !== row.length || !isFindingOf(finding, file)) return null;
      findings.push(finding as unknown as Finding);
    }
    return findings;
  };
}

/** The findings of {@link encodeFindingRows}'s rows made without templates, the document's path put back; `null` for rows that do not fit their shapes. */
export function decodeFindingRows(shapes: unknown, rows: unknown, file: string): Finding[] | null {
  return findingRowsDecoder(shapes)?.(rows, file) ?? null;
}

function isTemplate(value: unknown): value is TextTemplate {
  return (
    Array.isArray(value) &&
    value.length % 2 === 1 &&
    value.every((piece, at) => (at % 2 === 0 ? typeof piece === 'string' : Number.isInteger(piece) && piece >= 0))
  );
}

/** Whether a value has the shape of a finding of `file`. */
export function isFindingOf(value: unknown, file: string): value is Finding {
  const finding = value as Partial<Finding> | null;
  return (
    typeof finding === 'object' &&
    finding !== null &&
    finding.file === file &&
    typeof finding.line === 'number' &&
    typeof finding.column === 'number' &&
    typeof finding.kind === 'string' &&
    typeof finding.text === 'string' &&
    typeof finding.status === 'string' &&
    typeof finding.severity === 'string' &&
    typeof finding.rule === 'string' &&
    typeof finding.message === 'string' &&
    (finding.fix === null || typeof finding.fix === 'string')
  );
}
