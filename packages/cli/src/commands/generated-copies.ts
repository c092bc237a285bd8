import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { FileStamps } from '@aiwg-cite/node';

/**
 * Folders that agent tools deploy instruction files into (`aiwg use`, editor rules, CLI agents).
 * A file there is often a copy a tool wrote, not writing of this project.
 */
export const AGENT_DEPLOY_FOLDERS: readonly string[] = [
  '.claude',
  '.codex',
  '.cursor',
  '.windsurf',
  '.opencode',
  '.gemini',
  '.kiro',
  '.factory',
  '.warp',
  '.agents',
  '.roo',
  '.continue',
  '.clinerules',
  '.amazonq',
  '.augment',
  '.crush',
  '.junie',
  '.trae',
  '.qwen',
  '.github/agents',
  '.github/prompts',
  '.github/instructions',
];

/** What {@link findGeneratedCopies} set aside, and why. */
export interface GeneratedCopies {
  /** Documents left unchecked. */
  readonly skipped: ReadonlySet<string>;
  /** Documents whose body equals that of a document that is checked. */
  readonly identical: number;
  /** Documents in agent folders that a deploy manifest next to them lists. */
  readonly deployed: number;
}

/**
 * Generated copies among the documents (issue 14), decided by two general rules:
 *
 * 1. Content identity: documents whose body (after a leading YAML front matter block, which
 *    deploy tools rewrite per target) is byte-identical to another document's are checked once,
 *    at the first of them in path order, preferring a path outside hidden folders. A copy would
 *    repeat every finding of its source word for word.
 * 2. Deploy manifests: a document under an agent deploy folder ({@link AGENT_DEPLOY_FOLDERS})
 *    whose directory holds a `*manifest*.json` naming it was written there by a tool; its source
 *    lives elsewhere (often in a package), so it is not checked here.
 */
export function findGeneratedCopies(root: string, documents: readonly string[], stamps: FileStamps | null = null): GeneratedCopies {
  const skipped = new Set<string>();
  let deployed = 0;
  const manifests = new Map<string, string>();
  for (const document of documents) {
    if (!inDeployFolder(document)) continue;
    const slash = document.lastIndexOf('/');
    const directory = document.slice(0, slash);
    const name = document.slice(slash + 1);
    let manifest = manifests.get(directory);
    if (manifest === undefined) {
      manifest = readManifests(`${root}/${directory}`);
      manifests.set(directory, manifest);
    }
    if (manifest.includes(JSON.stringify(name))) {
      skipped.add(document);
      deployed += 1;
    }
  }
  const byBody = new Map<string, string[]>();
  for (const document of documents) {
    if (skipped.has(document)) continue;
    // The stamps keep each body's digest, so a warm run does not read every document for it.
    const key = stamps === null ? bodyDigest(readOrNull(`${root}/${document}`)) : stamps.derived(document, 'body-bytes', bodyDigest);
    if (key === null) continue;
    const group = byBody.get(key);
    if (group === undefined) byBody.set(key, [document]);
    else group.push(document);
  }
  let identical = 0;
  for (const group of byBody.values()) {
    if (group.length < 2) continue;
    const keep = [...group].sort((a, b) => Number(isHidden(a)) - Number(isHidden(b)) || (a < b ? -1 : a > b ? 1 : 0))[0];
    for (const document of group) {
      if (document === keep) continue;
      skipped.add(document);
      identical += 1;
    }
  }
  return { skipped, identical, deployed };
}

function inDeployFolder(path: string): boolean {
  return AGENT_DEPLOY_FOLDERS.some((folder) => path.startsWith(`${folder}/`));
}

function isHidden(path: string): boolean {
  return path.split('/').some((segment) => segment.startsWith('.'));
}

function readManifests(directory: string): string {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return '';
  }
  return names
    .filter((name) => /manifest.*\.json$/i.test(name))
    .map((name) => {
      try {
        return readFileSync(`${directory}/${name}`, 'utf8');
      } catch {
        return '';
      }
    })
    .join('\n');
}

/** The SHA-256 of a document's body: its bytes after a leading YAML block; `null` for no file. */
function bodyDigest(bytes: Buffer): string;
function bodyDigest(bytes: Buffer | null): string | null;
function bodyDigest(bytes: Buffer | null): string | null {
  return bytes === null
    ? null
    : createHash('sha256')
        .update(bytes.subarray(bodyStart(bytes)))
        .digest('hex');
}

function readOrNull(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

const DASHES = 0x2d;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Where the body starts: after a leading `---` YAML block (`---` on the first line, then a line
 * that is `---` with only spaces or tabs after it), else at 0. Found in the bytes, so a document
 * is neither decoded nor copied to be compared.
 */
function bodyStart(bytes: Buffer): number {
  if (bytes[0] !== DASHES || bytes[1] !== DASHES || bytes[2] !== DASHES) return 0;
  let from = bytes[3] === LF ? 4 : bytes[3] === CR && bytes[4] === LF ? 5 : -1;
  if (from === -1) return 0;
  for (;;) {
    const close = bytes.indexOf('\n---', from, 'latin1');
    if (close === -1) return 0;
    let at = close + 4;
    while (bytes[at] === 0x20 || bytes[at] === 0x09) at += 1;
    if (at === bytes.length) return at;
    if (bytes[at] === LF) return at + 1;
    if (bytes[at] === CR && bytes[at + 1] === LF) return at + 2;
    from = close + 1;
  }
}
