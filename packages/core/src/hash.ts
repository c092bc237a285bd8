import type { Sha256 } from './ports.ts';

/**
 * The content hash of an RLM citation: the first 16 lowercase hex characters of SHA-256
 * over the file's raw bytes. Nothing is normalised: CRLF, BOM and trailing spaces all count
 * (SPEC §2.4, aiwg `src/artifacts/index-builder.ts:243`).
 */
export const CONTENT_HASH_LENGTH = 16;

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** Lowercase hex of a byte buffer. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += HEX[byte];
  return out;
}

/** SHA-256 through Web Crypto, available in Node 20, Deno and browsers. */
export const webCryptoSha256: Sha256 = async (bytes) => {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return toHex(new Uint8Array(digest));
};

/** The 16-hex content hash of raw bytes. */
export async function contentHash(bytes: Uint8Array, sha256: Sha256 = webCryptoSha256): Promise<string> {
  return (await sha256(bytes)).slice(0, CONTENT_HASH_LENGTH);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
const utf8Encoder = new TextEncoder();

/** True when the bytes are valid UTF-8. */
export function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * aiwg hashes the UTF-8-decoded string, so for invalid UTF-8 its hash is that of the bytes with
 * every bad sequence replaced by U+FFFD. Returns `null` for valid UTF-8, where both routines agree.
 */
export async function replacementContentHash(bytes: Uint8Array, sha256: Sha256 = webCryptoSha256): Promise<string | null> {
  if (isValidUtf8(bytes)) return null;
  return contentHash(utf8Encoder.encode(lenientUtf8.decode(bytes)), sha256);
}

/** Which routine produced a matching hash. */
export type HashRoutine = 'raw-bytes' | 'utf8-replacement';

/**
 * FNV-1a (32 bits) over a string's UTF-16 code units: a stable number for spreading names over
 * files (the citation index's parts, the file stamps' segments) with no encoding per call. Not
 * the shards' `pathHash`, which hashes UTF-8 bytes and must not change.
 */
export function codeUnitHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let at = 0; at < text.length; at += 1) {
    hash ^= text.charCodeAt(at);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
