import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { AiwgCiteError } from '@aiwg-cite/core';
import { gitProcess } from '@aiwg-cite/node';
import { gitMessages } from './messages.ts';

/** An object read through `git cat-file --batch`. */
export interface GitObject {
  readonly oid: string;
  readonly type: 'blob' | 'tree' | 'commit' | 'tag';
  readonly bytes: Uint8Array;
}

interface Pending {
  readonly request: string;
  readonly resolve: (object: GitObject | null) => void;
  readonly reject: (error: Error) => void;
}

/**
 * One long-lived `git cat-file --batch` process (git-cat-file(1), "BATCH OUTPUT"): requests are
 * written as `<object>\n` and answered in order, so reading a thousand blobs costs one process,
 * not a thousand. Objects are named as git does: `<oid>`, `HEAD:<path>`, `:<path>` (the index).
 * Inherits the environment, so `GIT_INDEX_FILE` set by `git commit -a` is honoured.
 */
export class CatFileBatch {
  readonly #cwd: string;
  readonly #env: NodeJS.ProcessEnv;
  #process: ChildProcessByStdio<Writable, Readable, Readable> | null = null;
  readonly #queue: Pending[] = [];
  #buffer: Buffer = Buffer.alloc(0);
  #failure: Error | null = null;
  #closed = false;

  /** The process starts with the first read: a commit that stages nothing to check never starts it. */
  constructor(cwd: string, env: NodeJS.ProcessEnv = process.env) {
    this.#cwd = cwd;
    this.#env = env;
  }

  #start(): ChildProcessByStdio<Writable, Readable, Readable> {
    if (this.#process !== null) return this.#process;
    const child = gitProcess(this.#cwd, ['cat-file', '--batch'], this.#env);
    this.#process = child;
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.stdout.on('data', (chunk: Buffer) => this.#receive(chunk));
    child.on('error', (error) =>
      this.#fail(new AiwgCiteError('GIT_UNAVAILABLE', gitMessages.catFileUnavailable(error.message), { cause: error })),
    );
    child.on('close', (code) => {
      if (!this.#closed || this.#queue.length > 0) {
        this.#fail(new AiwgCiteError('GIT_FAILED', gitMessages.catFileExited(code, stderr.trim())));
      }
    });
    child.stdin.on('error', () => {});
    return child;
  }

  /** Reads an object, or `null` when it does not exist. */
  read(object: string): Promise<GitObject | null> {
    if (object.includes('\n')) return Promise.reject(new AiwgCiteError('GIT_FAILED', gitMessages.objectNameNewline()));
    if (this.#failure !== null) return Promise.reject(this.#failure);
    if (this.#closed) return Promise.reject(new AiwgCiteError('GIT_FAILED', gitMessages.catFileClosed()));
    const child = this.#start();
    return new Promise((resolve, reject) => {
      this.#queue.push({ request: object, resolve, reject });
      child.stdin.write(`${object}\n`);
    });
  }

  /** Ends the process; pending reads still complete. */
  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    const child = this.#process;
    return new Promise((resolve) => {
      if (child === null || child.exitCode !== null) {
        resolve();
        return;
      }
      child.once('close', () => resolve());
      child.stdin.end();
    });
  }

  #receive(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    while (this.#queue.length > 0) {
      const newline = this.#buffer.indexOf(10);
      if (newline === -1) return;
      const header = this.#buffer.subarray(0, newline).toString('utf8');
      const pending = this.#queue[0] as Pending;
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        this.#buffer = this.#buffer.subarray(newline + 1);
        this.#queue.shift();
        pending.resolve(null);
        continue;
      }
      const [oid, type, sizeText] = header.split(' ');
      const size = Number.parseInt(sizeText ?? '', 10);
      if (oid === undefined || type === undefined || Number.isNaN(size)) {
        this.#fail(new AiwgCiteError('GIT_FAILED', gitMessages.catFileHeader(header)));
        return;
      }
      if (this.#buffer.length < newline + 1 + size + 1) return;
      const bytes = new Uint8Array(this.#buffer.subarray(newline + 1, newline + 1 + size));
      this.#buffer = this.#buffer.subarray(newline + 1 + size + 1);
      this.#queue.shift();
      pending.resolve({ oid, type: type as GitObject['type'], bytes });
    }
  }

  #fail(error: Error): void {
    this.#failure = error;
    for (const pending of this.#queue.splice(0)) pending.reject(error);
  }
}
