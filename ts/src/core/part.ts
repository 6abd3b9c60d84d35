/**
 * A part's header view: PartInfo, what `onPartStart` receives (MP-H-06..11), and PartContext, what the PartInfos of
 * one parser share; with the byte classes and matchers the header readers (core/multipart.ts, core/disposition.ts)
 * share with them.
 */
import { partFileType } from './mime.js';
import { encodeUtf8, type TextCodec } from './utf8.js';

const TEXT_PLAIN_DEFAULT = 'text/plain';

/**
 * @internal What the PartInfos of one parser share: its text decoding and a one-entry cache of MP-F-03 types for
 * fast-path Content-Type values (the parts of one form mostly share one).
 */
export class PartContext {
  readonly text: TextCodec;
  private lastCt: string | null = null;
  private lastType = '';

  constructor(text: TextCodec) {
    this.text = text;
  }

  /** MP-F-03 for one ASCII Content-Type value. */
  fileType(ct: string): string {
    if (ct !== this.lastCt) {
      this.lastType = partFileType([encodeUtf8(ct)]);
      this.lastCt = ct;
    }
    return this.lastType;
  }
}

/**
 * @internal A header block read by the general path: stored as `name ":" value LF` per header (values OWS-trimmed,
 * obs-folds joined) in a slab shared with other parts, slab[start..end), with the `name` and `filename` value ranges
 * there (-1 when absent). Its own object, so that a fast-path PartInfo (most parts of a browser's form) holds one
 * null for all of it: a PartInfo of fewer fields is made faster, most on JavaScriptCore (figures in CHANGELOG.md).
 */
export class RawBlock {
  constructor(
    readonly slab: Uint8Array,
    readonly start: number,
    readonly end: number,
    readonly nameS: number,
    readonly nameE: number,
    readonly fnS: number,
    readonly fnE: number,
  ) {}
}

/** One part's header information (MP-H-06..11). Header strings are decoded lazily. */
export class PartInfo {
  /** 0-based index of the part in the body. */
  readonly index: number;
  /**
   * `name` parameter, UTF-8 decoded with U+FFFD, never percent-decoded (MP-H-10); null for a nameless part
   * (`allowMissingDisposition`: no Content-Disposition, or an empty one, MP-H-06), which form layers skip (MP-F-05).
   */
  readonly name: string | null;
  /** `filename` parameter, or null when absent (MP-H-08). */
  readonly filename: string | null;
  /** Raw `name*` parameter value (RFC 8187), never decoded, never overriding `name` (MP-H-09). */
  readonly nameStar: string | null;
  /** Raw `filename*` parameter value, never decoded, never overriding `filename` (MP-H-09). */
  readonly filenameStar: string | null;
  /** Byte offset of the first header line. */
  readonly offset: number;
  /** Byte offset of the first body byte (set when the header block ends, before onPartStart). */
  bodyOffset = 0;
  /** @internal The stored header block, or null for a block read by the fast path (see `ct`). */
  private readonly raw: RawBlock | null;
  /**
   * @internal Fast-path block (raw null): exactly `Content-Disposition: form-data; name="…"[; filename="…"]` and an
   * optional `Content-Type: …` line, all ASCII, so the headers are rebuilt from name, filename and this value.
   */
  private readonly ct: string | null;
  private readonly ctx: PartContext;
  private _headers: [string, string][] | null = null;
  private _type: string | null | undefined = undefined;

  /** @internal */
  constructor(
    index: number,
    offset: number,
    raw: RawBlock | null,
    name: string | null,
    filename: string | null,
    nameStar: string | null,
    filenameStar: string | null,
    ct: string | null,
    ctx: PartContext,
  ) {
    this.index = index;
    this.offset = offset;
    this.raw = raw;
    this.name = name;
    this.filename = filename;
    this.nameStar = nameStar;
    this.filenameStar = filenameStar;
    this.ct = ct;
    this.ctx = ctx;
  }

  /** The raw bytes of the `name` parameter (MP-H-10), or null for a nameless part (MP-H-06). */
  get nameBytes(): Uint8Array | null {
    if (this.name === null) return null;
    // fast-path names are ASCII: their UTF-8 encoding is their bytes
    const r = this.raw;
    return r === null ? encodeUtf8(this.name) : r.slab.slice(r.nameS, r.nameE);
  }

  /** The raw bytes of the `filename` parameter, or null. */
  get filenameBytes(): Uint8Array | null {
    if (this.filename === null) return null;
    const r = this.raw;
    return r === null ? encodeUtf8(this.filename) : r.slab.slice(r.fnS, r.fnE);
  }

  /** Calls f(nameStart, nameEnd, valueStart, valueEnd) for each stored header, in order. */
  private each(f: (ns: number, ne: number, vs: number, ve: number) => void): void {
    const r = this.raw!;
    const h = r.slab;
    let i = r.start;
    while (i < r.end) {
      let c = i;
      while (h[c] !== COLON) c++;
      let e = c + 1;
      while (h[e] !== LF) e++;
      f(i, c, c + 1, e);
      i = e + 1;
    }
  }

  /** Every header in order as `[lowercased name, value]`, values UTF-8 decoded with U+FFFD (MP-H-11). */
  get headers(): [string, string][] {
    if (this._headers === null) {
      const out: [string, string][] = [];
      const r = this.raw;
      if (r === null) {
        let cd = `form-data; name="${this.name}"`;
        if (this.filename !== null) cd += `; filename="${this.filename}"`;
        out.push(['content-disposition', cd]);
        if (this.ct !== null) out.push(['content-type', this.ct]);
      } else {
        const t = this.ctx.text;
        const h = r.slab;
        this.each((ns, ne, vs, ve) => out.push([lowerAscii(t.decode(h, ns, ne)), t.decode(h, vs, ve)]));
      }
      this._headers = out;
    }
    return this._headers;
  }

