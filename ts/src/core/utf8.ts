/** UTF-8 helpers shared by the cores (TextDecoder/TextEncoder only). */

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

/** A UTF-8 decoder of bytes[start..end) with WHATWG semantics (U+FFFD per maximal subpart, BOM kept). */
export type Utf8Decode = (bytes: Uint8Array, start: number, end: number) => string;

/** Whether b[s..e) is ASCII (one pass; for the short runs the decoders look at before choosing a path). */
function isAscii(b: Uint8Array, s: number, e: number): boolean {
  let or = 0;
  for (let i = s; i < e; i++) or |= b[i]!;
  return or < 0x80;
}

/** Short ASCII (names, small values) as one flat string without a call into the runtime; null if not ASCII. */
function shortAscii(b: Uint8Array, s: number, e: number): string | null {
  return isAscii(b, s, e) ? fromAscii(b, s, e) : null;
}

/** b[s..e), known to be ASCII (so its UTF-8 decoding is its Latin-1 reading), as a string (TextDecoder only). */
export function asciiString(b: Uint8Array, s: number, e: number): string {
  if (e - s <= 32) return fromAscii(b, s, e)!;
  return decoder.decode(b.subarray(s, e));
}

/** b[s..e) (ASCII, at most 32 bytes) as one flat string; null when longer. */
function fromAscii(b: Uint8Array, s: number, e: number): string | null {
  const f = String.fromCharCode;
  // One call with exactly n arguments gives a flat string (a += loop gives a rope that is flattened later).
  switch (e - s) {
    case 0: return '';
    case 1: return f(b[s]!);
    case 2: return f(b[s]!, b[s + 1]!);
    case 3: return f(b[s]!, b[s + 1]!, b[s + 2]!);
    case 4: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!);
    case 5: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!);
    case 6: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!);
    case 7: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!);
    case 8: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!);
    case 9: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!);
    case 10: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!);
    case 11: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!, b[s + 10]!);
    case 12: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!, b[s + 10]!, b[s + 11]!);
    case 13: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!, b[s + 10]!, b[s + 11]!, b[s + 12]!);
    case 14: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!, b[s + 10]!, b[s + 11]!, b[s + 12]!, b[s + 13]!);
    case 15: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!, b[s + 10]!, b[s + 11]!, b[s + 12]!, b[s + 13]!, b[s + 14]!);
    case 16: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!, b[s + 10]!, b[s + 11]!, b[s + 12]!, b[s + 13]!, b[s + 14]!, b[s + 15]!);
    case 17: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!, b[s + 10]!, b[s + 11]!, b[s + 12]!, b[s + 13]!, b[s + 14]!, b[s + 15]!, b[s + 16]!);
    case 18: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!, b[s + 10]!, b[s + 11]!, b[s + 12]!, b[s + 13]!, b[s + 14]!, b[s + 15]!, b[s + 16]!, b[s + 17]!);
    case 19: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!, b[s + 10]!, b[s + 11]!, b[s + 12]!, b[s + 13]!, b[s + 14]!, b[s + 15]!, b[s + 16]!, b[s + 17]!, b[s + 18]!);
    case 20: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!, b[s + 10]!, b[s + 11]!, b[s + 12]!, b[s + 13]!, b[s + 14]!, b[s + 15]!, b[s + 16]!, b[s + 17]!, b[s + 18]!, b[s + 19]!);
    case 21: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!, b[s + 10]!, b[s + 11]!, b[s + 12]!, b[s + 13]!, b[s + 14]!, b[s + 15]!, b[s + 16]!, b[s + 17]!, b[s + 18]!, b[s + 19]!, b[s + 20]!);
    case 22: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!, b[s + 10]!, b[s + 11]!, b[s + 12]!, b[s + 13]!, b[s + 14]!, b[s + 15]!, b[s + 16]!, b[s + 17]!, b[s + 18]!, b[s + 19]!, b[s + 20]!, b[s + 21]!);
    case 23: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!, b[s + 10]!, b[s + 11]!, b[s + 12]!, b[s + 13]!, b[s + 14]!, b[s + 15]!, b[s + 16]!, b[s + 17]!, b[s + 18]!, b[s + 19]!, b[s + 20]!, b[s + 21]!, b[s + 22]!);
    case 24: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!, b[s + 10]!, b[s + 11]!, b[s + 12]!, b[s + 13]!, b[s + 14]!, b[s + 15]!, b[s + 16]!, b[s + 17]!, b[s + 18]!, b[s + 19]!, b[s + 20]!, b[s + 21]!, b[s + 22]!, b[s + 23]!);
    case 25: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!, b[s + 10]!, b[s + 11]!, b[s + 12]!, b[s + 13]!, b[s + 14]!, b[s + 15]!, b[s + 16]!, b[s + 17]!, b[s + 18]!, b[s + 19]!, b[s + 20]!, b[s + 21]!, b[s + 22]!, b[s + 23]!, b[s + 24]!);
    case 26: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!, b[s + 10]!, b[s + 11]!, b[s + 12]!, b[s + 13]!, b[s + 14]!, b[s + 15]!, b[s + 16]!, b[s + 17]!, b[s + 18]!, b[s + 19]!, b[s + 20]!, b[s + 21]!, b[s + 22]!, b[s + 23]!, b[s + 24]!, b[s + 25]!);
    case 27: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!, b[s + 10]!, b[s + 11]!, b[s + 12]!, b[s + 13]!, b[s + 14]!, b[s + 15]!, b[s + 16]!, b[s + 17]!, b[s + 18]!, b[s + 19]!, b[s + 20]!, b[s + 21]!, b[s + 22]!, b[s + 23]!, b[s + 24]!, b[s + 25]!, b[s + 26]!);
    case 28: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!, b[s + 10]!, b[s + 11]!, b[s + 12]!, b[s + 13]!, b[s + 14]!, b[s + 15]!, b[s + 16]!, b[s + 17]!, b[s + 18]!, b[s + 19]!, b[s + 20]!, b[s + 21]!, b[s + 22]!, b[s + 23]!, b[s + 24]!, b[s + 25]!, b[s + 26]!, b[s + 27]!);
    case 29: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!, b[s + 10]!, b[s + 11]!, b[s + 12]!, b[s + 13]!, b[s + 14]!, b[s + 15]!, b[s + 16]!, b[s + 17]!, b[s + 18]!, b[s + 19]!, b[s + 20]!, b[s + 21]!, b[s + 22]!, b[s + 23]!, b[s + 24]!, b[s + 25]!, b[s + 26]!, b[s + 27]!, b[s + 28]!);
    case 30: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!, b[s + 10]!, b[s + 11]!, b[s + 12]!, b[s + 13]!, b[s + 14]!, b[s + 15]!, b[s + 16]!, b[s + 17]!, b[s + 18]!, b[s + 19]!, b[s + 20]!, b[s + 21]!, b[s + 22]!, b[s + 23]!, b[s + 24]!, b[s + 25]!, b[s + 26]!, b[s + 27]!, b[s + 28]!, b[s + 29]!);
    case 31: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!, b[s + 10]!, b[s + 11]!, b[s + 12]!, b[s + 13]!, b[s + 14]!, b[s + 15]!, b[s + 16]!, b[s + 17]!, b[s + 18]!, b[s + 19]!, b[s + 20]!, b[s + 21]!, b[s + 22]!, b[s + 23]!, b[s + 24]!, b[s + 25]!, b[s + 26]!, b[s + 27]!, b[s + 28]!, b[s + 29]!, b[s + 30]!);
    case 32: return f(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!, b[s + 10]!, b[s + 11]!, b[s + 12]!, b[s + 13]!, b[s + 14]!, b[s + 15]!, b[s + 16]!, b[s + 17]!, b[s + 18]!, b[s + 19]!, b[s + 20]!, b[s + 21]!, b[s + 22]!, b[s + 23]!, b[s + 24]!, b[s + 25]!, b[s + 26]!, b[s + 27]!, b[s + 28]!, b[s + 29]!, b[s + 30]!, b[s + 31]!);
    default: return null;
  }
}

