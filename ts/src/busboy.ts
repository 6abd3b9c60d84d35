/**
 * `formwire/busboy`: a drop-in for busboy 1.x (`busboy(config)` → Writable with `file`, `field`, `partsLimit`,
 * `filesLimit`, `fieldsLimit`, `error` and `close` events, `limits`, `truncated` flags), parsing with formwire.
 * Node only (uses node:stream). Differences from busboy, on purpose:
 * - `defParamCharset` defaults to UTF-8 (busboy: latin1, which garbles UTF-8 filenames).
 * - The multipart profile is formwire's (spec/multipart.md) with the incumbent's leniency as named options
 *   (BUSBOY_MULTIPART, FASTIFY_BUSBOY_MULTIPART; `config.formwire` overrides them): what neither covers (a missing
 *   close delimiter, a bad Content-Disposition…) is an `error` event with a FormwireError (`code`, `offset`).
 * - `filename*` / `name*` never override `filename` / `name` (RFC 7578 §4.2); filenames are never percent-decoded.
 * - formwire's own limits (spec/limits.md: 1000 parts, 8 headers and 8 KiB of headers per part) stay on underneath
 *   busboy's truncating `limits`; raise them through `config.formwire`.
 */
import { Readable, Writable } from 'node:stream';
import { FormwireError } from './core/errors.js';
import { MULTIPART_DEFAULTS, MultipartParser, PartInfo, boundaryFromContentType, type MultipartHandler, type MultipartOptions } from './core/multipart.js';
import { UrlencodedParser, type BytesDecoder, type UrlencodedOptions } from './core/urlencoded.js';
import { runtimeText, runtimeUtf8 } from './adapters/node.js';
import { defaultSearch } from './multipart.js';

/** busboy's `limits`. */
export interface BusboyLimits {
  /** Max field name size in bytes (urlencoded). Default 100. */
  fieldNameSize?: number;
  /** Max field value size in bytes; longer values are truncated (`valueTruncated`). Default 1 MiB. */
  fieldSize?: number;
  /** Max number of non-file fields; further ones are ignored after a `fieldsLimit` event. Default Infinity. */
  fields?: number;
  /** Max file size in bytes; longer files are truncated, their stream emits `limit`. Default Infinity. */
  fileSize?: number;
  /** Max number of file fields. Default Infinity. */
  files?: number;
  /** Max number of parts (fields + files). Default Infinity. */
  parts?: number;
  /** Max number of header key-value pairs per part (mapped to formwire's `maxHeaders`). */
  headerPairs?: number;
  /** @fastify/busboy: max bytes of a part's header block (mapped to formwire's `maxHeaderBytes`). Default 80 KiB. */
  headerSize?: number;
}

/** busboy's constructor options, plus `formwire` for formwire's own options. */
export interface BusboyConfig {
  headers: Record<string, string | string[] | undefined>;
  highWaterMark?: number;
  fileHwm?: number;
  /** Charset of field values without one (default utf8). */
  defCharset?: string;
  /** Charset of `name` / `filename` parameters (default utf8; busboy's default was latin1). */
  defParamCharset?: string;
  /** Keep the full client path of filenames (default false: basename only, like busboy). */
  preservePath?: boolean;
  limits?: BusboyLimits;
  /** formwire parser options (lenient flags, limits). */
  formwire?: MultipartOptions & UrlencodedOptions;
}

export interface FileInfo {
  filename: string;
  encoding: string;
  mimeType: string;
}

export interface FieldInfo {
  nameTruncated: boolean;
  valueTruncated: boolean;
  encoding: string;
  mimeType: string;
}

/** The Readable handed out with each `file` event. */
export class FileStream extends Readable {
  /** True when the file was cut at `limits.fileSize`. */
  truncated = false;
  /** Bytes pushed so far. */
  bytesRead = 0;
  /** @internal */
  onRead: (() => void) | null = null;
  override _read(): void {
    const f = this.onRead;
    if (f !== null) {
      this.onRead = null;
      f();
    }
  }
}

function isLatin1(charset: string | undefined): boolean {
  if (charset === undefined) return false;
  const c = charset.toLowerCase();
  return c === 'latin1' || c === 'binary' || c === 'iso-8859-1' || c === 'iso8859-1';
}

function latin1(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i]!);
  return s;
}

