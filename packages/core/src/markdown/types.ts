/** A half-open range of UTF-16 offsets into the document text. */
export interface Range {
  readonly start: number;
  readonly end: number;
}

/**
 * Why a region of the document is not prose. `markup` is syntax a reader does not see as text: the
 * brackets of a link, a footnote label, a table's delimiter row.
 */
export type RegionKind =
  | 'frontmatter'
  | 'fenced-code'
  | 'indented-code'
  | 'code-span'
  | 'html-block'
  | 'html-inline'
  | 'comment'
  | 'definition'
  | 'destination'
  | 'reference'
  | 'autolink'
  | 'image'
  | 'math'
  | 'footnote-call'
  | 'markup';

/** A non-prose region. */
export interface Region extends Range {
  readonly kind: RegionKind;
}

/** True for the kinds that are code: fenced and indented code blocks and code spans. */
export function isCodeKind(kind: RegionKind): boolean {
  return kind === 'fenced-code' || kind === 'indented-code' || kind === 'code-span';
}

/** True for the kinds that are raw HTML: HTML blocks, inline HTML and comments. */
export function isHtmlKind(kind: RegionKind): boolean {
  return kind === 'html-block' || kind === 'html-inline' || kind === 'comment';
}
