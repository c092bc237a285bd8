import { type ArtifactReader, createConfinedReader } from '@aiwg-cite/core';
import { createRunFileSystem, nodeFileSystem } from './fs.ts';

/** Options of {@link createNodeReader}. */
export interface NodeReaderOptions {
  /**
   * Remember directories' canonical paths for the life of the reader: faster for one run over
   * thousands of files, wrong for a long-running process where directories may be renamed.
   * @default false
   */
  readonly cacheDirectories?: boolean;
}

/** A reader of the working tree under `root`, confined to it. */
export function createNodeReader(root: string, options: NodeReaderOptions = {}): ArtifactReader {
  return createConfinedReader(options.cacheDirectories === true ? createRunFileSystem() : nodeFileSystem, root);
}
