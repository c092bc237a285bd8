/** Options of a {@link BatchScheduler}. */
export interface BatchSchedulerOptions<T> {
  /** Handles one batch; the next batch waits until it settles. */
  readonly run: (batch: Map<string, T>) => Promise<void>;
  /** How long a lone event waits for companions (an editor's save is two or three events). @default 15 */
  readonly settleMs?: number;
  /** Once events keep coming (a burst), the quiet time that ends the batch. @default 100 */
  readonly debounceMs?: number;
  /** A burst is cut into a batch after this long at the latest. @default 1000 */
  readonly maxWaitMs?: number;
  /** This many distinct paths within the settle time make it a burst. @default 8 */
  readonly burstSize?: number;
  /** Called when `run` rejects; the scheduler keeps going. */
  readonly onError?: (error: unknown) => void;
}

/**
 * Batches file events. A lone save is handled after a short settle time, so the dashboard
 * answers within a blink; a burst (a `git checkout` touching hundreds of files) switches to a
 * trailing debounce and ends as one batch. Events for the same path merge (last value wins).
 * Uses the global timers, so tests drive it with fake timers.
 */
export class BatchScheduler<T> {
  readonly #run: (batch: Map<string, T>) => Promise<void>;
  readonly #settleMs: number;
  readonly #debounceMs: number;
  readonly #maxWaitMs: number;
  readonly #burstSize: number;
  readonly #onError: (error: unknown) => void;
  #pending = new Map<string, T>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  #firstAt = 0;
  #burst = false;
  #running: Promise<void> | null = null;
  #closed = false;

  constructor(options: BatchSchedulerOptions<T>) {
    this.#run = options.run;
    this.#settleMs = options.settleMs ?? 15;
    this.#debounceMs = options.debounceMs ?? 100;
    this.#maxWaitMs = options.maxWaitMs ?? 1000;
    this.#burstSize = options.burstSize ?? 8;
    this.#onError = options.onError ?? (() => undefined);
  }

  /** Records an event for a path. */
  push(path: string, value: T): void {
    if (this.#closed) return;
    const wasEmpty = this.#pending.size === 0;
    this.#pending.set(path, value);
    if (this.#running !== null) {
      // Events that arrive during a run belong to whatever is still happening: debounce them.
      this.#burst = true;
      if (wasEmpty) this.#firstAt = Date.now();
      return;
    }
    if (wasEmpty && this.#timer === null) {
      this.#firstAt = Date.now();
      this.#burst = false;
      this.#arm(this.#settleMs);
      return;
    }
    if (!this.#burst && this.#pending.size >= this.#burstSize) this.#burst = true;
    if (this.#burst) this.#arm(Math.max(0, Math.min(this.#debounceMs, this.#firstAt + this.#maxWaitMs - Date.now())));
  }

  /** Whether events are waiting or a batch is running. */
  get isBusy(): boolean {
    return this.#pending.size > 0 || this.#running !== null;
  }

  /** Resolves once nothing is pending or running. */
  async idle(): Promise<void> {
    while (this.#running !== null) await this.#running;
  }

  /**
   * Runs what is pending now instead of after its settle or debounce time, and resolves once
   * nothing is pending or running (events that come meanwhile are run too).
   */
  async drain(): Promise<void> {
    for (;;) {
      await this.idle();
      if (this.#closed || this.#pending.size === 0) return;
      if (this.#timer !== null) clearTimeout(this.#timer);
      this.#timer = null;
      this.#flush();
    }
  }

  /** Stops: drops pending events and waits for a running batch to finish. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#pending.clear();
    await this.idle();
  }

  #arm(delay: number): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#flush();
    }, delay);
  }

  #flush(): void {
    if (this.#closed || this.#pending.size === 0 || this.#running !== null) return;
    const batch = this.#pending;
    this.#pending = new Map();
    this.#burst = false;
    this.#running = this.#run(batch)
      .catch((error: unknown) => this.#onError(error))
      .finally(() => {
        this.#running = null;
        if (!this.#closed && this.#pending.size > 0)
          this.#arm(Math.max(0, Math.min(this.#debounceMs, this.#firstAt + this.#maxWaitMs - Date.now())));
      });
  }
}
