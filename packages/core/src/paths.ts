/** The outcome of normalising a cited artifact id into a root-relative path (SPEC §2.3). */
export type NormalisedPath =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly reason: 'absolute' | 'home' | 'escapes-root' | 'empty' };

/** Anything a plain relative POSIX path does not contain: `\\`, `//`, `.`/`..` segments, a leading `/`, `~` or drive. */
const NEEDS_WORK = /\\|\/\/|(?:^|\/)\.{1,2}(?:\/|$)|^[/~]|^[A-Za-z]:|\/$/;

/**
 * Normalises an artifact id lexically: `\` to `/`, strip `./`, collapse `//`, resolve `.` and `..`.
 * Absolute, `~` and root-escaping ids are rejected so that no file outside the root is ever read.
 * Percent-escapes are never decoded.
 */
export function normaliseArtifactPath(id: string): NormalisedPath {
  if (id.length > 0 && !NEEDS_WORK.test(id)) return { ok: true, path: id };
  const slashed = id.replace(/\\/g, '/');
  if (slashed.length === 0) return { ok: false, reason: 'empty' };
  if (slashed.startsWith('/') || /^[A-Za-z]:\//.test(slashed)) return { ok: false, reason: 'absolute' };
  if (slashed === '~' || slashed.startsWith('~/')) return { ok: false, reason: 'home' };
  const parts: string[] = [];
  for (const part of slashed.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return { ok: false, reason: 'escapes-root' };
      parts.pop();
      continue;
    }
    parts.push(part);
  }
  if (parts.length === 0) return { ok: false, reason: 'empty' };
  return { ok: true, path: parts.join('/') };
}

/** `path` read from the folder of the document `file` (root-relative; a root document's folder is the root). */
export function normaliseFromDocument(file: string, path: string): NormalisedPath {
  const slash = file.lastIndexOf('/');
  return normaliseArtifactPath(slash === -1 ? path : `${file.slice(0, slash)}/${path}`);
}

/**
 * The root-relative path `path` names when read from the folder of the document `file` (both
 * root-relative), or `null` for a document at the root (the same path) or a path that would leave
 * the root from there.
 */
export function fromDocumentFolder(file: string, path: string): string | null {
  if (!file.includes('/')) return null;
  const normalised = normaliseFromDocument(file, path);
  return normalised.ok ? normalised.path : null;
}

/**
 * `path/to/…` anywhere in a path, the form every manual writes for "your path here", a folder or
 * file named `your-…`/`your_…` (a reader's own file, not one of this project), or a segment of
 * three dots or more, which elides folders (`src/.../login.ts`, `.../config.json`).
 */
const EXAMPLE_SEGMENT = /(?:^|[/\\])(?:path[/\\]to[/\\]|your[-_]|\.{3,}(?:[/\\]|$))/i;
/** Names that stand for "some file" when written alone at the root (`@file.md`, `[foo.ts, L1]`). */
const PLACEHOLDER_NAMES = new Set([
  'file',
  'filename',
  'foo',
  'baz',
  'qux',
  'quux',
  'xxx',
  'placeholder',
  'myfile',
  'yourfile',
  'somefile',
]);

/**
 * True for a relative path that documentation writes to show a form rather than to name a file of
 * the project: `path/to/file.ts`, `docs/your-notes.md`, `src/.../login.ts`, `@file.md`. Such a path is a citation
 * only when the file exists; missing, it is an illustration, as `REF-XXX` is (SPEC §3.1). A name
 * such as `file.ts` counts only alone at the root: `src/utils/file.ts` is a real module's name.
 */
export function isPlaceholderPath(path: string): boolean {
  if (EXAMPLE_SEGMENT.test(path)) return true;
  if (/[/\\]/.test(path)) return false;
  const dot = path.indexOf('.');
  return PLACEHOLDER_NAMES.has((dot === -1 ? path : path.slice(0, dot)).toLowerCase());
}

/** Joins an absolute POSIX root and a normalised relative path. */
export function joinRoot(root: string, relativePath: string): string {
  return root.endsWith('/') ? root + relativePath : `${root}/${relativePath}`;
}

/** The root-relative form of an absolute path, or `null` when it lies outside the root. */
export function relativeToRoot(root: string, absolutePath: string): string | null {
  if (absolutePath === root) return '';
  const prefix = root.endsWith('/') ? root : `${root}/`;
  return absolutePath.startsWith(prefix) ? absolutePath.slice(prefix.length) : null;
}
