/** Error codes for failures that stop a run (exit 2). Findings are never errors. */
export type ErrorCode =
  | 'USAGE'
  | 'CONFIG_INVALID'
  | 'INPUT_UNREADABLE'
  | 'INPUT_OUTSIDE_ROOT'
  | 'GIT_UNAVAILABLE'
  | 'GIT_FAILED'
  | 'NOT_A_REPOSITORY'
  | 'UNMERGED_INDEX'
  | 'WRITE_CONFLICT'
  | 'INTERNAL';

/** The one failure class: callers branch on `code`, never on `instanceof`. */
export class AiwgCiteError extends Error {
  readonly code: ErrorCode;
  readonly data: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, options: { data?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AiwgCiteError';
    this.code = code;
    this.data = options.data ?? {};
  }

  toJSON(): { code: ErrorCode; message: string; data: Readonly<Record<string, unknown>> } {
    return { code: this.code, message: this.message, data: this.data };
  }
}

/** True when `error` is an {@link AiwgCiteError}, checked by shape so copies of the class still match. */
export function isAiwgCiteError(error: unknown): error is AiwgCiteError {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AiwgCiteError';
}
