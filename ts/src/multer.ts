/**
 * `formwire/multer`: multer 2.x's middleware API (`multer(opts).single/array/fields/none/any`, `memoryStorage`,
 * `MulterError` codes) over formwire/busboy. multer itself takes no parser (it calls `require('busboy')`), so this is
 * the way to run it on formwire without module hooks. multer's storage engines (`multer.diskStorage(...)`, or any
 * object with `_handleFile` / `_removeFile`) plug in unchanged. Node only; Express-style `(req, res, next)`.
 * Differences: field names are not expanded into nested objects (`a[b]` stays a key; a repeated name collects an array).
 */
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { busboy, type BusboyConfig, type BusboyLimits, type FieldInfo, type FileInfo, type FileStream } from './busboy.js';

/** multer's file object (what storage engines receive, and `req.file` / `req.files` hold). */
export interface MulterFile {
  fieldname: string;
  originalname: string;
  encoding: string;
  mimetype: string;
  size?: number;
  buffer?: Buffer;
  destination?: string;
  filename?: string;
  path?: string;
  stream?: Readable;
  [k: string]: unknown;
}

/** multer's storage engine interface. */
export interface StorageEngine {
  _handleFile(req: IncomingMessage, file: MulterFile, cb: (err?: unknown, info?: Partial<MulterFile>) => void): void;
  _removeFile(req: IncomingMessage, file: MulterFile, cb: (err?: unknown) => void): void;
}

const MESSAGES = {
  LIMIT_PART_COUNT: 'Too many parts',
  LIMIT_FILE_SIZE: 'File too large',
  LIMIT_FILE_COUNT: 'Too many files',
  LIMIT_FIELD_KEY: 'Field name too long',
  LIMIT_FIELD_VALUE: 'Field value too long',
  LIMIT_FIELD_COUNT: 'Too many fields',
  LIMIT_UNEXPECTED_FILE: 'Unexpected field',
  MISSING_FIELD_NAME: 'Field name missing',
} as const;

/** multer's error for limits and unexpected files (same codes and messages). */
export class MulterError extends Error {
  readonly code: keyof typeof MESSAGES;
  readonly field: string | undefined;
  constructor(code: keyof typeof MESSAGES, field?: string) {
    super(MESSAGES[code]);
    this.name = 'MulterError';
    this.code = code;
    this.field = field;
  }
}

/** Keeps each file in memory as `file.buffer`. */
export function memoryStorage(): StorageEngine {
  return {
    _handleFile(_req, file, cb) {
      const chunks: Buffer[] = [];
      file.stream!.on('data', (c: Buffer) => chunks.push(c));
      file.stream!.on('error', cb);
      file.stream!.on('end', () => {
        const buffer = Buffer.concat(chunks);
        cb(null, { buffer, size: buffer.length });
      });
    },
    _removeFile(_req, file, cb) {
      delete file.buffer;
      cb(null);
    },
  };
}

export interface MulterOptions {
  storage?: StorageEngine;
  limits?: BusboyLimits;
  preservePath?: boolean;
  fileFilter?: (req: IncomingMessage, file: MulterFile, cb: (err: unknown, accept?: boolean) => void) => void;
  /** Passed to formwire/busboy (`config.formwire`). */
  formwire?: BusboyConfig['formwire'];
}

type Req = IncomingMessage & { body?: Record<string, unknown>; file?: MulterFile; files?: unknown };
type Middleware = (req: Req, res: unknown, next: (err?: unknown) => void) => void;
/** Which file fields are accepted and how many; 'VALUE' puts a single file in req.file, 'ARRAY'/'OBJECT' in req.files. */
type Strategy = 'NONE' | 'VALUE' | 'ARRAY' | 'OBJECT';

function isMultipart(req: IncomingMessage): boolean {
  const ct = req.headers['content-type'];
  return typeof ct === 'string' && /^\s*multipart\//i.test(ct);
}