/** 'utf8', 'latin1', or the charset label as given (lower-cased) for TextDecoder. */
function charsetKind(charset: string): string {
  const c = charset.trim().toLowerCase();
  if (c === 'utf8' || c === 'utf-8' || c === '') return 'utf8';
  if (isLatin1(c) || c === 'ascii' || c === 'us-ascii') return 'latin1';
  return c;
}

function decodeAs(cs: string, b: Uint8Array): string {
  if (cs === 'latin1') return latin1(b);
  if (cs === 'utf8') return runtimeText.decode(b);
  if (cs === 'utf16le' || cs === 'ucs2' || cs === 'ucs-2') return Buffer.from(b.buffer, b.byteOffset, b.length).toString('utf16le');
  try {
    return new TextDecoder(cs).decode(b);
  } catch {
    return runtimeText.decode(b); // an unknown label: busboy falls back to UTF-8 too
  }
}

/** The `charset` parameter of a Content-Type as written (unquoted, case kept), or null. */
function charsetParam(ct: string): string | null {
  const semi = ct.indexOf(';');
  let charset: string | null = null;
  if (semi >= 0) {
    for (const p of ct.slice(semi + 1).split(';')) {
      const eq = p.indexOf('=');
      if (eq < 0 || p.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
      let v = p.slice(eq + 1).trim();
      if (v.length >= 2 && v[0] === '"' && v[v.length - 1] === '"') v = v.slice(1, -1);
      charset = v;
    }
  }
  return charset;
}

/** busboy's Content-Type reading: [`type/subtype` lower-cased or `text/plain`, the `charset` parameter or null]. */
function parseType(ct: string | null): [string, string | null] {
  if (ct === null) return ['text/plain', null];
  const semi = ct.indexOf(';');
  const essence = (semi < 0 ? ct : ct.slice(0, semi)).trim().toLowerCase();
  const slash = essence.indexOf('/');
  if (slash <= 0 || slash === essence.length - 1 || /[\s"(),:;<=>?@[\]{}\\]/.test(essence)) return ['text/plain', null];
  return [essence, charsetParam(ct)?.toLowerCase() ?? null];
}

/** RFC 8187 ext-value `charset'[language]'pct-encoded`, decoded; null when it is not a valid one. */
function extValue(v: string): string | null {
  const q1 = v.indexOf("'");
  const q2 = q1 < 0 ? -1 : v.indexOf("'", q1 + 1);
  if (q2 < 0) return null;
  const cs = charsetKind(v.slice(0, q1));
  const raw = v.slice(q2 + 1);
  const out: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x25) {
      const h = raw.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(h)) return null;
      out.push(parseInt(h, 16));
      i += 2;
    } else if (c > 0x20 && c < 0x7f) out.push(c);
    else return null;
  }
  const bytes = Uint8Array.from(out);
  if (cs === 'utf8') {
    const s = runtimeText.decode(bytes);
    return s.includes('\ufffd') ? null : s;
  }
  return decodeAs(cs, bytes);
}

function basename(p: string): string {
  for (let i = p.length - 1; i >= 0; i--) {
    const c = p.charCodeAt(i);
    if (c === 0x2f || c === 0x5c) return p.slice(i + 1);
  }
  return p;
}

