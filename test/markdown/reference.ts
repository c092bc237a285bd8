/**
 * The reference for the markdown model: micromark + mdast-util-from-markdown with the GFM,
 * frontmatter (YAML and TOML) and math extensions. A probe placed in a document "stands in prose"
 * when the reference keeps every character of it as literal text a reader sees: one text node
 * covers it, no link, image or autolink swallows it, and no backslash escapes its `[`.
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { mathFromMarkdown } from 'mdast-util-math';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import { math } from 'micromark-extension-math';

interface Node {
  type: string;
  value?: string;
  position?: { start: { offset?: number }; end: { offset?: number } };
  children?: Node[];
}

// Single-dollar inline math is off in the model (a `$` is a variable or a price), so here too.
const extensions = [gfm(), frontmatter(['yaml', 'toml']), math({ singleDollarTextMath: false })];
const mdastExtensions = [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml', 'toml']), mathFromMarkdown()];

/** Parses a document with the reference parser. */
export function referenceTree(text: string): Node {
  return fromMarkdown(text, { extensions, mdastExtensions }) as Node;
}

/**
 * An index of one parsed document that says whether the reference keeps `[start, end)` as
 * literal, unescaped prose text. mdast-util-gfm-autolink-literal links addresses in text nodes
 * after parsing and leaves the pieces it splits without positions: such a piece holds a probe when
 * its value holds all of it.
 */
export function referenceIndex(text: string, tree: Node = referenceTree(text)): (start: number, end: number) => boolean {
  const ranges: number[] = [];
  const unplaced: string[] = [];
  const visit = (node: Node, inAutolink: boolean): void => {
    const from = node.position?.start.offset;
    const to = node.position?.end.offset;
    if (from === undefined || to === undefined) {
      if (node.type === 'text' && !inAutolink && node.value !== undefined) unplaced.push(node.value);
      if (node.type === 'link') return;
      for (const child of node.children ?? []) visit(child, inAutolink);
      return;
    }
    if (node.type === 'text') {
      if (!inAutolink) ranges.push(from, to);
      return;
    }
    // A link whose source does not open with `[` is an autolink (`<…>` or a GFM literal): its text is the address.
    const autolink = inAutolink || (node.type === 'link' && text.charCodeAt(from) !== 91);
    for (const child of node.children ?? []) visit(child, autolink);
  };
  visit(tree, false);
  return (start, end) => {
    let low = 0;
    let high = ranges.length / 2 - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const from = ranges[mid * 2] as number;
      const to = ranges[mid * 2 + 1] as number;
      if (to <= start) low = mid + 1;
      else if (from > start) high = mid - 1;
      else return end <= to && !escapedWithin(text, start, from);
    }
    const probe = text.slice(start, end);
    return unplaced.some((value) => value.includes(probe)) && !escapedWithin(text, start, 0);
  };
}

/** True when the reference keeps `[start, end)` of `text` as literal, unescaped prose text. */
export function referenceSaysProse(text: string, start: number, end: number, tree: Node = referenceTree(text)): boolean {
  return referenceIndex(text, tree)(start, end);
}

/** An odd run of backslashes right before `offset`, inside the same text node, escapes it. */
function escapedWithin(text: string, offset: number, nodeStart: number): boolean {
  let count = 0;
  for (let at = offset - 1; at >= nodeStart && text.charCodeAt(at) === 92; at -= 1) count += 1;
  return count % 2 === 1;
}
