import { type ArtifactReader, createConfinedReader } from '@aiwg-cite/core';
import { nodeFileSystem } from './fs.ts';

/** A reader of the working tree under `root`, confined to it. */
export function createNodeReader(root: string): ArtifactReader {
  return createConfinedReader(nodeFileSystem, root);
}
