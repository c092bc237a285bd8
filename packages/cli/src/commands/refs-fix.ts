import { compareAuthors, type RefJudgement, type ScholarlyRecord, sameVenue } from '@aiwg-cite/core';
import { writeFileAtomic } from '@aiwg-cite/node';
import { correctionsFor, type RefOutcome } from '../format/refs.ts';

/**
 * The corrections every service agrees on: at least two services know the work, and they give the
 * same authors, the same year and the same venue. A preprint cited as published is not rewritten
 * (that changes the entry type); it is shown as a corrected entry only.
 */
export function agreedCorrections(judgement: RefJudgement): Record<string, string> | null {
  const corrections = correctionsFor(judgement);
  const records = judgement.sameWork;
  if (corrections === null || records.length < 2) return null;
  const agreed: Record<string, string> = {};
  const [first] = records as [ScholarlyRecord, ...ScholarlyRecord[]];
  if (corrections.author !== undefined && records.every((record) => sameAuthorList(record, first))) agreed.author = corrections.author;
  if (corrections.year !== undefined && records.every((record) => record.year === first.year)) agreed.year = corrections.year;
  if (
    corrections.venue !== undefined &&
    records.every((record) => record.venue !== null && first.venue !== null && sameVenue(record.venue, first.venue))
  ) {
    agreed.venue = corrections.venue;
  }
  return Object.keys(agreed).length === 0 ? null : agreed;
}

function sameAuthorList(a: ScholarlyRecord, b: ScholarlyRecord): boolean {
  const comparison = compareAuthors(a.authors, b.authors);
  return comparison.extra.length === 0 && comparison.missing.length === 0 && !comparison.reordered;
}

/** A field of an entry's text: the offsets of its value (after `=`, up to the `,` or closing brace). */
function fieldSpans(entry: string): Map<string, { start: number; end: number }> {
  const spans = new Map<string, { start: number; end: number }>();
  const open = entry.search(/[{(]/);
  const keyEnd = entry.indexOf(',', open);
  if (open === -1 || keyEnd === -1) return spans;
  let at = keyEnd + 1;
  const close = entry[open] === '(' ? ')' : '}';
  while (at < entry.length) {
    const name = /\s*([A-Za-z][\w:.+-]*)\s*=\s*/y;
    name.lastIndex = at;
    const match = name.exec(entry);
    if (match === null) break;
    const start = name.lastIndex;
    let depth = 0;
    let quoted = false;
    let end = start;
    for (; end < entry.length; end += 1) {
      const char = entry[end];
      if (char === '{') depth += 1;
      else if (char === '}') {
        if (depth === 0) break;
        depth -= 1;
      } else if (char === '"' && depth === 0) quoted = !quoted;
      else if ((char === ',' || char === close) && depth === 0 && !quoted) break;
    }
    let valueEnd = end;
    while (valueEnd > start && /\s/.test(entry[valueEnd - 1] as string)) valueEnd -= 1;
    spans.set((match[1] as string).toLowerCase(), { start, end: valueEnd });
    at = entry[end] === ',' ? end + 1 : entry.length;
  }
  return spans;
}

/** The entry text with the fields replaced (or added before the closing brace), formatting elsewhere kept. */
export function editEntry(entry: string, fields: Readonly<Record<string, string>>, type: string): string {
  const spans = fieldSpans(entry);
  const edits: { start: number; end: number; text: string }[] = [];
  const additions: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const target =
      name === 'venue'
        ? (['booktitle', 'journal', 'journaltitle'].find((field) => spans.has(field)) ?? (type === 'article' ? 'journal' : 'booktitle'))
        : name;
    const span = spans.get(target);
    const text = `{${value}}`;
    if (span !== undefined) edits.push({ ...span, text });
    else additions.push(`${target} = ${text}`);
  }
  let out = entry;
  for (const edit of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  if (additions.length > 0) {
    const closing = out.search(/\s*[})]\s*$/);
    const before = out.slice(0, closing).replace(/,?\s*$/, '');
    const indent = /\n([ \t]+)\S/.exec(out)?.[1] ?? '  ';
    out = `${before},\n${additions.map((line) => `${indent}${line}`).join(',\n')},\n${out.slice(closing).replace(/^\s*/, '')}`;
  }
  return out;
}

/** Writes the agreed corrections into the .bib files: one atomic write per file; only the edited entries change. */
export function applyCorrections(
  outcomes: readonly RefOutcome[],
  bibTexts: ReadonlyMap<string, { path: string; text: string }>,
): { file: string; key: string }[] {
  const byFile = new Map<string, { start: number; end: number; text: string; key: string }[]>();
  for (const { site, judgement } of outcomes) {
    if (site.bib === null || site.bib.span === null) continue;
    const corrections = agreedCorrections(judgement);
    const source = bibTexts.get(site.file);
    if (corrections === null || source === undefined) continue;
    const original = source.text.slice(site.bib.span.start, site.bib.span.end);
    const edited = editEntry(original, corrections, site.bib.type);
    if (edited === original) continue;
    const list = byFile.get(site.file) ?? [];
    list.push({ ...site.bib.span, text: edited, key: site.cited.key });
    byFile.set(site.file, list);
  }
  const written: { file: string; key: string }[] = [];
  for (const [file, edits] of byFile) {
    const source = bibTexts.get(file) as { path: string; text: string };
    let text = source.text;
    for (const edit of [...edits].sort((a, b) => b.start - a.start)) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
    if (writeFileAtomic(source.path, text, Buffer.from(source.text, 'utf8'), file))
      written.push(...edits.map((edit) => ({ file, key: edit.key })));
  }
  return written;
}
