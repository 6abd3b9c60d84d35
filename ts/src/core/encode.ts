/**
 * Pieces of the WHATWG multipart/form-data serializer (spec/multipart.md §7) that need no runtime APIs.
 */
import { FormwireError } from './errors.js';

const NEWLINES = /\r\n|\r|\n/g;

/** MP-S-02: names: newlines normalized to CRLF, then LF → %0A, CR → %0D, `"` → %22. */
export function escapeName(name: string): string {
  if (!/[\r\n"]/.test(name)) return name;
  return name.replace(NEWLINES, '%0D%0A').replace(/"/g, '%22');
}

/** MP-S-03: filenames: the same three escapes, without newline normalization. */
export function escapeFilename(name: string): string {
  if (!/[\r\n"]/.test(name)) return name;
  return name.replace(/[\r\n"]/g, (c) => (c === '\r' ? '%0D' : c === '\n' ? '%0A' : '%22'));
}

/** MP-S-04: string values: every lone CR, lone LF and CRLF becomes CRLF. */
export function normalizeNewlines(value: string): string {
  if (!/[\r\n]/.test(value)) return value;
  return value.replace(NEWLINES, '\r\n');
}

const BCHARS = /^[0-9A-Za-z'()+_,\-./:=? ]{1,70}$/;

/** MP-S-09: a caller-given boundary must be 1-70 bchars, not ending in space. */
export function checkBoundary(boundary: string): void {
  if (!BCHARS.test(boundary) || boundary.endsWith(' ')) {
    throw new FormwireError('MP_ENCODE_BOUNDARY', 0, 'boundary must be 1-70 characters of [0-9A-Za-z\'()+_,-./:=? ], not ending in space');
  }
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const PREFIX = '----formwire-';

/**
 * MP-S-09: `----formwire-` + 32 base-62 alphanumerics drawn from a CSPRNG by rejection sampling (about 190 bits;
 * 45 characters of [0-9A-Za-z-], a token). Made by one String.fromCharCode call, a flat string: built by `+=` it
 * would be a rope of 33 pieces, walked again for each of the body's delimiters when its text is encoded.
 */
export function generateBoundary(random: (bytes: Uint8Array) => void): string {
  const codes: number[] = new Array(PREFIX.length + 32);
  for (let i = 0; i < PREFIX.length; i++) codes[i] = PREFIX.charCodeAt(i);
  const r = new Uint8Array(48);
  let n = 0;
  while (n < 32) {
    random(r);
    for (let i = 0; i < r.length && n < 32; i++) {
      const b = r[i]!;
      if (b < 248) {
        codes[PREFIX.length + n] = ALPHABET.charCodeAt(b % 62);
        n++;
      }
    }
  }
  return String.fromCharCode(...codes);
}

/** MP-S-06: a part Content-Type must not hold CR, LF or NUL. */
export function checkPartType(type: string, index: number): void {
  if (/[\r\n\0]/.test(type)) throw new FormwireError('MP_ENCODE_HEADER', index, 'content type contains CR, LF or NUL');
}
