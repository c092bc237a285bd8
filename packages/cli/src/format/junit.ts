import type { Finding, Report } from '@aiwg-cite/core';

/** Escapes text for XML content and attribute values; drops characters XML 1.0 cannot hold. */
export function escapeXml(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing the control characters XML 1.0 forbids
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

/**
 * JUnit XML (SPEC §13): one `<testsuite>` per document, one `<testcase>` per citation. Errors are
 * `<failure>`s; warnings and infos pass, with their message in `<system-out>`.
 */
export function formatJunit(report: Report): string {
  const byFile = new Map<string, Finding[]>();
  for (const finding of report.citations) {
    const list = byFile.get(finding.file) ?? [];
    list.push(finding);
    byFile.set(finding.file, list);
  }
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  for (const [file, findings] of [...byFile].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const failed = findings.filter((finding) => finding.severity === 'error').length;
    tests += findings.length;
    failures += failed;
    const cases = findings.map((finding) => {
      const name = escapeXml(`${finding.line}:${finding.column} ${finding.kind} ${finding.text}`);
      const open = `    <testcase classname="${escapeXml(file)}" name="${name}" file="${escapeXml(file)}" line="${finding.line}">`;
      const detail = escapeXml(
        `${finding.file}:${finding.line}:${finding.column} ${finding.message}${finding.fix === null ? '' : `\nfix: ${finding.fix}`}`,
      );
      if (finding.severity === 'error') {
        return `${open}\n      <failure message="${escapeXml(finding.message)}" type="${escapeXml(finding.rule)}">${detail}</failure>\n    </testcase>`;
      }
      if (finding.severity === 'warning' || finding.severity === 'info') {
        return `${open}\n      <system-out>${escapeXml(`${finding.severity} ${finding.rule}: `)}${detail}</system-out>\n    </testcase>`;
      }
      return `${open}</testcase>`;
    });
    suites.push(
      `  <testsuite name="${escapeXml(file)}" tests="${findings.length}" failures="${failed}" errors="0" skipped="0">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  const head = `<testsuites name="aiwg-cite" tests="${tests}" failures="${failures}" errors="0">`;
  const body = suites.length === 0 ? `${head}</testsuites>` : `${head}\n${suites.join('\n')}\n</testsuites>`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${body}\n`;
}
