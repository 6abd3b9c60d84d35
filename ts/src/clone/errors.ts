/**
 * Errors of the structured-clone codec (spec/errors.md, `SC_` codes).
 *
 * Decoding errors and encoder errors are `FormwireError`s (the package-wide error type, `code` + `offset`).
 * `clone()` throws what `structuredClone` throws: a `DOMException` named `DataCloneError`.
 */
import { FormwireError } from '../core/errors.js';

export type CloneErrorCode =
  | 'SC_TRUNCATED'
  | 'SC_VERSION'
  | 'SC_TAG'
  | 'SC_VARINT'
  | 'SC_REF'
  | 'SC_COUNT'
  | 'SC_STRING'
  | 'SC_KEY'
  | 'SC_VALUE'
  | 'SC_VIEW'
  | 'SC_HOST'
  | 'SC_UNSUPPORTED'
  | 'SC_LIMIT_DEPTH'
  | 'SC_LIMIT_BYTES'
  | 'SC_DATA_CLONE';

/** A `FormwireError` carrying an `SC_` code. */
export function scError(code: CloneErrorCode, offset: number, message?: string): FormwireError {
  // core/errors.ts types `code` as the multipart/urlencoded union; the SC_ codes are part of the same registry.
  return new FormwireError(code as unknown as ConstructorParameters<typeof FormwireError>[0], offset, message);
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
