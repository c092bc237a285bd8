import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { filterByGlobs, loadConfig, validateConfig } from '../src/config.ts';

const problem = (value: unknown): string => {
  try {
    validateConfig(value, 'aiwg-cite.config.json');
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
};

describe('configuration validation (valibot schema in the core)', () => {
  it('rejects an unknown rule id, suggesting the nearest registered one', () => {
    expect(problem({ rules: { 'statistics/unsourced': 'off' } })).toBe(
      'aiwg-cite.config.json: `rules`: unknown rule `statistics/unsourced`; did you mean `statistic/unsourced`? (`aiwg-cite rules` lists them)',
    );
    expect(problem({ rules: { 'no/such-thing-at-all': 'off' } })).toMatch(/unknown rule `no\/such-thing-at-all` \(/);
  });

  it('rejects unknown keys with the nearest valid one, at any depth', () => {
    expect(problem({ corpuz: [] })).toMatch(/^aiwg-cite\.config\.json: unknown key `corpuz`; did you mean `corpus`\? \(known: corpus, /);
    expect(problem({ online: { crossreff: 'https://x.org' } })).toMatch(/unknown key `online\.crossreff`; did you mean `crossref`\?/);
  });

  it('names the key and the value of a wrong type', () => {
    expect(problem({ strict: 'yes' })).toBe('aiwg-cite.config.json: `strict` must be true or false, not "yes"');
    expect(problem({ rules: { 'rlm/stale': 'fatal' } })).toBe(
      'aiwg-cite.config.json: `rules.rlm/stale` must be one of off, info, warning, error, not "fatal"',
    );
    expect(problem({ corpus: ['docs', ' '] })).toBe('aiwg-cite.config.json: `corpus` must hold non-empty strings, not " "');
    expect(problem({ online: { crossref: 'ftp://x' } })).toBe(
      'aiwg-cite.config.json: `online.crossref` must be an http or https base URL, not "ftp://x"',
    );
    expect(problem([])).toBe('aiwg-cite.config.json: the configuration must be a JSON object');
  });

  it('maps a renamed rule id to its current id', () => {
    expect(validateConfig({ rules: { 'ref/missing': 'warning', 'rlm/stale': 'error' } }, 'f').rules).toEqual({
      'ref/not-in-corpus': 'warning',
      'rlm/stale': 'error',
    });
    expect(validateConfig({ $schema: './schema.json', strict: true }, 'f')).toEqual({ file: 'f', strict: true });
  });
});

describe('loadConfig: what cannot be a configuration file (issue 15 item 19)', () => {
  const failure = (setup: (dir: string) => void): string => {
    const dir = tempDir();
    setup(dir);
    try {
      loadConfig(dir);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('the configuration was accepted');
  };

  it('a directory', () => {
    expect(failure((dir) => mkdirSync(join(dir, 'aiwg-cite.config.json')))).toBe('aiwg-cite.config.json: a directory, not a file');
  });

  it('a dangling symlink', () => {
    expect(failure((dir) => symlinkSync('gone.json', join(dir, 'aiwg-cite.config.json')))).toBe(
      'aiwg-cite.config.json: a symbolic link to `gone.json`, which does not exist',
    );
  });

  it('a package.json that is not JSON', () => {
    expect(failure((dir) => writeFileSync(join(dir, 'package.json'), '{ "name": "x",'))).toMatch(
      /^package\.json: not valid JSON \([^\n]+\)$/,
    );
  });

  it('accepts a UTF-8 BOM, in the config file and in package.json', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'aiwg-cite.config.json'), '\uFEFF{"strict": true}');
    expect(loadConfig(dir)).toEqual({ file: 'aiwg-cite.config.json', strict: true });
    const other = tempDir();
    writeFileSync(join(other, 'package.json'), '\uFEFF{"aiwg-cite": {"rules": {"rlm/stale": "error"}}}');
    expect(loadConfig(other)).toEqual({ file: 'package.json "aiwg-cite"', rules: { 'rlm/stale': 'error' } });
  });
});

describe('include/exclude globs through picomatch (issue 12 item 5)', () => {
  const paths = [
    'README.md',
    'docs/a.md',
    'docs/deep/b.md',
    'docs/deep/draft-c.md',
    'drafts/x.md',
    'notes/.hidden.md',
    'src/{weird}.md',
    'CHANGELOG.md',
  ];

  it('crosses directories with `**` only, and matches a slash-free glob at any depth', () => {
    expect(filterByGlobs(paths, ['docs/*.md'], undefined)).toEqual(['docs/a.md']);
    expect(filterByGlobs(paths, ['docs/**'], ['**/draft-*.md'])).toEqual(['docs/a.md', 'docs/deep/b.md']);
    expect(filterByGlobs(paths, ['*.md'], ['draft-*.md', 'CHANGELOG.md'])).toEqual([
      'README.md',
      'docs/a.md',
      'docs/deep/b.md',
      'drafts/x.md',
      'notes/.hidden.md',
      'src/{weird}.md',
    ]);
  });

  it('matches braces, classes, dot files, a leading ./ and everything under a matched directory', () => {
    expect(filterByGlobs(paths, ['{docs,drafts}/*.md'], undefined)).toEqual(['docs/a.md', 'drafts/x.md']);
    expect(filterByGlobs(paths, ['[RC]*.md'], undefined)).toEqual(['README.md', 'CHANGELOG.md']);
    expect(filterByGlobs(paths, ['notes/*.md'], undefined)).toEqual(['notes/.hidden.md']);
    expect(filterByGlobs(paths, undefined, ['./drafts', 'docs/deep'])).toEqual([
      'README.md',
      'docs/a.md',
      'notes/.hidden.md',
      'src/{weird}.md',
      'CHANGELOG.md',
    ]);
    expect(filterByGlobs(paths, ['src/\\{weird}.md'], undefined)).toEqual(['src/{weird}.md']);
  });
});
