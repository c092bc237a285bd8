/**
 * Every user-facing sentence of the RLM checks, in one place. The offending value goes in
 * backticks; the fix names the next step. The CLI and the TUI add only colour and layout.
 */
export const rlmMessages = {
  fresh: (artifact: string, routine: 'raw-bytes' | 'utf8-replacement') =>
    routine === 'raw-bytes'
      ? `\`${artifact}\` matches the cited hash`
      : `\`${artifact}\` matches the cited hash of its UTF-8-decoded text (the file is not valid UTF-8)`,
  stale: (artifact: string, cited: string, current: string) =>
    `\`${artifact}\` changed since it was cited: hash \`${cited}\` is now \`${current}\``,
  staleFix: (artifact: string) =>
    `re-read \`${artifact}\` and confirm the claim still holds; \`aiwg-cite blame\` names the change and \`aiwg-cite stamp\` re-pins mechanical moves`,
  unversioned: (artifact: string) => `\`${artifact}\` exists but the citation carries no content hash`,
  unversionedFix: () => 'run `aiwg-cite stamp` to add the current hash',
  missing: (artifact: string, reason?: string) =>
    reason === undefined ? `\`${artifact}\` does not exist` : `\`${artifact}\` cannot be read (${reason})`,
  missingFix: (artifact: string, suggestion?: string) =>
    suggestion === undefined
      ? `cite a file that exists, or restore \`${artifact}\` (\`git log --all --follow -- ${artifact}\` shows where it went)`
      : `did you mean \`${suggestion}\`? names match case-exactly`,
  besideDocumentFix: (path: string) =>
    `cite \`${path}\`: this path names it from the document's folder, but citation paths start at the project root`,
  missingUntracked: (artifact: string) => `\`${artifact}\` is not in the commit: it is in the working tree, but git does not track it`,
  missingUntrackedFix: (artifact: string) =>
    `stage it (\`git add ${artifact}\`; \`git add -f\` if .gitignore ignores it), or cite a file the repository tracks`,
  notAFile: (artifact: string) => `\`${artifact}\` is a directory, not a file`,
  notAFileFix: () => 'cite a file inside it',
  outsideRoot: (id: string, why: 'absolute' | 'home' | 'escapes-root' | 'empty' | 'symlink') =>
    ({
      absolute: `\`${id}\` is an absolute path; citations name project-relative paths`,
      home: `\`${id}\` points into a home directory, outside the project`,
      'escapes-root': `\`${id}\` leaves the project root through \`..\``,
      empty: `\`${id}\` names no file`,
      symlink: `\`${id}\` is a symlink that leads outside the project root; it was not read`,
    })[why],
  outsideRootFix: () => 'cite the file by its path inside the project root',
  range: (lines: string, artifact: string, lineCount: number, problem: 'zero' | 'reversed' | 'beyond') =>
    ({
      zero: `line range \`${lines}\` starts at line 0; lines count from 1`,
      reversed: `line range \`${lines}\` ends before it starts`,
      beyond: `line range \`${lines}\` runs past the end of \`${artifact}\` (${lineCount} ${lineCount === 1 ? 'line' : 'lines'})`,
    })[problem],
  rangeFix: (lineCount: number) => `cite lines that exist (1-${Math.max(lineCount, 1)})`,
  malformed: (defects: readonly string[], normalised: string, verdict: string) =>
    `${defects.join('; ')}; read as \`${normalised}\` it would be ${verdict}`,
  malformedFix: (normalised: string) => `write it as \`${normalised}\``,
  unchecked: (artifact: string, reason: string) => `\`${artifact}\` was not checked: ${reason}`,
  uncheckedFix: () => 'check it where its content is available (`git submodule update --init`), or cite it from inside that repository',
  unstaged: (artifact: string, cited: string) =>
    `hash \`${cited}\` is the working-tree version of \`${artifact}\`, which is not staged: the commit would pin content it does not contain`,
  unstagedFix: (artifact: string, staged: string | null) =>
    staged === null
      ? `stage the version the citation pins (\`git add ${artifact}\`)`
      : `stage the version the citation pins (\`git add ${artifact}\`), or cite the staged version (\`@${staged}\`)`,
} as const;