  /**
   * The value of the last header called `name` (ASCII case-insensitive), as `headers` gives it; null when there is
   * none. For a block read by the fast path, without building `headers`.
   */
  header(name: string): string | null {
    const lower = lowerAscii(name);
    if (this.raw === null) {
      if (lower === 'content-type') return this.ct;
      if (lower !== 'content-disposition') return null;
    }
    let v: string | null = null;
    for (const [k, x] of this.headers) if (k === lower) v = x;
    return v;
  }

  /** The value of the last Content-Type header, OWS-trimmed, as is; null when there is none (MP-H-11). */
  get contentType(): string | null {
    if (this.raw === null) return this.ct;
    const h = this.raw.slab;
    let v: string | null = null;
    this.each((ns, ne, vs, ve) => {
      if (isName(h, ns, ne, CONTENT_TYPE)) v = this.ctx.text.decode(h, vs, ve);
    });
    return v;
  }

  /**
   * For a part with a filename: the File type `formData()` gives (MP-F-03); null for a part without filename.
   */
  get type(): string | null {
    if (this._type === undefined) {
      const r = this.raw;
      if (this.filename === null) this._type = null;
      else if (r === null) this._type = this.ct === null ? TEXT_PLAIN_DEFAULT : this.ctx.fileType(this.ct);
      else {
        const h = r.slab;
        const values: Uint8Array[] = [];
        this.each((ns, ne, vs, ve) => {
          if (isName(h, ns, ne, CONTENT_TYPE)) values.push(h.subarray(vs, ve));
        });
        this._type = values.length === 0 ? TEXT_PLAIN_DEFAULT : partFileType(values);
      }
    }
    return this._type;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Byte classes

const CR = 0x0d;
const LF = 0x0a;
const COLON = 0x3a;
const DQUOTE = 0x22;

/**
 * MP-H-11: header names are lowercased ASCII only; with allowUtf8HeaderNames a name may hold other characters, which
 * keep their case (`X-FØØ` is shown `x-fØØ`).
 */
function lowerAscii(s: string): string {
  for (let k = 0; k < s.length; k++) {
    if (s.charCodeAt(k) > 0x7f) return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
  }
  return s.toLowerCase();
}

/** RFC 9110 tchar. */
export const TOKEN = new Uint8Array(256);
for (const c of "!#$%&'*+-.^_`|~") TOKEN[c.charCodeAt(0)] = 1;
for (let c = 0x30; c <= 0x39; c++) TOKEN[c] = 1;
for (let c = 0x41; c <= 0x5a; c++) TOKEN[c] = 1;
for (let c = 0x61; c <= 0x7a; c++) TOKEN[c] = 1;

/** Bytes that stop the fast scan of a header value: NUL, LF, CR. */
export const VALUE_STOP = new Uint8Array(256);
VALUE_STOP[0] = 1;
VALUE_STOP[LF] = 1;
VALUE_STOP[CR] = 1;

export const CONTENT_DISPOSITION = encodeUtf8('content-disposition');
const CONTENT_TYPE = encodeUtf8('content-type');

/**
 * Little-endian int32 words of c (at least 4 bytes) for eqWords: at 0, 4, 8, …, the last one ending at c.length
 * (overlapping the one before it when c.length is not a multiple of 4).
 */
export function wordsOf(c: Uint8Array): Int32Array {
  const dv = new DataView(c.buffer, c.byteOffset, c.length);
  const w = new Int32Array((c.length + 3) >> 2);
  for (let k = 0; k < w.length - 1; k++) w[k] = dv.getInt32(4 * k, true);
  w[w.length - 1] = dv.getInt32(c.length - 4, true);
  return w;
}

/** Whether the `len` bytes at dv[at..) equal the constant whose wordsOf is w (four bytes per comparison). */
export function eqWords(dv: DataView, at: number, w: Int32Array, len: number): boolean {
  const last = w.length - 1;
  for (let k = 0; k < last; k++) if (dv.getInt32(at + 4 * k, true) !== w[k]) return false;
  return dv.getInt32(at + len - 4, true) === w[last];
}

// The header block as browsers write it (the fast path of MP-H-01..10): exact bytes, so a match is one comparison
// per four bytes.
export const FAST_CD = encodeUtf8('Content-Disposition: form-data; name="');
export const FAST_CD_W = wordsOf(FAST_CD);
export const FAST_FN = encodeUtf8('; filename="');
export const FAST_FN_W = wordsOf(FAST_FN);
export const FAST_CT = encodeUtf8('Content-Type: ');
export const FAST_CT_W = wordsOf(FAST_CT);
/** Fast path: bytes of a quoted name or filename (printable ASCII but `"`). */
export const QCHAR = new Uint8Array(256);
/** Fast path: bytes of a Content-Type value (printable ASCII). */
export const VCHAR = new Uint8Array(256);
for (let c = 0x20; c < 0x7f; c++) {
  QCHAR[c] = c === DQUOTE ? 0 : 1;
  VCHAR[c] = 1;
}

/** ASCII case-insensitive comparison of buf[s..e) with a lowercase constant. */
export function isName(buf: Uint8Array, s: number, e: number, lower: Uint8Array): boolean {
  if (e - s !== lower.length) return false;
  for (let k = 0; k < lower.length; k++) {
    let c = buf[s + k]!;
    if (c >= 0x41 && c <= 0x5a) c |= 0x20;
    if (c !== lower[k]) return false;
  }
  return true;
}
