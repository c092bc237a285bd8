import { Writable } from 'node:stream';
import { describeProgress } from '@aiwg-cite/online';
import { describe, expect, it } from 'vitest';
import { createTtyProgress } from '../src/progress-tty.ts';

describe('the terminal progress of the online lookups (listr2, CLI only)', () => {
  it('renders per-resolver titles to the given stream', async () => {
    let output = '';
    const stream = Object.assign(
      new Writable({
        write(chunk, _encoding, done) {
          output += String(chunk);
          done();
        },
      }),
      { isTTY: true, columns: 100 },
    );
    const progress = await createTtyProgress(stream as unknown as NodeJS.WriteStream, describeProgress);
    progress.listener('doi', 'start', { cached: false });
    progress.listener('doi', 'done', { cached: true, outcome: 'found' });
    await progress.stop();
    expect(output).toContain('doi: 1 resolved (1 from cache), 0 remaining');
    expect(output).toContain('url: nothing to resolve');
  });
});