function header(headers: BusboyConfig['headers'], name: string): string | undefined {
  const v = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

const enc = new TextEncoder();

function truncateUtf8(s: string, max: number): [string, boolean] {
  if (s.length <= max / 3) return [s, false];
  const b = enc.encode(s);
  if (b.length <= max) return [s, false];
  return [runtimeText.decode(b, 0, max), true];
}

function limit(v: number | undefined, d: number): number {
  return typeof v === 'number' && v >= 0 ? v : d;
}

/**
 * What busboy 1.x accepts, as formwire's named options (the table in ts/README.md): a preamble before the first
 * delimiter (MP-P-02), obs-folded header lines (MP-H-04), a part without Content-Disposition or with an empty one
 * (MP-H-06: a nameless part, which the adapter drops as busboy does), any bytes after the close delimiter (MP-P-05),
 * and node's header-block cap (16 KiB, 2000 header lines).
 * max_total_field_bytes is counted by the adapter over the parts it hands out as fields (busboy's classification: a
 * filename-less application/octet-stream part is a file, which the core would count as a field), so the core's is off.
 * Not allowQuotedPairs: busboy keeps `\` in `filename="C:\dir\a.txt"` (MP-H-07's default reading does too). Field and file sizes are busboy's `limits` (truncation) instead.
 * formwire's other limits (parts, total bytes, total field bytes) stay on; `config.formwire` overrides any of these.
 */
export const BUSBOY_MULTIPART: Readonly<MultipartOptions> = Object.freeze({
  allowPreamble: true,
  allowObsFold: true,
  allowMissingDisposition: true,
  allowJunkAfterClose: true,
  maxHeaderBytes: 16384,
  maxHeaders: 2000,
  maxFieldBytes: Infinity,
  maxFileBytes: Infinity,
  maxTotalFieldBytes: Infinity,
});

/**
 * What @fastify/busboy 3 accepts (the `new Busboy()` API): BUSBOY_MULTIPART, and header names with bytes 80-FF
 * (MP-H-01: `Føø: bar`, which busboy 1.x reports as a malformed header). @fastify/busboy also takes a control byte,
 * a space or `(` inside a name; those stay MP_HEADER_NAME.
 */
export const FASTIFY_BUSBOY_MULTIPART: Readonly<MultipartOptions> = Object.freeze({
  ...BUSBOY_MULTIPART,
  allowUtf8HeaderNames: true,
  maxHeaderBytes: 80 * 1024, // @fastify/busboy's limits.headerSize default
});

/**
 * Header-block errors after which busboy 1.x goes on: it reports 'Malformed part header' and reads on from the next
 * delimiter (the adapter does that with a new parser from the failing byte, allowPreamble skipping to the delimiter).
 */
const RESYNC_CODES: ReadonlySet<string> = new Set(['MP_HEADER_NAME', 'MP_HEADER_VALUE', 'MP_OBS_FOLD', 'MP_LIMIT_HEADERS', 'MP_LIMIT_HEADER_BYTES', 'MP_NO_DISPOSITION']);

/** A limit left after `used` of it (Infinity stays Infinity, null is no limit). */
function left(v: number | null | undefined, d: number, used: number): number {
  const total = v === null ? Infinity : (v ?? d);
  return Math.max(0, total - used);
}

class MultipartBusboy extends Writable implements MultipartHandler {
  private parser: MultipartParser;
  /** The parser's options and boundary, for the parser that takes over after a malformed header block (busboy()). */
  private readonly fw: MultipartOptions;
  private readonly boundary: Uint8Array;
  /** Global offset of the current parser's first byte (0 until a header-block error started a new one). */
  private shift = 0;
  /** What earlier parsers counted (MP-L-01, MP-L-05), so a new parser's limits go on from there. */
  private coreParts = 0;
  private coreFiles = 0;
  private coreFields = 0;
  /**
   * busboy(): the last bytes written before the current chunk (at most a delimiter line with some padding), so that
   * after a malformed header block the new parser can start at the failing line's first byte even when that line
   * began in an earlier write: a delimiter line inside the block is then found (busboy ends the block there).
   */
  private readonly tail: Uint8Array;
  private tailLen = 0;
  private readonly fileHwm: number | undefined;
  private readonly latin1Params: boolean;
  private readonly defCharset: string;
  private readonly preservePath: boolean;
  private readonly fieldSize: number;
  private readonly fileSize: number;
  private readonly maxFields: number;
  private readonly maxFiles: number;
  private readonly maxParts: number;
  /** MP-L-04 over the parts handed out as fields (bytes kept after busboy's fieldSize truncation). */
  private readonly maxTotalFieldBytes: number;
  private fieldTotal = 0;
  /** The chunk being written to the parser (offsets of its ranges are the parser's bytesFed + index). */
  private writing: Uint8Array | null = null;
  private parts = 0;
  private files = 0;
  private fields = 0;
  private skip = false;
  private file: FileStream | null = null;
  private field: { name: string; chunks: Uint8Array[]; size: number; truncated: boolean } | null = null;
  /**
   * The field's last body range, chunk[pa..pb), not copied yet: a field that ends inside the chunk being written is
   * decoded straight from it; keep() copies the range when the field goes on (another range, or the write ends).
   */
  private pc: Uint8Array | null = null;
  private pa = 0;
  private pb = 0;
  private openFiles = 0;
  private pendingCb: ((e?: Error | null) => void) | null = null;
  private finalCb: ((e?: Error | null) => void) | null = null;
  private paused = false;
  /** The file stream whose full buffer paused the writer. */
  private pausedBy: FileStream | null = null;

  private readonly legacy: boolean;

  constructor(cfg: BusboyConfig, contentType: string, legacy: boolean) {
    super({ highWaterMark: cfg.highWaterMark });
    this.legacy = legacy;
    const fw: MultipartOptions = { ...(legacy ? FASTIFY_BUSBOY_MULTIPART : BUSBOY_MULTIPART), ...(cfg.formwire ?? {}) };
    const l = cfg.limits ?? {};
    if (l.headerPairs !== undefined && cfg.formwire?.maxHeaders === undefined) fw.maxHeaders = l.headerPairs;
    if (l.headerSize !== undefined && cfg.formwire?.maxHeaderBytes === undefined) fw.maxHeaderBytes = l.headerSize;
    // busboy's `limits.parts` / `files` / `fields` N are events at the (N+1)th (@fastify/multipart's default parts N
    // is 1000, formwire's max_parts, max_files and max_fields, MP-L-01, MP-L-05): the core counts move past them so
    // the event comes first, and stay a bound (`parts` may be reached by any mix of files and fields). (busboy also counts filename* and octet-stream parts as files; formwire, by filename.)
    // max_parts moves past all three (N fields or files are at least N parts). An infinite N moves nothing.
    const past = (n: unknown): number => (typeof n === 'number' && n >= 0 && Number.isFinite(n) ? n + 1 : 0);
    if (cfg.formwire?.maxParts === undefined && fw.maxParts !== null) {
      fw.maxParts = Math.max(fw.maxParts ?? MULTIPART_DEFAULTS.maxParts, past(l.parts), past(l.fields), past(l.files));
    }
    if (cfg.formwire?.maxFiles === undefined && fw.maxFiles !== null) {
      fw.maxFiles = Math.max(fw.maxFiles ?? MULTIPART_DEFAULTS.maxFiles, past(l.files), past(l.parts));
    }
    if (cfg.formwire?.maxFields === undefined && fw.maxFields !== null) {
      fw.maxFields = Math.max(fw.maxFields ?? MULTIPART_DEFAULTS.maxFields, past(l.fields), past(l.parts));
    }
    const boundary = boundaryFromContentType(contentType, fw.maxBoundaryBytes);
    this.parser = new MultipartParser(boundary, this, fw, defaultSearch(boundary.length), runtimeText);
    this.fw = fw;
    this.boundary = boundary;
    this.tail = new Uint8Array(this.legacy ? 0 : boundary.length + 2 + 64);
    this.fileHwm = cfg.fileHwm;
    this.latin1Params = isLatin1(cfg.defParamCharset);
    this.defCharset = charsetKind(cfg.defCharset ?? 'utf8');
    this.preservePath = cfg.preservePath === true;
    this.fieldSize = limit(l.fieldSize, 1048576);
    this.fileSize = limit(l.fileSize, Infinity);
    this.maxFields = limit(l.fields, Infinity);
    this.maxFiles = limit(l.files, Infinity);
    this.maxParts = limit(l.parts, Infinity);
    const tf = cfg.formwire?.maxTotalFieldBytes;
    this.maxTotalFieldBytes = tf === null ? Infinity : limit(tf, MULTIPART_DEFAULTS.maxTotalFieldBytes);
    fw.maxTotalFieldBytes = Infinity;
  }

  onPartStart(info: PartInfo): void {
    this.skip = false;
    this.coreParts++;
    if (info.filename !== null) this.coreFiles++;
    else this.coreFields++;
    if (++this.parts > this.maxParts) {
      if (this.parts === this.maxParts + 1) this.emit('partsLimit');
      this.skip = true;
      return;
    }
    const partName = info.name;
    if (partName === null) {
      // A nameless part (allowMissingDisposition, MP-H-06): busboy and @fastify/busboy drop a part without (or with
      // an empty) Content-Disposition after counting it as a part; its body is read and dropped (MP-F-05). busboy
      // 1.x reports a block with no header line at all as a malformed header, so that stays an error there.
      if (!this.legacy && info.headers.length === 0) {
        this.coreParts--; // counted again where the error is caught (feed), as for any header-block error
        this.parts--;
        const e = new FormwireError('MP_NO_DISPOSITION', info.offset, 'part without header lines');
        e.message = 'Malformed part header';
        throw e;
      }
      this.skip = true;
      return;
    }
    // busboy's reading of Content-Type: `type/subtype` lower-cased, `text/plain` when absent, empty or unparsable;
    // its `charset` parameter decodes the field value.
    const [mimeType, charset] = parseType(info.contentType);
    const cte = info.header('content-transfer-encoding');
    const encoding = cte === null ? '7bit' : cte.toLowerCase();
    // busboy: a valid `filename*` (RFC 8187) wins over `filename`; a part is a file when it has a filename or is
    // typed application/octet-stream (multer then stores it as a file).
    let filename: string | null = info.filenameStar !== null ? extValue(info.filenameStar) : null;
    if (filename === null && info.filename !== null) filename = this.latin1Params ? latin1(info.filenameBytes!) : info.filename;
    if (filename !== null || mimeType === 'application/octet-stream') {
      if (++this.files > this.maxFiles) {
        if (this.files === this.maxFiles + 1) this.emit('filesLimit');
        this.skip = true;
        return;
      }
      // Nobody reads it: drain it (busboy does the same). A stream without a reader would stop the writer for good.
      if (this.listenerCount('file') === 0) {
        this.skip = true;
        return;
      }
      if (filename !== null && !this.preservePath) filename = basename(filename);
      const name = this.latin1Params ? latin1(info.nameBytes!) : partName;
      const stream = new FileStream({ highWaterMark: this.fileHwm });
      this.file = stream;
      this.openFiles++;
      stream.once('end', () => this.fileEnded(stream));
      stream.once('close', () => {
        if (!stream.readableEnded) this.fileEnded(stream);
      });
      // busboy reports a filename-less octet-stream part with `filename: undefined`
      const fileInfo = { filename: filename ?? undefined, encoding, mimeType } as FileInfo;
      if (this.legacy) this.emit('file', name, stream, fileInfo.filename, encoding, mimeType);
      else this.emit('file', name, stream, fileInfo);
    } else {
      if (++this.fields > this.maxFields) {
        if (this.fields === this.maxFields + 1) this.emit('fieldsLimit');
        this.skip = true;
        return;
      }
      if (this.listenerCount('field') === 0) {
        this.skip = true;
        return;
      }
      this.valueCharset = charset === null ? this.defCharset : charsetKind(charset);
      this.field = { name: this.latin1Params ? latin1(info.nameBytes!) : partName, chunks: [], size: 0, truncated: false };
      this.fieldInfo = { nameTruncated: false, valueTruncated: false, encoding, mimeType };
    }
  }

  /** How the current field's value is decoded: 'utf8', 'latin1' or a TextDecoder label. */
  private valueCharset = 'utf8';

  private decodeValue(b: Uint8Array, a = 0, e = b.length): string {
    const cs = this.valueCharset;
    if (cs === 'utf8') return runtimeText.decode(b, a, e);
    return decodeAs(cs, b.subarray(a, e));
  }

  private fieldInfo: FieldInfo | null = null;

  private fileEnded(stream: FileStream): void {
    // An ended (or destroyed) stream calls _read no more: it cannot hold the writer.
    if (this.pausedBy === stream) this.resume();
    this.openFiles--;
    if (this.openFiles === 0 && this.finalCb !== null) {
      const cb = this.finalCb;
      this.finalCb = null;
      cb();
    }
  }

  onDataRange(chunk: Uint8Array, a: number, b: number): void {
    if (this.skip) return;
    const f = this.field;
    if (this.file !== null || f === null) {
      this.onData(new Uint8Array(chunk.buffer, chunk.byteOffset + a, b - a));
      return;
    }
    if (f.truncated) return;
    const room = this.fieldSize - f.size;
    if (b - a > room) {
      b = a + room;
      f.truncated = true;
    }
    if (b > a) {
      this.keep();
      this.pc = chunk;
      this.pa = a;
      this.pb = b;
      f.size += b - a;
      this.countField(b - a, this.isWriting(chunk) ? a : -1);
    }
  }

  /** Copy the field's pending range into its chunks (it must outlive the chunk being written). */
  private keep(): void {
    const c = this.pc;
    if (c !== null) {
      this.field?.chunks.push(c.slice(this.pa, this.pb));
      this.pc = null;
    }
  }

  onData(bytes: Uint8Array): void {
    if (this.skip) return;
    const file = this.file;
    if (file !== null) {
      if (file.truncated) return;
      let b = bytes;
      const room = this.fileSize - file.bytesRead;
      if (b.length > room) {
        b = b.subarray(0, room);
        file.truncated = true;
      }
      if (b.length > 0) {
        file.bytesRead += b.length;
        if (!file.push(b)) {
          this.paused = true;
          this.pausedBy = file;
          file.onRead = () => this.resume();
        }
      }
      if (file.truncated) file.emit('limit');
      return;
    }
    const f = this.field;
    if (f === null || f.truncated) return;
    const room = this.fieldSize - f.size;
    if (bytes.length > room) {
      f.chunks.push(bytes.slice(0, room));
      f.size += room;
      this.countField(room, -1);
      f.truncated = true;
    } else {
      f.chunks.push(bytes.slice());
      f.size += bytes.length;
      this.countField(bytes.length, -1);
    }
  }

  /** Whether chunk views the chunk being written (the core hands out its own Uint8Array view of a Buffer). */
  private isWriting(chunk: Uint8Array): boolean {
    const w = this.writing;
    return w !== null && chunk.buffer === w.buffer && chunk.byteOffset === w.byteOffset;
  }

  /** MP_LIMIT_TOTAL_FIELD_BYTES: offset of the first byte past the limit (or of the chunk being written when the
   * bytes are not a range of it). */
  private countField(n: number, at: number): void {
    const total = this.fieldTotal + n;
    this.fieldTotal = total;
    if (total > this.maxTotalFieldBytes) {
      const over = n - (total - this.maxTotalFieldBytes);
      // the current parser's offset, as its own errors have (feed() adds where that parser started)
      const offset = this.parser.bytesFed + (at >= 0 ? at + over : 0);
      throw new FormwireError('MP_LIMIT_TOTAL_FIELD_BYTES', offset, 'field bodies longer than maxTotalFieldBytes together');
    }
  }

  private resume(): void {
    this.paused = false;
    if (this.pausedBy !== null) this.pausedBy.onRead = null;
    this.pausedBy = null;
    const cb = this.pendingCb;
    if (cb !== null) {
      this.pendingCb = null;
      cb();
    }
  }

  onPartEnd(): void {
    if (this.skip) return;
    if (this.file !== null) {
      this.file.push(null);
      this.file = null;
      return;
    }
    const f = this.field;
    if (f === null) return;
    let value: string;
    const c = this.pc;
    if (c !== null && f.chunks.length === 0) {
      // the whole value is one range of the chunk being written
      this.pc = null;
      value = this.decodeValue(c, this.pa, this.pb);
    } else {
      this.keep();
      const all = f.chunks.length === 1 ? f.chunks[0]! : f.chunks.length === 0 ? new Uint8Array(0) : Buffer.concat(f.chunks, f.size);
      value = this.decodeValue(all);
    }
    this.field = null;
    const info = this.fieldInfo!;
    info.valueTruncated = f.truncated;
    if (this.legacy) this.emit('field', f.name, value, info.nameTruncated, info.valueTruncated, info.encoding, info.mimeType);
    else this.emit('field', f.name, value, info);
  }

  onEnd(): void {}

  /**
   * Feed a chunk. busboy(): after a malformed header block (RESYNC_CODES), 'error' is emitted and parsing goes on at
   * the next delimiter, as busboy 1.x does: a new parser (allowPreamble, the limits that are left) takes the bytes
   * from the failing one on. Every other error, and every error of new Busboy() (@fastify/busboy stops), ends the
   * parse.
   */
  private feed(chunk: Uint8Array): void {
    let c = chunk;
    let base = 0; // where c starts in chunk
    for (;;) {
      try {
        this.parser.write(c);
        if (!this.legacy) this.keepTail(chunk);
        return;
      } catch (e) {
        if (this.legacy || !(e instanceof FormwireError) || !RESYNC_CODES.has(e.code)) throw this.shifted(e);
        const reported = incumbentError(this.shifted(e), false);
        const fed = this.parser.bytesFed; // the failed write is not counted
        const errAbs = this.shift + e.offset;
        const chunkAbs = this.shift + fed - base;
        // The new parser starts at the failing header line's first byte (after the last LF before the error), if
        // that line is in reach and after the failing parser's own start (so every restart moves forward);
        // otherwise at the failing byte.
        let start = errAbs;
        for (let i = errAbs - 1; i >= Math.max(this.shift + 1, chunkAbs - this.tailLen); i--) {
          const byte = i >= chunkAbs ? chunk[i - chunkAbs]! : this.tail[this.tailLen - (chunkAbs - i)]!;
          if (byte === 0x0a) {
            start = i + 1;
            break;
          }
        }
        this.shift = start;
        this.coreParts++; // the part whose header block failed was counted at its delimiter line
        this.parts++; // and busboy counts it for limits.parts
        const fw = this.fw;
        this.parser = new MultipartParser(this.boundary, this, {
          ...fw,
          allowPreamble: true,
          maxTotalBytes: left(fw.maxTotalBytes, MULTIPART_DEFAULTS.maxTotalBytes, this.shift),
          maxParts: left(fw.maxParts, MULTIPART_DEFAULTS.maxParts, this.coreParts),
          maxFiles: left(fw.maxFiles, MULTIPART_DEFAULTS.maxFiles, this.coreFiles),
          maxFields: left(fw.maxFields, MULTIPART_DEFAULTS.maxFields, this.coreFields),
        }, defaultSearch(this.boundary.length), runtimeText);
        if (start < chunkAbs) {
          // the line began in an earlier write: its first bytes come from the tail (at most a delimiter line's
          // length, before any part's data)
          const head = this.tail.slice(this.tailLen - (chunkAbs - start), this.tailLen);
          this.writing = head;
          this.parser.write(head);
          base = 0;
        } else base = start - chunkAbs;
        c = chunk.subarray(base);
        this.writing = c; // the new parser's ranges are of this view
        this.emit('error', reported);
      }
    }
  }

  /** busboy(): keep the last bytes of what was written (see `tail`). */
  private keepTail(chunk: Uint8Array): void {
    const t = this.tail;
    const n = t.length;
    if (chunk.length >= n) {
      t.set(chunk.subarray(chunk.length - n));
      this.tailLen = n;
      return;
    }
    const keep = Math.min(this.tailLen, n - chunk.length);
    t.copyWithin(0, this.tailLen - keep, this.tailLen);
    t.set(chunk, keep);
    this.tailLen = keep + chunk.length;
  }

  /** An error of a parser that took over after a malformed header block, at its offset in the whole body. */
  private shifted(e: unknown): unknown {
    if (this.shift === 0 || !(e instanceof FormwireError)) return e;
    const detail = e.message.replace(/^\S+ at byte \d+: /, '');
    return new FormwireError(e.code, e.offset + this.shift, detail);
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (e?: Error | null) => void): void {
    this.writing = chunk;
    try {
      this.feed(chunk);
    } catch (e) {
      this.writing = null;
      this.pc = null;
      const err = incumbentError(e, this.legacy);
      this.fail(err);
      cb(err);
      return;
    }
    this.writing = null;
    this.keep();
    if (this.paused) this.pendingCb = cb;
    else cb();
  }

  override _final(cb: (e?: Error | null) => void): void {
    try {
      this.parser.end();
    } catch (e) {
      const err = incumbentError(this.shifted(e), this.legacy);
      this.fail(err);
      cb(err);
      return;
    }
    if (this.openFiles > 0) this.finalCb = cb;
    else cb();
  }

  private fail(e: Error): void {
    if (this.file !== null) {
      this.file.destroy(e);
      this.file = null;
    }
  }
}

class UrlencodedBusboy extends Writable {
  private readonly parser: UrlencodedParser;
  private fields = 0;

  constructor(cfg: BusboyConfig, contentType: string, legacy: boolean) {
    super({ highWaterMark: cfg.highWaterMark });
    // busboy: names and values are the request's `charset` (else `defCharset`, else UTF-8) decoding of the
    // percent-decoded bytes, and `info.encoding` is that charset as written.
    const charset = charsetParam(contentType) ?? cfg.defCharset ?? 'utf8';
    const kind = charsetKind(charset);
    const decode: BytesDecoder = kind === 'utf8' ? runtimeUtf8 : (b, a, e) => decodeAs(kind, b.subarray(a, e));
    const l = cfg.limits ?? {};
    const fieldNameSize = limit(l.fieldNameSize, 100);
    const fieldSize = limit(l.fieldSize, 1048576);
    const maxFields = limit(l.fields, Infinity);
    this.parser = new UrlencodedParser((name, value) => {
      if (++this.fields > maxFields) {
        if (this.fields === maxFields + 1) this.emit('fieldsLimit');
        return;
      }
      const [n, nt] = truncateUtf8(name, fieldNameSize);
      const [v, vt] = truncateUtf8(value, fieldSize);
      const info: FieldInfo = { nameTruncated: nt, valueTruncated: vt, encoding: charset, mimeType: 'text/plain' };
      if (legacy) this.emit('field', n, v, nt, vt, info.encoding, info.mimeType);
      else this.emit('field', n, v, info);
    }, cfg.formwire ?? {}, decode);
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (e?: Error | null) => void): void {
    try {
      this.parser.write(chunk);
    } catch (e) {
      cb(e as Error);
      return;
    }
    cb();
  }

  override _final(cb: (e?: Error | null) => void): void {
    try {
      this.parser.end();
    } catch (e) {
      cb(e as Error);
      return;
    }
    cb();
  }
}

/**
 * The incumbents' messages for the formwire codes they have one for: busboy 1.x (`busboy()`) and @fastify/busboy
 * (`new Busboy()`, whose `'Unexpected end of multipart data'` @fastify/multipart reads as "no more parts"). The error
 * stays the FormwireError (`code`, `offset`, `status`); only `message` is the incumbent's, since callers match on it.
 */
const HEADER_CODES = ['MP_HEADER_NAME', 'MP_HEADER_VALUE', 'MP_OBS_FOLD', 'MP_LIMIT_HEADERS', 'MP_LIMIT_HEADER_BYTES'];
const BUSBOY_MESSAGES: Readonly<Record<string, string>> = Object.freeze({
  MP_TRUNCATED: 'Unexpected end of form',
  MP_BOUNDARY: 'Multipart: Boundary not found',
  ...Object.fromEntries(HEADER_CODES.map((c) => [c, 'Malformed part header'])),
});
const FASTIFY_BUSBOY_MESSAGES: Readonly<Record<string, string>> = Object.freeze({
  MP_TRUNCATED: 'Unexpected end of multipart data',
  MP_BOUNDARY: 'Multipart: Boundary not found',
});

function incumbentError(e: unknown, legacy: boolean): Error {
  if (e instanceof FormwireError) {
    const m = (legacy ? FASTIFY_BUSBOY_MESSAGES : BUSBOY_MESSAGES)[e.code];
    if (m !== undefined) e.message = m;
  }
  return e as Error;
}

/** The busboy-compatible parser: write the request body into it (`req.pipe(bb)`). */
export type Busboy = Writable;


function create(config: BusboyConfig, legacy: boolean): Busboy {
  if (typeof config !== 'object' || config === null) throw new TypeError('Busboy expected an options-Object.');
  if (typeof config.headers !== 'object' || config.headers === null) throw new TypeError('Busboy expected an options-Object with headers.');
  const ct = header(config.headers, 'content-type');
  if (typeof ct !== 'string') throw new Error('Missing Content-Type header');
  const essence = (ct.split(';')[0] ?? '').trim().toLowerCase();
  if (essence === 'application/x-www-form-urlencoded') return new UrlencodedBusboy(config, ct, legacy);
  if (essence === 'multipart/form-data') {
    try {
      return new MultipartBusboy(config, ct, legacy);
    } catch (e) {
      throw incumbentError(e, legacy);
    }
  }
  throw new Error(`Unsupported content type: ${ct}`);
}

/**
 * busboy 1.x's factory: `busboy({ headers: req.headers, limits })` → Writable emitting `file` (name, stream, info),
 * `field` (name, value, info), `close`… Throws (like busboy) when the Content-Type is missing or unsupported.
 */
export function busboy(config: BusboyConfig): Busboy {
  return create(config, false);
}

/**
 * The older class API of busboy 0.x / @fastify/busboy: `new Busboy({ headers })` emitting
 * `file` (name, stream, filename, encoding, mimeType), `field` (name, value, nameTruncated, valueTruncated,
 * encoding, mimeType) and `finish`.
 */
export const Busboy = function Busboy(config: BusboyConfig): Busboy {
  return create(config, true);
} as unknown as { new (config: BusboyConfig): Busboy; (config: BusboyConfig): Busboy };

export { FormwireError };
export default busboy;
