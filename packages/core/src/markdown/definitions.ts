/**
 * Link reference definitions (https://spec.commonmark.org/0.31.2/#link-reference-definitions) at
 * the start of a paragraph, and the label normalisation that matches references to them.
 */
import { parseDestination, parseTitle, skipWhitespace } from './link-syntax.ts';

/** Where the block phase records definitions and footnote labels, first one wins. */
export interface DefinitionSink {
  addDefinition(normalisedLabel: string): void;
  addFootnote(label: string): void;
}

/** Normalises a link label for matching: whitespace collapsed, trimmed, case-folded (CommonMark §4.7). */
export function normaliseLabel(label: string): string {
  return label
    .replace(/[\t\n\r ]+/g, ' ')
    .trim()
    .toLowerCase()
    .toUpperCase();
}

/**
 * Parses the link reference definitions at the start of a paragraph given as flattened
 * `start, end` line ranges of `text`; records them and returns how many lines they take.
 */
export function parseDefinitions(text: string, lines: readonly number[], sink: DefinitionSink): number {
  if (text.charCodeAt(lines[0] as number) !== 91 /* [ */) return 0;
  // The paragraph as one string, lines joined by `\n`, and where each line starts in it.
  let joined = '';
  const lineStarts: number[] = [];
  for (let index = 0; index < lines.length; index += 2) {
    if (index > 0) joined += '\n';
    lineStarts.push(joined.length);
    joined += text.slice(lines[index] as number, lines[index + 1] as number);
  }
  let at = 0;
  let consumed = 0;
  while (at < joined.length && joined.charCodeAt(at) === 91) {
    const end = parseDefinition(joined, at, sink);
    if (end === -1) break;
    // `end` is the offset after the definition's line (or the end of the paragraph).
    while (consumed < lineStarts.length && (lineStarts[consumed] as number) < end) consumed += 1;
    at = end;
  }
  return consumed;
}

/** Parses one definition at `start`; returns the offset after its line ending, or -1. */
function parseDefinition(s: string, start: number, sink: DefinitionSink): number {
  const labelEnd = parseLabel(s, start, s.length);
  if (labelEnd === -1 || s.charCodeAt(labelEnd) !== 58 /* : */) return -1;
  const label = s.slice(start + 1, labelEnd - 1);
  let at = skipWhitespace(s, labelEnd + 1, true, s.length);
  const destinationEnd = parseDestination(s, at, Number.POSITIVE_INFINITY, s.length);
  if (destinationEnd === -1 || (destinationEnd === at && s.charCodeAt(at) !== 60)) return -1;
  at = destinationEnd;
  const beforeTitle = at;
  const titleStart = skipWhitespace(s, at, true, s.length);
  let end = -1;
  if (titleStart > beforeTitle) {
    const titleEnd = parseTitle(s, titleStart, s.length);
    if (titleEnd !== -1) end = lineEndAfter(s, titleEnd);
  }
  if (end === -1) end = lineEndAfter(s, beforeTitle);
  if (end === -1) return -1;
  sink.addDefinition(normaliseLabel(label));
  return end;
}

/** After only spaces and tabs, the offset past the line ending (or the end of `s`); else -1. */
function lineEndAfter(s: string, from: number): number {
  let at = from;
  while (at < s.length && (s.charCodeAt(at) === 32 || s.charCodeAt(at) === 9)) at += 1;
  if (at >= s.length) return s.length;
  return s.charCodeAt(at) === 10 ? at + 1 : -1;
}

/**
 * A link label `[…]` at `start`, read before `to`: at most 999 characters, no unescaped brackets,
 * not blank. Returns the offset after `]`, or -1.
 */
export function parseLabel(s: string, start: number, to: number): number {
  let at = start + 1;
  let seen = false;
  while (at < to && at - start <= 1000) {
    const code = s.charCodeAt(at);
    if (code === 93) return seen && at - start - 1 <= 999 ? at + 1 : -1;
    if (code === 91) return -1;
    if (code === 92 && at + 1 < to && (s.charCodeAt(at + 1) === 91 || s.charCodeAt(at + 1) === 92 || s.charCodeAt(at + 1) === 93)) {
      seen = true;
      at += 2;
      continue;
    }
    if (code !== 32 && code !== 9 && code !== 10 && code !== 13) seen = true;
    at += 1;
  }
  return -1;
}