/** Sentences of the staged-change stage of `check --staged` (committed documents a commit breaks). */
export const stagedChangeMessages = {
  note: (stale: number, missing: number) => {
    const count = (n: number) => `${n} ${n === 1 ? 'citation' : 'citations'}`;
    const parts = [...(stale > 0 ? [`${count(stale)} stale`] : []), ...(missing > 0 ? [`${count(missing)} missing`] : [])];
    return `this commit makes ${parts.join(' and ')} in committed documents`;
  },
  deleted: (artifact: string) => `\`${artifact}\` is deleted by this commit`,
  renamed: (artifact: string, to: string) => `\`${artifact}\` is renamed to \`${to}\` by this commit (the same content)`,
  renamedFix: (artifact: string, to: string) =>
    `cite \`${to}\` instead (the content hash stays), or move it back (\`git mv ${to} ${artifact}\`)`,
  staleFix: (artifact: string) =>
    `confirm the citing text still holds for the staged \`${artifact}\` and re-pin it (\`aiwg-cite stamp\`), or unstage the change`,
  missingFix: (artifact: string) => `update the citing document, or keep the file (\`git restore --staged ${artifact}\`)`,
} as const;

/** Sentences about documents as read: decoding notes, why one was skipped or could not be read. */
export const documentMessages = {
  utf16Decoded: (file: string, endian: 'LE' | 'BE') => `${file}: UTF-16${endian} (byte-order mark), decoded`,
  binary: (file: string) => `${file}: binary (NUL bytes), not checked`,
  outsideRoot: () => 'it resolves outside the root (a symlink), so it was not read',
  cannotRead: (reason: string) => `it cannot be read (${reason})`,
  isDirectory: () => 'it is a directory',
  doesNotExist: () => 'it does not exist',
  outsideRootFix: () => 'keep documents inside the repository, or leave the link out of the check',
  skippedDirectory: () => 'a directory, not a file',
  skippedNoFile: () => 'no file to read: a symlink to a missing file, or removed while the check ran',
  skippedUnreadable: (reason: string) => `cannot be read: ${reason}`,
  skippedTooLarge: (size: string, limit: string) => `${size} is larger than the ${limit} limit`,
  skippedBinary: () => 'binary content, not markdown',
} as const;

/** What `--fix` did to a code citation. */
export const fixMessages = {
  repinned: (citation: string, hash: string) => `re-pinned ${citation} to ${hash}, the file's current hash`,
  pinned: (citation: string, hash: string) => `pinned ${citation} to ${hash}, the file's current hash`,
} as const;

/** Usage errors the core raises for a run split into shards (`--shard`, `merge`). */
export const shardMessages = {
  badShard: (text: string) => `--shard takes i/n with 1 ≤ i ≤ n (for example 2/4), not \`${text}\``,
  overlap: (file: string, earlier: string, name: string) =>
    `merge: ${file} has findings in both ${earlier} and ${name}; merge the shards of one \`--shard i/n\` split, each once`,
} as const;

/** The display labels of RLM statuses in the pretty report (SPEC §1.1). */
export const RLM_LABELS: Readonly<Record<string, string>> = {
  fresh: 'FRESH',
  stale: 'STALE',
  unversioned: 'UN-VERSIONED',
  missing: 'MISSING',
  'not-a-file': 'MISSING',
  'outside-root': 'MISSING',
  'invalid-range': 'INVALID-RANGE',
  malformed: 'MALFORMED',
  'unknown-hash': 'UNKNOWN-HASH',
  unstaged: 'UNSTAGED',
  unchecked: 'UNCHECKED',
};