/** UTF-8 decode with U+FFFD for invalid sequences, BOM kept (WHATWG "UTF-8 decode without BOM"), TextDecoder only. */
export function decodeUtf8(bytes: Uint8Array, start = 0, end = bytes.length): string {
  if (end - start <= 32) {
    const s = shortAscii(bytes, start, end);
    if (s !== null) return s;
  }
  if (start === end) return '';
  return decoder.decode(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end));
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A UTF-16LE TextDecoder where a Uint16Array's bytes are UTF-16LE (little-endian platforms) and the runtime has one. */
function utf16Decoder(): TextDecoder | null {
  if (!LITTLE_ENDIAN) return null;
  try {
    return new TextDecoder('utf-16le', { ignoreBOM: true }); // a leading U+FEFF is data
  } catch {
    return null;
  }
}

/** What a runtime may provide to the cores' text decoding (all optional; results must equal TextDecoder's). */
export interface TextDecoders {
  /** A faster UTF-8 decoder (Node and Bun: Buffer's native `utf8Slice`, which returns flat strings). */
  utf8?: Utf8Decode | null;
  /**
   * A Latin-1 decoder (Node and Bun: `Buffer.prototype.latin1Slice`, a plain copy without validation), used on
   * bytes known to be ASCII only, where Latin-1 and UTF-8 decoding give the same string.
   */
  latin1?: Utf8Decode | null;
  /** Whether UTF-16 code units may be decoded with a UTF-16LE TextDecoder (default: where there is one). */
  utf16?: boolean;
  /**
   * The longest ASCII run made into a string in JavaScript, by one String.fromCharCode call (default and at most
   * 32). Below it no runtime call is made; a runtime whose native slice beats a many-argument fromCharCode
   * (JavaScriptCore, from 3 bytes on) sets it lower, and longer runs go to `latin1` / `utf8`.
   */
  shortMax?: number;
}

