/**
 * How a document's bytes become text (issue 15 item 17): UTF-8 (a BOM is kept for the scanner to
 * drop), UTF-16 with a byte-order mark decoded, and a binary file (NUL bytes, as git judges it)
 * not read as text at all. Each case other than plain UTF-8 carries a one-line note for coverage,
 * so a document is never silently read as garbage that passes.
 */
import { documentMessages } from './messages.ts';

/** The text of a document, or why it has none. */
export type DocumentText =
  | { readonly kind: 'text'; readonly text: string; readonly note: string | null }
  | { readonly kind: 'binary'; readonly note: string };

const utf8 = new TextDecoder('utf-8');
/** How far git looks for a NUL byte to call a file binary. */
const BINARY_PROBE = 8000;

/** Decodes a document's bytes; `file` names it in the note. */
export function readDocumentText(file: string, bytes: Uint8Array): DocumentText {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
    return {
      kind: 'text',
      text: new TextDecoder('utf-16le').decode(bytes.subarray(2)),
      note: documentMessages.utf16Decoded(file, 'LE'),
    };
  }
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    return {
      kind: 'text',
      text: new TextDecoder('utf-16be').decode(bytes.subarray(2)),
      note: documentMessages.utf16Decoded(file, 'BE'),
    };
  }
  const probe = bytes.subarray(0, BINARY_PROBE);
  if (probe.includes(0)) return { kind: 'binary', note: documentMessages.binary(file) };
  return { kind: 'text', text: utf8.decode(bytes), note: null };
}

// C0 controls except tab, DEL, C1 controls, and the bidirectional overrides and isolates that
// reorder what a terminal shows ("Trojan Source").
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\u001b': '\\e' };

/**
 * Makes text from a repository safe to print on a terminal: every control character (C0 but tab,
 * ESC, DEL, C1) and bidirectional override is shown as an escape (`\e`, `\n`, `\u009b`), so a file
 * name, citation or message can neither move the cursor, recolour, retitle the terminal nor break
 * the one-line-per-finding layout.
 */
export function escapeControls(text: string): string {
  CONTROL.lastIndex = 0;
  if (!CONTROL.test(text)) return text;
  return text.replace(CONTROL, (char) => NAMED[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
