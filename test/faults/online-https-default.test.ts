/**
 * Issue 15 item 7: every service is reached over HTTPS unless the configuration or the
 * environment names another URL.
 */
import { DEFAULT_SERVICE_URLS, resolveServiceUrls } from '@aiwg-cite/online';
import { describe, expect, it } from 'vitest';

describe('online-https-default', () => {
  it('defaults every service to https', () => {
    const urls = resolveServiceUrls({});
    expect(Object.keys(urls).sort()).toEqual(Object.keys(DEFAULT_SERVICE_URLS).sort());
    for (const [name, url] of Object.entries(urls)) expect([name, new URL(url).protocol]).toEqual([name, 'https:']);
  });
});
