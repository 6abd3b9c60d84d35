/** UTF-8 helpers shared by the cores (TextDecoder/TextEncoder only). */

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

/** A UTF-8 decoder of bytes[start..end) with WHATWG semantics (U+FFFD per maximal subpart, BOM kept). */
export type Utf8Decode = (bytes: Uint8Array, start: number, end: number) => string;

let native: Utf8Decode | null = null;

/**
 * Install a faster decoder with identical results (the Node adapter installs Buffer's native `utf8Slice`, which
 * returns flat strings without a per-call TextDecoder round trip).
 */
export function setUtf8Decoder(f: Utf8Decode | null): void {
  native = f;
}

/** UTF-8 decode with U+FFFD for invalid sequences, BOM kept (WHATWG "UTF-8 decode without BOM"). */
export function decodeUtf8(bytes: Uint8Array, start = 0, end = bytes.length): string {
  if (native !== null) return native(bytes, start, end);
  if (start === end) return '';
  return decoder.decode(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end));
}

/** UTF-8 encode; lone surrogates become U+FFFD (USVString conversion). */
export function encodeUtf8(s: string): Uint8Array {
  return encoder.encode(s);
}

export { encoder as utf8Encoder };
