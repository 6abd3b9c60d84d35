/**
 * Errors of the structured-clone codec (spec/errors.md, `SC_` codes).
 *
 * Decoding errors and encoder errors are `FormwireError`s (the package-wide error type, `code` + `offset`).
 * `clone()` throws what `structuredClone` throws: a `DOMException` named `DataCloneError`.
 */
import { FormwireError, type CloneErrorCode } from '../core/errors.js';

export type { CloneErrorCode } from '../core/errors.js';

/** A `FormwireError` carrying an `SC_` code. */
export function scError(code: CloneErrorCode, offset: number, message?: string): FormwireError {
  return new FormwireError(code, offset, message);
}

type DOMExceptionCtor = new (message?: string, name?: string) => Error;

/** The `DOMException` named `DataCloneError` that `structuredClone` throws (legacy code 25). */
export function dataCloneError(what: string): Error {
  const D = (globalThis as { DOMException?: DOMExceptionCtor }).DOMException;
  const message = `${what} could not be cloned.`;
  let e: Error;
  if (typeof D === 'function') {
    e = new D(message, 'DataCloneError');
  } else {
    e = new Error(message);
    Object.defineProperty(e, 'name', { value: 'DataCloneError', configurable: true, writable: true });
    Object.defineProperty(e, 'code', { value: 25, configurable: true, writable: true });
  }
  // The registry code, for callers that map errors to spec/errors.md.
  Object.defineProperty(e, 'formwireCode', { value: 'SC_DATA_CLONE', configurable: true });
  return e;
}
