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

/** A document's text as a command that edits it reads it, and the way back to bytes of the same encoding. */
export interface EditableText {
  /** The whole text, a byte-order mark kept as U+FEFF (so offsets after it are the scanner's plus one). */
  readonly text: string;
  /** The bytes of `text` in the document's encoding: its own bytes back when `text` is unchanged. */
  encode(text: string): Uint8Array;
}

/**
 * The text of a document that `stamp` or `--fix` may edit: UTF-8 (a BOM kept), or UTF-16 with a
 * byte-order mark, each decoded strictly so that encoding it again gives the same bytes. `null`
 * for anything else (Latin-1, a lone surrogate, an odd UTF-16 length): such a file is not edited.
 */
export function editableText(bytes: Uint8Array): EditableText | null {
  const utf16 =
    bytes.length >= 2 ? (bytes[0] === 0xff && bytes[1] === 0xfe ? 'le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'be' : null) : null;
  try {
    if (utf16 === null) {
      const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
      return { text, encode: (next) => new TextEncoder().encode(next) };
    }
    const text = new TextDecoder(`utf-16${utf16}`, { fatal: true, ignoreBOM: true }).decode(bytes);
    return { text, encode: (next) => encodeUtf16(next, utf16 === 'le') };
  } catch {
    return null;
  }
}

/** UTF-16 code units as bytes, little- or big-endian (a U+FEFF in the text becomes the byte-order mark). */
function encodeUtf16(text: string, littleEndian: boolean): Uint8Array {
  const bytes = new Uint8Array(text.length * 2);
  const view = new DataView(bytes.buffer);
  for (let at = 0; at < text.length; at += 1) view.setUint16(at * 2, text.charCodeAt(at), littleEndian);
  return bytes;
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
