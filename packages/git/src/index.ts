export type { GitObject } from './cat-file.ts';
export { CatFileBatch } from './cat-file.ts';
