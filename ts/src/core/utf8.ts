/** UTF-8 helpers shared by the cores (TextDecoder/TextEncoder only). */

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

/** UTF-8 decode with U+FFFD for invalid sequences, BOM kept (WHATWG "UTF-8 decode without BOM"). */
export function decodeUtf8(bytes: Uint8Array, start = 0, end = bytes.length): string {
  if (end - start <= 32) {
    // Short ASCII: build the string directly; avoids the per-call cost of TextDecoder.
    let ascii = true;
    for (let i = start; i < end; i++) {
      if (bytes[i]! >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) return String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
  }
  return decoder.decode(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end));
}

/** UTF-8 encode; lone surrogates become U+FFFD (USVString conversion). */
export function encodeUtf8(s: string): Uint8Array {
  return encoder.encode(s);
}

export { encoder as utf8Encoder };
