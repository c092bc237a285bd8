import { describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import { readmeUrl, ruleDocsUrl } from './rule-docs.ts';

describe('rule documentation URLs', () => {
  it('come from the homepage, without its fragment', () => {
    expect(ruleDocsUrl('rlm/stale', { homepage: 'https://example.org/aiwg-cite#readme' })).toBe(
      'https://example.org/aiwg-cite#rule-rlm-stale',
    );
  });

  it('come from the repository web page in each form package.json allows', () => {
    const page = 'https://github.com/owner/name';
    expect(readmeUrl({ repository: { type: 'git', url: 'git+https://github.com/owner/name.git' } })).toBe(page);
    expect(readmeUrl({ repository: 'git@github.com:owner/name.git' })).toBe(page);
    expect(readmeUrl({ repository: 'github:owner/name' })).toBe(page);
    expect(readmeUrl({ repository: 'owner/name' })).toBe(page);
    expect(readmeUrl({ repository: 'gitlab:owner/name' })).toBe('https://gitlab.com/owner/name');
  });

  it('are not guessed when the manifest names no homepage or repository', () => {
    expect(readmeUrl({})).toBeNull();
    expect(ruleDocsUrl('rlm/stale', { repository: { type: 'git' } })).toBeNull();
  });

  it('follow the package manifest as published', () => {
    const manifest = packageJson as { homepage?: string; repository?: unknown };
    if (manifest.homepage === undefined && manifest.repository === undefined) expect(readmeUrl()).toBeNull();
    else expect(readmeUrl()).toMatch(/^https:\/\//);
  });
});
