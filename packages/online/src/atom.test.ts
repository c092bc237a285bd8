import { describe, expect, it } from 'vitest';
import { parseAtom } from './resolvers.ts';

const FEED = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
  <title type="html">ArXiv Query: id_list=2210.03629</title>
  <entry>
    <id>http://arxiv.org/abs/2210.03629v3</id>
    <updated>2023-03-10T01:00:32Z</updated>
    <published>2022-10-06T01:00:32Z</published>
    <title type="html">ReAct: Synergizing Reasoning and Acting
      in Language Models &amp; &lt;Tools&gt;</title>
    <summary><![CDATA[We explore <b>LLMs</b>.]]></summary>
    <author><name>Shunyu Yao</name></author>
    <author><name>Jeffrey Zhao</name><arxiv:affiliation>Google</arxiv:affiliation></author>
    <arxiv:journal_ref>ICLR 2023</arxiv:journal_ref>
    <arxiv:doi>10.5555/react</arxiv:doi>
    <link href="http://arxiv.org/abs/2210.03629v3" rel="alternate" type="text/html"/>
  </entry>
</feed>`;

describe('parseAtom (fast-xml-parser)', () => {
  it('reads entities, CDATA, namespaced arXiv fields, titles with attributes and line breaks', () => {
    expect(parseAtom(FEED)).toEqual([
      {
        id: 'http://arxiv.org/abs/2210.03629v3',
        title: 'ReAct: Synergizing Reasoning and Acting in Language Models & <Tools>',
        summary: 'We explore <b>LLMs</b>.',
        authors: ['Shunyu Yao', 'Jeffrey Zhao'],
        year: 2022,
        updatedYear: 2023,
        journalRef: 'ICLR 2023',
        doi: '10.5555/react',
      },
    ]);
  });

  it('answers an empty list for a feed without entries and null for what is not a feed', () => {
    expect(parseAtom('<feed xmlns="http://www.w3.org/2005/Atom"><title>none</title></feed>')).toEqual([]);
    expect(parseAtom('<html><body>Service Unavailable</body></html>')).toBeNull();
    expect(parseAtom('not xml at all <<')).toBeNull();
  });
});
