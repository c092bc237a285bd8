import { documentMessages } from './messages.ts';
import type { ReadResult } from './ports.ts';

/** How documents are admitted to a check: the one document policy of every command. */
export interface DocumentPolicy {
  /** Documents larger than this many bytes are skipped with a note. @default 8388608 (8 MiB) */
  readonly maxDocumentBytes?: number;
}

/** The default size cap of a markdown document. */
export const DEFAULT_MAX_DOCUMENT_BYTES = 8 * 1024 * 1024;
/** Like git, a NUL byte in the first 8000 bytes makes a file binary. */
export const BINARY_SNIFF_BYTES = 8000;

/** Why a document in scope was not checked. */
export type SkipReason =
  | { readonly kind: 'directory' }
  | { readonly kind: 'unreadable'; readonly reason: string }
  | { readonly kind: 'too-large'; readonly size: number; readonly limit: number }
  | { readonly kind: 'binary' }
  /** Listed, but nothing to read there: a dangling symlink, or a file removed during the run. */
  | { readonly kind: 'no-file' };

/** What the policy makes of one read document. */
export type Admission =
  | { readonly kind: 'admit'; readonly bytes: Uint8Array }
  /** Not there (any more), or outside the root: no document to speak of. */
  | { readonly kind: 'gone'; readonly read: ReadResult }
  | { readonly kind: 'skip'; readonly reason: SkipReason };

/**
 * Decides whether a read document is checked: a regular file within the size cap and without a
 * NUL byte in its first {@link BINARY_SNIFF_BYTES} bytes. Everything else is skipped with a reason
 * (which becomes a coverage note), so a skipped document never reads as a checked one.
 */
export function admitDocument(read: ReadResult, policy: DocumentPolicy = {}): Admission {
  switch (read.kind) {
    case 'missing':
    case 'outside-root':
      return { kind: 'gone', read };
    case 'directory':
      return { kind: 'skip', reason: { kind: 'directory' } };
    case 'unreadable':
      // A document in scope that cannot be read (a FIFO, a device, no permission) is that
      // document's finding, never a silent skip; the other documents are still checked.
      return { kind: 'gone', read };
    case 'unchecked':
      return { kind: 'skip', reason: { kind: 'unreadable', reason: read.reason } };
    case 'file': {
      const limit = policy.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
      if (read.bytes.length > limit) return { kind: 'skip', reason: { kind: 'too-large', size: read.bytes.length, limit } };
      if (!hasUtf16Bom(read.bytes) && read.bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0))
        return { kind: 'skip', reason: { kind: 'binary' } };
      return { kind: 'admit', bytes: read.bytes };
    }
  }
}

/** UTF-16 with a byte-order mark is text (decoded by `decodeDocument`), though it holds NUL bytes. */
export function hasUtf16Bom(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
}

/** The sentence of a skip reason: `binary content, not markdown`. */
export function describeSkip(reason: SkipReason): string {
  switch (reason.kind) {
    case 'directory':
      return documentMessages.skippedDirectory();
    case 'unreadable':
      return documentMessages.skippedUnreadable(reason.reason);
    case 'too-large':
      return documentMessages.skippedTooLarge(formatBytes(reason.size), formatBytes(reason.limit));
    case 'binary':
      return documentMessages.skippedBinary();
    case 'no-file':
      return documentMessages.skippedNoFile();
  }
}

/**
 * What a listed document found gone when read is in the report: a symlink to a missing file (into
 * a submodule not checked out, to a generated file not built) holds no citation of the
 * repository's, so it is a skip with a note, not a finding that would block every commit; `null`
 * for a document that is there but is not read (a symlink out of the root, a FIFO, no
 * permission), which is that document's finding.
 */
export function goneSkip(read: ReadResult): SkipReason | null {
  return read.kind === 'missing' ? { kind: 'no-file' } : null;
}

/** A skipped document's coverage note: `docs/a.md: skipped (binary content, not markdown)`. */
export function skippedNote(file: string, reason: SkipReason): string {
  return `${file}: skipped (${describeSkip(reason)})`;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}