/**
 * The text decoding of one parser, built from what the runtime provides (TextDecoders) and passed to the cores by
 * the entry points; immutable, so one instance serves any number of parsers and nothing is installed globally
 * (importing a module never changes how another decodes). Every decoder gives TextDecoder's results.
 */
export class TextCodec {
  private readonly utf8: Utf8Decode | null;
  private readonly latin1: Utf8Decode | null;
  private readonly utf16: TextDecoder | null;
  private readonly shortMax: number;

  constructor(d: TextDecoders = {}) {
    this.utf8 = d.utf8 ?? null;
    this.latin1 = d.latin1 ?? null;
    this.utf16 = d.utf16 === false ? null : utf16Decoder();
    // fromAscii covers 32 bytes; with no native slice every shorter run stays in JavaScript (TextDecoder costs more)
    this.shortMax = this.utf8 === null && this.latin1 === null ? 32 : Math.max(0, Math.min(32, d.shortMax ?? 32));
  }

  /** bytes[start..end) UTF-8 decoded with U+FFFD, BOM kept (as decodeUtf8). */
  decode(bytes: Uint8Array, start = 0, end = bytes.length): string {
    // a short ASCII run is its own Latin-1 reading: ascii() makes it without a UTF-8 decoder
    if (end - start <= 32 && isAscii(bytes, start, end)) return this.ascii(bytes, start, end);
    const f = this.utf8;
    if (f !== null) return f(bytes, start, end);
    if (start === end) return '';
    return decoder.decode(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end));
  }

  /** b[s..e), known to be ASCII (so its UTF-8 decoding is its Latin-1 reading), as a string. */
  ascii(b: Uint8Array, s: number, e: number): string {
    if (e - s <= this.shortMax) return fromAscii(b, s, e)!;
    const l = this.latin1;
    if (l !== null) return l(b, s, e);
    const f = this.utf8;
    if (f !== null) return f(b, s, e);
    return decoder.decode(b.subarray(s, e));
  }

  /**
   * UTF-16 code units u[0..n) (well-formed: no lone surrogate) as one flat string: one TextDecoder call, or
   * String.fromCharCode over slices of the array where there is no UTF-16LE decoder.
   */
  units(u: Uint16Array, n: number): string {
    const d = this.utf16;
    if (d !== null) return d.decode(u.subarray(0, n));
    let r = '';
    for (let i = 0; i < n; i += 4096) {
      r += String.fromCharCode.apply(null, u.subarray(i, Math.min(n, i + 4096)) as unknown as number[]);
    }
    return r;
  }
}

/** The runtime-free text decoding (TextDecoder only): the cores' default. */
export const PORTABLE_TEXT = new TextCodec();

/** UTF-8 encode; lone surrogates become U+FFFD (USVString conversion). */
export function encodeUtf8(s: string): Uint8Array {
  return encoder.encode(s);
}

export { encoder as utf8Encoder };
