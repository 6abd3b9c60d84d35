/**
 * Error codes of spec/errors.md. Codes are the contract; messages are not.
 */
export type MultipartErrorCode =
  | 'MP_CONTENT_TYPE'
  | 'MP_BOUNDARY'
  | 'MP_PREAMBLE'
  | 'MP_DELIMITER'
  | 'MP_HEADER_NAME'
  | 'MP_HEADER_VALUE'
  | 'MP_OBS_FOLD'
  | 'MP_NO_DISPOSITION'
  | 'MP_DISPOSITION'
  | 'MP_TRUNCATED'
  | 'MP_LIMIT_BOUNDARY'
  | 'MP_LIMIT_PARTS'
  | 'MP_LIMIT_HEADERS'
  | 'MP_LIMIT_HEADER_BYTES'
  | 'MP_LIMIT_FIELD_BYTES'
  | 'MP_LIMIT_FILE_BYTES'
  | 'MP_LIMIT_TOTAL_BYTES'
  | 'MP_ENCODE_BOUNDARY'
  | 'MP_ENCODE_HEADER';

export type UrlencodedErrorCode = 'UE_LIMIT_PAIRS' | 'UE_LIMIT_BYTES';

export type ErrorCode = MultipartErrorCode | UrlencodedErrorCode;

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
}
