import { escapeControls } from '@aiwg-cite/core';

/**
 * A copy of plain data (objects, arrays, strings) with every string passed through the core's
 * {@link escapeControls}: for output built from many repository-controlled fields (a blame
 * entry, a stamp change) before colour is added, so no field can carry a terminal escape.
 */
export function escapeStrings<T>(value: T): T {
  if (typeof value === 'string') return escapeControls(value) as T;
  if (Array.isArray(value)) return value.map((item) => escapeStrings(item)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = escapeStrings(item);
    return out as T;
  }
  return value;
}

/**
 * Multi-line text from a repository (a diff of a document) with each line escaped on its own, so
 * the line breaks stay line breaks. A carriage return just before a line break (CRLF) is kept:
 * it moves the cursor nowhere the break would not.
 */
export function escapeLines(text: string): string {
  return text
    .split('\n')
    .map((line) => (line.endsWith('\r') ? `${escapeControls(line.slice(0, -1))}\r` : escapeControls(line)))
    .join('\n');
}
