import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildReport, type Report } from '@aiwg-cite/core';
import { gitRepo, runCli } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

const COMMANDS = join(import.meta.dirname, '../src/commands');

/**
 * A corpus in docs/references, and a default corpus root (.aiwg/research/…) that git ignores: an
 * id missing from the tracked corpus may live there, so the corpus stage softens `ref/not-in-corpus`
 * to info and adds one `corpus/absent` warning. Both happen inside the pipeline's one report build.
 */
function repo() {
  const repository = gitRepo({
    '.gitignore': '.aiwg/\n',
    'docs/references/REF-001-known.md': '# REF-001: A known source\n',
    'README.md': 'Nothing cited.\n',
  });
  repository.write({ 'paper.md': 'As REF-001 shows, and REF-002 too.\n' });
  repository.git('add', 'paper.md');
  return repository;
}

describe('check --staged builds its report once (issue 12)', () => {
  it('the corpus stage revises and adds findings before the one build: summary and verdict count them', () => {
    const repository = repo();
    const run = runCli(['check', '--staged', '--format', 'json'], { cwd: repository.dir });
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as Report;
    const lines = report.citations.map((finding) => `${finding.file}:${finding.rule}:${finding.severity}:${finding.text}`);
    expect(lines).toContain('paper.md:ref/not-in-corpus:info:REF-002');
    expect(lines).toContain('paper.md:corpus/absent:warning:REF-002');
    // What one build over these citations gives is exactly what was printed: nothing was added
    // or softened after the summary and verdict were counted.
    const once = buildReport(report.citations, report.summary.files, report.coverage);
    expect(report.summary).toEqual(once.summary);
    expect(report.verdict).toBe(once.verdict);
    expect(report.summary.warnings).toBe(1);
    expect(run.code).toBe(0);

    // --strict escalates the stage's warning in that same build, so the commit is blocked.
    const strict = runCli(['check', '--staged', '--strict', '--format', 'json'], { cwd: repository.dir });
    const strictReport = JSON.parse(strict.stdout) as Report;
    expect(strictReport.citations.find((finding) => finding.rule === 'corpus/absent')?.severity).toBe('error');
    expect(strictReport.verdict).toBe('FAIL');
    expect(strict.code).toBe(1);
  });

  it('no check command rebuilds a report: the pipeline (core runPipeline) is the only builder', () => {
    for (const file of ['check.ts', 'check-scholarly.ts', 'check-online.ts']) {
      expect({ file, rebuilds: /\bbuildReport\s*\(/.test(readFileSync(join(COMMANDS, file), 'utf8')) }).toEqual({ file, rebuilds: false });
    }
  });
});