function middleware(opts: MulterOptions, allowed: Map<string, number> | null, strategy: Strategy): Middleware {
  const storage = opts.storage ?? memoryStorage();
  const filter = opts.fileFilter ?? ((_r, _f, cb) => cb(null, true));
  return (req, _res, next) => {
    if (!isMultipart(req)) return next();
    const body: Record<string, unknown> = Object.create(null);
    req.body = body;
    const files: MulterFile[] = [];
    const counts = new Map<string, number>();
    let pending = 0;
    let finished = false;
    let failed = false;
    const bb = busboy({ headers: req.headers, limits: opts.limits, preservePath: opts.preservePath, formwire: opts.formwire });

    const done = (err?: unknown) => {
      if (failed) return;
      if (err) {
        failed = true;
        req.unpipe(bb);
        req.resume();
        bb.removeAllListeners();
        bb.on('error', () => {});
        let left = files.length;
        if (left === 0) return next(err);
        for (const f of files) storage._removeFile(req, f, () => --left === 0 && next(err));
        return;
      }
      if (!finished || pending > 0) return;
      if (strategy === 'VALUE') req.file = files[0];
      else if (strategy === 'ARRAY') req.files = files;
      else if (strategy === 'OBJECT') {
        const o: Record<string, MulterFile[]> = Object.create(null);
        for (const f of files) (o[f.fieldname] ??= []).push(f);
        req.files = o;
      }
      next();
    };

    bb.on('field', (name: string, value: string, info: FieldInfo) => {
      if (info.nameTruncated) return done(new MulterError('LIMIT_FIELD_KEY'));
      if (info.valueTruncated) return done(new MulterError('LIMIT_FIELD_VALUE', name));
      const prev = body[name];
      body[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
    });
    bb.on('file', (name: string | undefined, stream: FileStream, info: FileInfo) => {
      if (!name) {
        stream.resume();
        return done(new MulterError('MISSING_FIELD_NAME'));
      }
      const n = (counts.get(name) ?? 0) + 1;
      counts.set(name, n);
      if (allowed !== null && !(n <= (allowed.get(name) ?? 0))) {
        stream.resume();
        return done(new MulterError('LIMIT_UNEXPECTED_FILE', name));
      }
      const file: MulterFile = { fieldname: name, originalname: info.filename ?? '', encoding: info.encoding, mimetype: info.mimeType };
      pending++;
      filter(req, file, (err, accept) => {
        if (err || !accept) {
          pending--;
          stream.resume();
          return err ? done(err) : done();
        }
        file.stream = stream;
        stream.on('limit', () => done(new MulterError('LIMIT_FILE_SIZE', name)));
        storage._handleFile(req, file, (err2, info2) => {
          pending--;
          delete file.stream;
          if (err2) return done(err2);
          Object.assign(file, info2);
          files.push(file);
          done();
        });
      });
    });
    bb.on('error', (e: unknown) => done(e));
    bb.on('partsLimit', () => done(new MulterError('LIMIT_PART_COUNT')));
    bb.on('filesLimit', () => done(new MulterError('LIMIT_FILE_COUNT')));
    bb.on('fieldsLimit', () => done(new MulterError('LIMIT_FIELD_COUNT')));
    bb.on('close', () => {
      finished = true;
      done();
    });
    req.pipe(bb);
  };
}

/** multer(opts): `.single(name)`, `.array(name, max)`, `.fields([{ name, maxCount }])`, `.none()`, `.any()`. */
export function multer(opts: MulterOptions = {}) {
  return {
    single: (name: string) => middleware(opts, new Map([[name, 1]]), 'VALUE'),
    array: (name: string, maxCount = Infinity) => middleware(opts, new Map([[name, maxCount]]), 'ARRAY'),
    fields: (fields: Array<{ name: string; maxCount?: number }>) =>
      middleware(opts, new Map(fields.map((f) => [f.name, f.maxCount ?? Infinity])), 'OBJECT'),
    none: () => middleware(opts, new Map(), 'NONE'),
    any: () => middleware(opts, null, 'ARRAY'),
  };
}
multer.memoryStorage = memoryStorage;
multer.MulterError = MulterError;

export default multer;
