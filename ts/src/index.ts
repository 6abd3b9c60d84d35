/**
 * formwire: multipart/form-data and application/x-www-form-urlencoded, WHATWG-exact, streaming, zero dependencies.
 *
 * - `parseMultipart(body, contentType, options)`: async iterable of parts with backpressured bodies.
 * - `formData(body, contentType, options)`: a standard FormData, like `Response.formData()`, strict and limited.
 * - `encodeFormData(form, options)`: the WHATWG serializer, Content-Length up front, Blob bodies streamed.
 * - `parseUrlencoded(input, options)` / `serializeUrlencoded(pairs)`.
 * - `MultipartParser` / `UrlencodedParser`: the sans-IO cores.
 */
export { FormwireError, httpError, type ErrorCode, type MultipartErrorCode, type UrlencodedErrorCode } from './core/errors.js';
export {
  PartInfo,
  boundaryFromContentType,
  indexOfFallback,
  MULTIPART_DEFAULTS,
  type IndexOf,
  type Search,
  type ScanSearch,
  type MultipartHandler,
  type MultipartOptions,
} from './core/multipart.js';
export { parseMimeType, serializeMimeType, extractMimeType, type MimeType } from './core/mime.js';
export { URLENCODED_DEFAULTS } from './core/urlencoded.js';
export { MultipartParser, parseMultipart, formData, defaultIndexOf, defaultSearch, searchFor, Part, MultipartParts, type ParseMultipartOptions, type FormDataOptions, type SpillOptions } from './multipart.js';
export { encodeFormData, STREAM_CHUNK_BYTES, type EncodeOptions, type EncodedFormData, type FormLike, type FormValue, type BlobLike, type BytesFile } from './encode.js';
export { parseUrlencoded, serializeUrlencoded, urlencodedSearchParams, UrlencodedParser, decodeUrlencodedComponent, type UrlencodedOptions } from './urlencoded.js';
export type { BodySource } from './adapters/web.js';
export { removeSpilledFiles } from './adapters/spill.js';
