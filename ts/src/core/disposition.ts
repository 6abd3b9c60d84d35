/**
 * The Content-Disposition reader (MP-H-07..09): parseDisposition finds a part's name, filename, name* and filename*
 * parameters in its Content-Disposition value and, with allow_rfc2231_continuations, the filename*N segments.
 */
import * as part from './part.js';
import { encodeUtf8 } from './utf8.js';

const SP = 0x20;
const HT = 0x09;
const SEMI = 0x3b;
const EQ = 0x3d;
const DQUOTE = 0x22;
const BSLASH = 0x5c;

// core/part.ts's token table and name matcher as constants of this module (see core/multipart.ts).
const TOKEN = part.TOKEN;
const isName = part.isName;

const FORM_DATA = encodeUtf8('form-data');
const P_NAME = encodeUtf8('name');
const P_FILENAME = encodeUtf8('filename');
const P_NAME_STAR = encodeUtf8('name*');
const P_FILENAME_STAR = encodeUtf8('filename*');

/** parseDisposition flags: allow_any_disposition_type, allow_8bit_parameter_names. */
export const D_ANY_TYPE = 1;
export const D_8BIT_NAMES = 2;
/** Numbers per RFC 2231 segment: digitsStart, digitsEnd, extended (1 for `*N*`), valueStart, valueEnd. */
export const SEG = 5;

/**
 * MP-H-07..09: parse a Content-Disposition value in buf[s..e). Returns `out` holding the ranges
 * [nameS, nameE, filenameS, filenameE, nameStarS, nameStarE, filenameStarS, filenameStarE] (-1 when absent),
 * or null when the value does not satisfy the grammar. With `segs` (allow_rfc2231_continuations), the
 * `filename*N` / `filename*N*` parameters are appended to it, SEG numbers each.
 */
export function parseDisposition(buf: Uint8Array, s: number, e: number, qp: boolean, flags: number, out: Int32Array, segs: number[] | null): Int32Array | null {
  let i = s;
  while (i < e && TOKEN[buf[i]!] !== 0) i++;
  // MP-H-07: `form-data`, or with allowAnyDispositionType any token (not an empty one)
  if ((flags & D_ANY_TYPE) !== 0 ? i === s : !isName(buf, s, i, FORM_DATA)) return null;
  out[0] = out[1] = out[2] = out[3] = out[4] = out[5] = out[6] = out[7] = -1;
  if (segs !== null) segs.length = 0;
  for (;;) {
    while (i < e && (buf[i] === SP || buf[i] === HT)) i++;
    if (i === e) break;
    if (buf[i] !== SEMI) return null;
    i++;
    while (i < e && (buf[i] === SP || buf[i] === HT)) i++;
    if (i === e) break;
    if (buf[i] === SEMI) continue;
    const ps = i;
    while (i < e && TOKEN[buf[i]!] !== 0) i++;
    // MP-H-07 with allow_8bit_parameter_names: bytes 80-FF in the name too, and such a parameter is ignored
    let eight = false;
    if ((flags & D_8BIT_NAMES) !== 0 && i < e && buf[i]! >= 0x80) {
      eight = true;
      while (i < e && (TOKEN[buf[i]!] !== 0 || buf[i]! >= 0x80)) i++;
    }
    if (i === ps) return null;
    const pe = i;
    while (i < e && (buf[i] === SP || buf[i] === HT)) i++;
    if (i === e || buf[i] !== EQ) return null;
    i++;
    while (i < e && (buf[i] === SP || buf[i] === HT)) i++;
    if (i === e) return null;
    let vs: number;
    let ve: number;
    if (buf[i] === DQUOTE) {
      vs = i + 1;
      let q = vs;
      // MP-H-07: literally a backslash is a byte; in the quoted-pair reading it takes the next byte
      if (qp) while (q < e && buf[q] !== DQUOTE) q += buf[q] === BSLASH ? 2 : 1;
      else while (q < e && buf[q] !== DQUOTE) q++;
      if (q >= e) return null; // unterminated
      ve = q;
      i = q + 1;
    } else {
      vs = i;
      while (i < e && TOKEN[buf[i]!] !== 0) i++;
      if (i === vs) return null;
      ve = i;
    }
    if (eight) continue;
    let slot = -1;
    if (isName(buf, ps, pe, P_NAME)) slot = 0;
    else if (isName(buf, ps, pe, P_FILENAME)) slot = 2;
    else if (isName(buf, ps, pe, P_NAME_STAR)) slot = 4;
    else if (isName(buf, ps, pe, P_FILENAME_STAR)) slot = 6;
    if (slot >= 0) {
      if (out[slot]! >= 0) return null; // MP-H-08, MP-H-09: a second one fails
      out[slot] = vs;
      out[slot + 1] = ve;
    } else if (segs !== null) {
      // MP-H-09: `filename*N` or `filename*N*`, N decimal without leading zeros
      const ds = ps + P_FILENAME_STAR.length;
      const de = pe - 1 > ds && buf[pe - 1] === 0x2a ? pe - 1 : pe;
      if (de > ds && isName(buf, ps, ds, P_FILENAME_STAR) && isDigits(buf, ds, de) && (buf[ds] !== 0x30 || de === ds + 1)) {
        segs.push(ds, de, de < pe ? 1 : 0, vs, ve);
      }
    }
  }
  if (out[0]! < 0) return null; // MP-H-08: name is required
  // MP-H-09: two continuations with the same N (either form) fail
  if (segs !== null && segs.length > SEG) {
    const seen = new Set<string>();
    for (let k = 0; k < segs.length; k += SEG) {
      let key = '';
      for (let d = segs[k]!; d < segs[k + 1]!; d++) key += String.fromCharCode(buf[d]!);
      if (seen.has(key)) return null;
      seen.add(key);
    }
  }
  return out;
}

/** Whether buf[s..e) is all ASCII digits. */
function isDigits(buf: Uint8Array, s: number, e: number): boolean {
  for (let k = s; k < e; k++) if (buf[k]! < 0x30 || buf[k]! > 0x39) return false;
  return true;
}
