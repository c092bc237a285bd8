/**
 * The sentences of the staged check and the commit hook, in one place (STYLE §3, "Messages live
 * in one place"). The CLI adds only colour and layout.
 */
export const stagedMessages = {
  unmerged: (paths: readonly string[]) =>
    `${paths[0]}${paths.length > 1 ? ` (and ${paths.length - 1} more)` : ''}: unmerged entries in the index; resolve the conflict and \`git add\` the result before committing`,
  notInIndex: (path: string) => `${path}: not in the git index; \`git add\` it, or check it without --staged`,
  outsideRoot: (path: string, root: string) => `${path}: outside the repository ${root}`,
  notARepository: (cwd: string) => `${cwd}: --staged needs a git repository (not inside a git work tree)`,
  bypass: (isHusky: boolean) =>
    `Commit blocked by aiwg-cite. To commit anyway: git commit --no-verify${isHusky ? ' (or HUSKY=0 git commit)' : ''}`,
} as const;
