import { describe, expect, it } from 'vitest';
import { escapeXml, formatJunit } from './junit.ts';
import { sampleReport } from './sample-report.ts';

/**
 * A strict check of XML 1.0 well-formedness for the subset JUnit uses: a declaration, balanced
 * elements, quoted attributes without `<`, only the five predefined entities or character
 * references, no stray `<` or `&` in text. Returns the element tree as [name, attributes, children].
 */
type Element = { name: string; attributes: Record<string, string>; children: Element[]; text: string };

function parseXml(xml: string): Element {
  const declaration = /^<\?xml version="1\.0" encoding="UTF-8"\?>\n/;
  if (!declaration.test(xml)) throw new Error('missing XML declaration');
  const entity = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;
  const checkText = (text: string) => {
    if (/[<]/.test(text) || /&/.test(text.replace(entity, ''))) throw new Error(`bad character data: ${text}`);
  };
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>/y;
  let at = xml.match(declaration)?.[0].length ?? 0;
  const root: Element = { name: '#document', attributes: {}, children: [], text: '' };
  const stack: Element[] = [root];
  while (at < xml.length) {
    const next = xml.indexOf('<', at);
    const text = xml.slice(at, next === -1 ? xml.length : next);
    checkText(text);
    (stack[stack.length - 1] as Element).text += text;
    if (next === -1) break;
    token.lastIndex = next;
    const match = token.exec(xml);
    if (match === null) throw new Error(`malformed tag at ${next}: ${xml.slice(next, next + 40)}`);
    const [, closing, name, attributeText, selfClosing] = match as unknown as [string, string, string, string, string];
    if (closing === '/') {
      const open = stack.pop();
      if (open?.name !== name) throw new Error(`</${name}> closes <${open?.name}>`);
    } else {
      const attributes: Record<string, string> = {};
      for (const [, key, value] of attributeText.matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)) {
        checkText(value as string);
        if ((key as string) in attributes) throw new Error(`duplicate attribute ${key}`);
        attributes[key as string] = value as string;
      }
      const element: Element = { name, attributes, children: [], text: '' };
      (stack[stack.length - 1] as Element).children.push(element);
      if (selfClosing !== '/') stack.push(element);
    }
    at = token.lastIndex;
  }
  if (stack.length !== 1) throw new Error(`unclosed <${stack[stack.length - 1]?.name}>`);
  if (root.children.length !== 1 || root.text.trim() !== '') throw new Error('exactly one root element');
  return root.children[0] as Element;
}

describe('formatJunit', () => {
  it('is well-formed XML with one testsuite per file and one testcase per citation', () => {
    const suites = parseXml(formatJunit(sampleReport()));
    expect(suites.name).toBe('testsuites');
    expect(suites.attributes).toMatchObject({ tests: '4', failures: '1' });
    expect(suites.children.map((suite) => [suite.attributes.name, suite.attributes.tests, suite.attributes.failures])).toEqual([
      ['docs/a b.md', '2', '1'],
      ['docs/c.md', '2', '0'],
    ]);
    const [missing, stale] = suites.children[0]?.children ?? [];
    expect(missing?.children.map((child) => child.name)).toEqual(['failure']);
    expect(missing?.children[0]?.attributes.type).toBe('rlm/missing');
    expect(stale?.children.map((child) => child.name)).toEqual(['system-out']);
    expect(stale?.children[0]?.text).toContain('second line &lt;&amp;&quot;&apos;&gt;');
    expect(suites.children[1]?.children[0]?.children).toEqual([]);
  });

  it('the checker rejects what is not well-formed', () => {
    expect(() => parseXml('<?xml version="1.0" encoding="UTF-8"?>\n<a><b></a></b>\n')).toThrow();
    expect(() => parseXml('<?xml version="1.0" encoding="UTF-8"?>\n<a>x & y</a>\n')).toThrow();
  });

  it('escapes markup and drops characters XML cannot hold', () => {
    expect(escapeXml('a<b>&"\'\u0001c')).toBe('a&lt;b&gt;&amp;&quot;&apos;c');
  });

  it('writes an empty testsuites element when there is nothing to report', () => {
    const empty = formatJunit({ ...sampleReport(), citations: [] });
    expect(parseXml(empty).attributes.tests).toBe('0');
  });
});
