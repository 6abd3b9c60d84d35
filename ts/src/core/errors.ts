/**
 * Error codes of spec/errors.md, from the generated registry (spec/registry.json). Codes are the contract; messages
 * are not.
 */
import { ERROR_CODES, type ErrorCode, type ErrorKind } from './registry.js';

export type { CloneErrorCode, ErrorCode, ErrorKind, MultipartErrorCode, UrlencodedErrorCode } from './registry.js';

/**
 * The one error type formwire throws for bad input. `code` is a stable string from spec/errors.md, `offset` the byte
 * offset (counted from the first byte ever fed) that the code's row in spec/errors.md defines.
 */
export class FormwireError extends TypeError {
  readonly code: ErrorCode;
  readonly offset: number;
  constructor(code: ErrorCode, offset: number, message?: string) {
    super(`${code} at byte ${offset}${message ? `: ${message}` : ''}`);
    this.code = code;
    this.offset = offset;
  }
  override get name(): string {
    return 'FormwireError';
  }
  /** The code's kind: `malformed`, `unsupported`, `limit` or `encode` (spec/registry.json). */
  get kind(): ErrorKind {
    return ERROR_CODES[this.code].kind;
  }
  /** The HTTP status a server answers with: 400 for malformed input, 413 for a limit; `null` for encoder errors. */
  get httpStatus(): number | null {
    return ERROR_CODES[this.code].httpStatus;
  }
  /**
   * `httpStatus` under the names Node frameworks read from a thrown error (Express/finalhandler, Koa, Fastify,
   * http-errors): 413 or 400, so `next(err)` answers with the right status; 500 for encoder errors.
   */
  get status(): number {
    return this.httpStatus ?? 500;
  }
  get statusCode(): number {
    return this.status;
  }
  /** Whether the message may be shown to the client (http-errors' `expose`): true for bad input (4xx). */
  get expose(): boolean {
    return this.httpStatus !== null;
  }
  /** `{ code, offset, message, status }`: what `JSON.stringify(err)` and {@link httpError}'s body carry. */
  toJSON(): { code: ErrorCode; offset: number; message: string; status: number } {
    return { code: this.code, offset: this.offset, message: this.message, status: this.status };
  }
}

/**
 * The HTTP answer to an error thrown while reading a request body: a {@link FormwireError} is its status (413 for a
 * limit, 400 for a malformed body, spec/registry.json) and a JSON body `{"error":{"code","offset","message",
 * "status"}}`; any other error is `null` (not the client's fault, or not formwire's to judge).
 */
export function httpError(err: unknown): { status: number; headers: Record<string, string>; body: string } | null {
  if (!(err instanceof FormwireError) || err.httpStatus === null) return null;
  return {
    status: err.httpStatus,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ error: err }),
  };
}
