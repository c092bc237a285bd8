/**
 * The reference-list verification of `aiwg-cite refs`, as a `check --online` document checker:
 * every item of a document's References / Bibliography section is verified, and each flagged
 * entry becomes a finding of kind `reference` (status = verdict, rule = the first error's rule).
 */
import { type DocumentChecker, type Finding, parseReferenceText, REF_RULES, type ReferenceSite, referenceListItems } from '@aiwg-cite/core';
import type { RefsSession } from './verify.ts';

/** A finding per flagged reference of a verified site. */
export function referenceFindings(site: ReferenceSite, judgement: import('@aiwg-cite/core').RefJudgement): Finding[] {
  if (judgement.verdict === 'valid' && judgement.findings.length === 0) return [];
  const errors = judgement.findings.filter((finding) => finding.severity === 'error');
  const shown = errors.length > 0 ? errors : judgement.findings;
  const first = shown[0];
  if (first === undefined) return [];
  return [
    {
      file: site.file,
      line: site.line,
      column: 1,
      kind: 'refs',
      text: site.cited.key,
      status: judgement.verdict,
      severity: judgement.verdict === 'hallucinated' ? 'error' : 'warning',
      rule: first.rule,
      message: shown.map((finding) => `${finding.message}${finding.record === null ? '' : ` <${finding.record.url}>`}`).join('; '),
      fix: REF_RULES[first.rule].good,
      record:
        judgement.matched === null ? null : { service: judgement.matched.service, id: judgement.matched.id, url: judgement.matched.url },
    },
  ];
}

/** The checker; `session` is opened on first use (a document set without reference lists sends nothing). */
export function createReferenceListChecker(session: () => RefsSession): DocumentChecker {
  return {
    name: 'references',
    async check({ file, document }) {
      const items = referenceListItems(document.text);
      if (items.length === 0) return { findings: [] };
      const sites: ReferenceSite[] = items.map((item) => ({
        file,
        line: item.line,
        cited: parseReferenceText(`${file}:${item.line}`, item.text),
        bib: null,
      }));
      const results = await session().verify(sites);
      return { findings: results.flatMap((result) => referenceFindings(result.site, result.judgement)) };
    },
  };
}
