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

/** The name of the body digest among the values {@link FileStamps} derive from a file. */
export const BODY_STAMP = 'body-bytes';

/**
 * The body digest ({@link bodyDigest}) of a document whose bytes are known to be those last read,
 * without reading it; `undefined` when it must be read.
 */
export type KnownBodies = (document: string) => string | undefined;

/**
 * Generated copies among the documents (issue 14), decided by two general rules:
 *
 * 1. Content identity ({@link identicalCopies}): documents whose body (after a leading YAML front
 *    matter block, which deploy tools rewrite per target) is byte-identical to another document's
 *    are checked once. A copy would repeat every finding of its source word for word.
 * 2. Deploy manifests ({@link deployedCopies}): a document under an agent deploy folder
 *    ({@link AGENT_DEPLOY_FOLDERS}) whose directory holds a `*manifest*.json` naming it was written
 *    there by a tool; its source lives elsewhere (often in a package), so it is not checked here.
 *
 * This reads every document for rule 1 (or takes its body digest from `stamps`); `check` leaves
 * rule 1 to the pipeline instead, which has each document's bytes in hand.
 */
export function findGeneratedCopies(
  root: string,
  documents: readonly string[],
  stamps: FileStamps | null = null,
  known?: KnownBodies,
): GeneratedCopies {
  const deployed = deployedCopies(root, documents);
  const bodies = new Map<string, string>();
  for (const document of documents) {
    if (deployed.has(document)) continue;
    // The stamps keep each body's digest, so a warm run does not read every document for it; a
    // watch knows the digest of each document it holds.
    const key =
      known?.(document) ??
      (stamps === null ? bodyDigest(readOrNull(`${root}/${document}`)) : stamps.derived(document, BODY_STAMP, bodyDigest));
    if (key !== null) bodies.set(document, key);
  }
  const identical = identicalCopies(bodies);
  return { skipped: new Set([...deployed, ...identical]), identical: identical.size, deployed: deployed.size };
}

/** Rule 2 of {@link findGeneratedCopies}: documents a deploy manifest beside them names. */
export function deployedCopies(root: string, documents: readonly string[]): Set<string> {
  const deployed = new Set<string>();
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
    if (manifest.includes(JSON.stringify(name))) deployed.add(document);
  }
  return deployed;
}

/**
 * Rule 1 of {@link findGeneratedCopies}: given each document's body digest, the documents left
 * out. Each body is checked at the first of its documents in path order, preferring a path
 * outside hidden folders.
 */
export function identicalCopies(bodies: ReadonlyMap<string, string>): Set<string> {
  // Each body's first document; a group only for a body met again (most have one document).
  const first = new Map<string, string>();
  const groups = new Map<string, string[]>();
  for (const [document, key] of bodies) {
    const earlier = first.get(key);
    if (earlier === undefined) {
      first.set(key, document);
      continue;
    }
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [earlier, document]);
    else group.push(document);
  }
  const copies = new Set<string>();
  for (const group of groups.values()) {
    const keep = [...group].sort((a, b) => Number(isHidden(a)) - Number(isHidden(b)) || (a < b ? -1 : a > b ? 1 : 0))[0];
    for (const document of group) if (document !== keep) copies.add(document);
  }
  return copies;
}

const DEPLOY_PREFIXES = AGENT_DEPLOY_FOLDERS.map((folder) => `${folder}/`);
/** The first characters of the deploy folders (each is hidden: `.`), which decide most paths at once. */
const DEPLOY_FIRSTS = new Set(DEPLOY_PREFIXES.map((prefix) => prefix.charCodeAt(0)));

function inDeployFolder(path: string): boolean {
  return DEPLOY_FIRSTS.has(path.charCodeAt(0)) && DEPLOY_PREFIXES.some((prefix) => path.startsWith(prefix));
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

/**
 * The SHA-256 of a document's body: its bytes after a leading YAML block; `null` for no file.
 * `whole` hashes a body that is the whole file, so a run whose file stamps hashed those bytes when
 * it read them answers from that digest instead of hashing them again.
 */
export function bodyDigest(bytes: Uint8Array, whole?: (bytes: Uint8Array) => string): string;
export function bodyDigest(bytes: Uint8Array | null, whole?: (bytes: Uint8Array) => string): string | null;
export function bodyDigest(bytes: Uint8Array | null, whole?: (bytes: Uint8Array) => string): string | null {
  if (bytes === null) return null;
  const start = bodyStart(bytes);
  if (start === 0 && whole !== undefined) return whole(bytes);
  return createHash('sha256').update(bytes.subarray(start)).digest('hex');
}

/** A file's bytes, or `null` when it cannot be read. */
export function readOrNull(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

const DASHES = 0x2d;
const LF = 0x0a;
const CR = 0x0d;
const CLOSING = Buffer.from('\n---');

/**
 * Where the body starts: after a leading `---` YAML block (`---` on the first line, then a line
 * that is `---` with only spaces or tabs after it), else at 0. Found in the bytes, so a document
 * is neither decoded nor copied to be compared.
 */
function bodyStart(text: Uint8Array): number {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  if (bytes[0] !== DASHES || bytes[1] !== DASHES || bytes[2] !== DASHES) return 0;
  let from = bytes[3] === LF ? 4 : bytes[3] === CR && bytes[4] === LF ? 5 : -1;
  if (from === -1) return 0;
  for (;;) {
    const close = bytes.indexOf(CLOSING, from);
    if (close === -1) return 0;
    let at = close + 4;
    while (bytes[at] === 0x20 || bytes[at] === 0x09) at += 1;
    if (at === bytes.length) return at;
    if (bytes[at] === LF) return at + 1;
    if (bytes[at] === CR && bytes[at + 1] === LF) return at + 2;
    from = close + 1;
  }
}
