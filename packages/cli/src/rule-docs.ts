import { ruleAnchor } from '@aiwg-cite/core';
import packageJson from '../package.json' with { type: 'json' };

/** The fields of a package manifest that say where the project's documentation is published. */
export interface PublishedManifest {
  readonly homepage?: unknown;
  readonly repository?: unknown;
}

/**
 * The web page of the README the rule table is published in: package.json's `homepage`, else
 * the web page of its `repository` (a URL, `git@host:owner/name.git` or the `github:owner/name`
 * shorthand), whose front page shows the README. `null` when the manifest names neither: no URL
 * is guessed.
 */
export function readmeUrl(manifest: PublishedManifest = packageJson as PublishedManifest): string | null {
  if (typeof manifest.homepage === 'string' && /^https?:\/\//.test(manifest.homepage)) return withoutFragment(manifest.homepage);
  const repository = manifest.repository;
  const url =
    typeof repository === 'string'
      ? repository
      : typeof repository === 'object' && repository !== null && typeof (repository as { url?: unknown }).url === 'string'
        ? (repository as { url: string }).url
        : null;
  return url === null ? null : repositoryPage(url);
}

/** The documentation URL of a rule (its anchor in the README's rule table), or `null` without a published README. */
export function ruleDocsUrl(id: string, manifest?: PublishedManifest): string | null {
  const readme = readmeUrl(manifest);
  return readme === null ? null : `${readme}#${ruleAnchor(id)}`;
}

function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}

/** `git+https://host/o/r.git`, `git@host:o/r.git`, `github:o/r` or `o/r` as the repository's web page. */
function repositoryPage(url: string): string | null {
  const shorthand = /^(?:(github|gitlab|bitbucket):)?([\w.-]+\/[\w.-]+)$/.exec(url);
  if (shorthand !== null) {
    const host = { github: 'github.com', gitlab: 'gitlab.com', bitbucket: 'bitbucket.org' }[shorthand[1] ?? 'github'];
    return `https://${host}/${(shorthand[2] as string).replace(/\.git$/, '')}`;
  }
  const scp = /^git@([^:/]+):(.+?)(?:\.git)?$/.exec(url);
  if (scp !== null) return `https://${scp[1]}/${scp[2]}`;
  const web = /^(?:git\+)?(?:https?|git|ssh):\/\/(?:[^@/]+@)?([^/]+)\/(.+?)(?:\.git)?\/?$/.exec(url);
  return web === null ? null : `https://${web[1]}/${web[2]}`;
}
