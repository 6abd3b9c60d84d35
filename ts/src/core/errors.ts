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
}
