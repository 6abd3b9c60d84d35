/**
 * The parser's fast paths give exactly the general path's results. The whole-block header fast path
 * (`Content-Disposition: form-data; name="…"[; filename="…"]` [+ `Content-Type: …`], MP-H-01..11) only runs when a
 * whole block is inside one chunk, so feeding the same body byte by byte takes the general path: every block below,
 * near the fast shape or in it, must give the same parts (every PartInfo field, raw bytes included) or the same
 * error code and offset, under every option set. The Horspool body scan is checked the same way on bodies full of
 * near-delimiters, against the fallback search and byte-by-byte feeding.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bin, rng, split } from './helpers.js';
import {
  FormwireError,
  MultipartParser,
  PartInfo,
  boundaryFromContentType,
  indexOfFallback,
  defaultIndexOf,
  searchFor,
  type MultipartHandler,
  type Search,
  type MultipartOptions,
} from '../src/index.js';
import { bufferRuntime, nativeIndexOf } from '../src/adapters/node.js';

interface Full {
  index: number;
  offset: number;
  name: string | null;
  nameBytes: number[];
  filename: string | null;
  filenameBytes: number[] | null;
  nameStar: string | null;
  filenameStar: string | null;
  contentType: string | null;
  type: string | null;
  headers: [string, string][];
  /** header(name) for a few names */
  lookups: (string | null)[];
  body: number[];
  fast: boolean;
}

class Collect implements MultipartHandler {
  parts: Full[] = [];
  cur: PartInfo | null = null;
  body: number[] = [];
  onPartStart(p: PartInfo): void {
    this.cur = p;
    this.body = [];
  }
  onData(b: Uint8Array): void {
    for (const x of b) this.body.push(x);
  }
  onPartEnd(): void {
    const p = this.cur!;
    this.parts.push({
      index: p.index,
      offset: p.offset,
      name: p.name,
      nameBytes: [...p.nameBytes!],
      filename: p.filename,
      filenameBytes: p.filenameBytes === null ? null : [...p.filenameBytes],
      nameStar: p.nameStar,
      filenameStar: p.filenameStar,
      contentType: p.contentType,
      type: p.type,
      headers: p.headers,
      lookups: ['content-type', 'Content-Disposition', 'CONTENT-TRANSFER-ENCODING', 'x-extra', 'content-disposition'].map((h) => p.header(h)),
      body: this.body,
      // the fast path keeps no stored header block (see PartInfo.raw)
      fast: (p as unknown as { raw: unknown }).raw === null,
    });
  }
  onEnd(): void {}
}

type Out = { parts: Full[] } | { error: string };

function parse(body: Uint8Array, boundary: string, options: MultipartOptions, chunks: Uint8Array[], search?: Search): Out {
  const c = new Collect();
  try {
    const p = new MultipartParser(boundaryFromContentType(`multipart/form-data; boundary="${boundary}"`, options.maxBoundaryBytes), c, options, search);
    for (const ch of chunks) p.write(ch);
    p.end();
    return { parts: c.parts };
  } catch (e) {
    if (e instanceof FormwireError) return { error: `${e.code}@${e.offset}` };
    throw e;
  }
}

/** The result without the fast flag (which is what may differ between chunkings). */
function strip(o: Out): unknown {
  return 'parts' in o ? o.parts.map(({ fast: _, ...rest }) => rest) : o;
}

const bytes = (b: Uint8Array): Uint8Array[] => Array.from(b, (_, i) => b.subarray(i, i + 1));

const CD = 'Content-Disposition: form-data; name=';

// Header blocks (without the empty line), in and around the fast shape.
const BLOCKS: string[] = [
  `${CD}"a"`,
  `${CD}""`,
  `${CD}"field00000"`,
  `${CD}"a b;c=d"`,
  `${CD}"a\\"`,
  `${CD}"x'y<>?/{}~"`,
  `${CD}"${'n'.repeat(40)}"`,
  `${CD}"a\tb"`,
  `${CD}"caf\xc3\xa9"`,
  `${CD}"bad\xff"`,
  `${CD}"del\x7f"`,
  `${CD}"ctl\x01"`,
  `${CD}"a"b"`,
  `${CD}"a`,
  `${CD}"a" `,
  `${CD}"a";`,
  `${CD}"a"; filename="f.txt"`,
  `${CD}"a"; filename=""`,
  `${CD}"a"; filename="x y.bin"`,
  `${CD}"a"; filename="${'f'.repeat(50)}.bin"`,
  `${CD}"a"; filename="\xe2\x82\xac.txt"`,
  `${CD}"a"; filename="f"; filename="g"`,
  `${CD}"a"; filename="f"; filename*=utf-8''g`,
  `${CD}"a"; filename=f`,
  `${CD}"a"; name="b"`,
  `${CD}"a";filename="f"`,
  `${CD}"a"; Filename="f"`,
  `${CD}a`,
  `Content-Disposition: form-data; Name="a"`,
  `Content-Disposition: form-data;  name="a"`,
  `Content-Disposition:form-data; name="a"`,
  `Content-Disposition : form-data; name="a"`,
  `content-disposition: form-data; name="a"`,
  `Content-Disposition: Form-Data; name="a"`,
  `Content-Disposition: form-data; name="a"; filename="f"\r\nContent-Type: text/plain`,
  `Content-Disposition: form-data; name="a"; filename="f"\r\nContent-Type: application/octet-stream`,
  `Content-Disposition: form-data; name="a"; filename="f"\r\nContent-Type: image/png; charset="x"`,
  `Content-Disposition: form-data; name="a"; filename="f"\r\nContent-Type: text/plain;charset=utf-8`,
  `Content-Disposition: form-data; name="a"; filename="f"\r\nContent-Type: TEXT/Plain`,
  `Content-Disposition: form-data; name="a"; filename="f"\r\nContent-Type: */*`,
  `Content-Disposition: form-data; name="a"; filename="f"\r\nContent-Type: nonsense`,
  `Content-Disposition: form-data; name="a"; filename="f"\r\nContent-Type: text/plain `,
  `Content-Disposition: form-data; name="a"; filename="f"\r\nContent-Type:  text/plain`,
  `Content-Disposition: form-data; name="a"; filename="f"\r\nContent-Type: `,
  `Content-Disposition: form-data; name="a"; filename="f"\r\nContent-Type:`,
  `Content-Disposition: form-data; name="a"; filename="f"\r\nContent-Type: a\tb`,
  `Content-Disposition: form-data; name="a"; filename="f"\r\nContent-Type: t\xe9xt/plain`,
  `Content-Disposition: form-data; name="a"; filename="f"\r\nContent-Type: text/plain\r\nContent-Type: image/gif`,
  `Content-Disposition: form-data; name="a"; filename="f"\r\nContent-type: text/plain`,
  `Content-Disposition: form-data; name="a"; filename="f"\r\nContent-Transfer-Encoding: base64`,
  `Content-Disposition: form-data; name="a"\r\nContent-Type: text/plain`,
  `Content-Disposition: form-data; name="a"\r\nContent-Disposition: form-data; name="b"`,
  `Content-Disposition: form-data; name="a"\r\n folded`,
  `Content-Disposition: form-data; name="a"\r\n\tfolded`,
  `Content-Disposition: form-data; name="a"\r\nContent-Type: text/plain\r\n folded`,
  `Content-Disposition: form-data; name="a"\nContent-Type: text/plain`,
  `Content-Disposition: form-data; name="a"; filename="f"\r\nContent-Type: text/plain\n`,
  `Content-Disposition: form-data; name="a"\r`,
  `Content-Disposition: form-data; name="a"\0`,
  `Content-Type: text/plain\r\nContent-Disposition: form-data; name="a"; filename="f"`,
  ` Content-Disposition: form-data; name="a"`,
  `Content-Disposition: form-data; name="a"; filename="f"\r\nContent-Type: text/plain\r\nX-Extra: 1`,
];

const BOUNDARY = '----WebKitFormBoundary7MA4YWxkTrZu0gW';

const OPTIONS: MultipartOptions[] = [
  {},
  { allowLf: true },
  { allowObsFold: true },
  { allowLf: true, allowObsFold: true, allowPreamble: true },
  { maxHeaders: 0 },
  { maxHeaders: 1 },
  { maxHeaders: 2 },
  { maxFieldBytes: 3, maxFileBytes: 4 },
];

function bodyOf(block: string, value = 'v1'): string {
  return `--${BOUNDARY}\r\n${block}\r\n\r\n${value}\r\n--${BOUNDARY}\r\n${CD}"second"\r\n\r\nv2\r\n--${BOUNDARY}--\r\n`;
}

test('fast header blocks: same parts or error as the general path (byte-by-byte feeding), every option set', () => {
  let fast = 0;
  let errors = 0;
  for (const block of BLOCKS) {
    const body = bin(bodyOf(block));
    for (const options of OPTIONS) {
      const whole = parse(body, BOUNDARY, options, [body]);
      const slow = parse(body, BOUNDARY, options, bytes(body));
      assert.deepEqual(strip(whole), strip(slow), `${JSON.stringify(block)} ${JSON.stringify(options)}`);
      if ('parts' in slow) assert.ok(slow.parts.every((p) => !p.fast), 'byte-by-byte feeding never takes the whole-block path');
      if ('parts' in whole) fast += whole.parts.filter((p) => p.fast).length;
      else errors++;
      // any single split point too
      for (let cut = 1; cut < body.length; cut += 7) {
        assert.deepEqual(strip(parse(body, BOUNDARY, options, split(body, [cut]))), strip(whole), `${JSON.stringify(block)} cut ${cut}`);
      }
    }
  }
  // the list reaches the fast path and the errors
  assert.ok(fast > 100, `fast parts: ${fast}`);
  assert.ok(errors > 50, `errors: ${errors}`);
});

test('fast header blocks: the header-bytes limit at every length around the block', () => {
  for (const block of [`${CD}"a"`, `${CD}"a"; filename="f"\r\nContent-Type: text/plain`]) {
    const body = bin(`--${BOUNDARY}\r\n${block}\r\n\r\nv\r\n--${BOUNDARY}--\r\n`);
    for (let limit = block.length - 3; limit <= block.length + 5; limit++) {
      const options = { maxHeaderBytes: limit };
      const whole = parse(body, BOUNDARY, options, [body]);
      assert.deepEqual(strip(whole), strip(parse(body, BOUNDARY, options, bytes(body))), `${block} limit ${limit}`);
      // the block's lines are `block CRLF`: they fit exactly when the limit covers them
      assert.equal('parts' in whole, limit >= block.length + 2, `limit ${limit}: ${JSON.stringify(whole)}`);
    }
  }
});

test('fast header block: what the browsers send is read by the fast path, with every field right', () => {
  const body = bin(
    `--${BOUNDARY}\r\n${CD}"title"\r\n\r\nhello\r\n` +
      `--${BOUNDARY}\r\n${CD}"up"; filename="a b.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n` +
      `--${BOUNDARY}--\r\n`,
  );
  const out = parse(body, BOUNDARY, {}, [body]);
  assert.ok('parts' in out);
  assert.deepEqual(
    out.parts.map((p) => p.fast),
    [true, true],
  );
  const [a, b] = out.parts as [Full, Full];
  assert.equal(a.name, 'title');
  assert.deepEqual(a.nameBytes, [...bin('title')]);
  assert.equal(a.filename, null);
  assert.equal(a.filenameBytes, null);
  assert.equal(a.contentType, null);
  assert.equal(a.type, null);
  assert.deepEqual(a.headers, [['content-disposition', 'form-data; name="title"']]);
  assert.deepEqual(a.lookups, [null, 'form-data; name="title"', null, null, 'form-data; name="title"']);
  assert.equal(a.offset, BOUNDARY.length + 4);
  assert.equal(b.index, 1);
  assert.equal(b.filename, 'a b.png');
  assert.deepEqual(b.filenameBytes, [...bin('a b.png')]);
  assert.equal(b.contentType, 'image/png');
  assert.equal(b.type, 'image/png');
  assert.deepEqual(b.headers, [
    ['content-disposition', 'form-data; name="up"; filename="a b.png"'],
    ['content-type', 'image/png'],
  ]);
  assert.deepEqual(b.body, [...bin('\x89PNG')]);
  assert.deepEqual(b.lookups, ['image/png', 'form-data; name="up"; filename="a b.png"', null, null, 'form-data; name="up"; filename="a b.png"']);
});

test('Horspool body scan: bodies full of near-delimiters, every boundary length, against the fallback search', { timeout: 120000 }, () => {
  const r = rng(23);
  // 252 and 300 bytes: needles longer than 255 bytes (shift tables must hold them)
  const boundaries = ['b', 'ab', 'abc', 'abcd', 'a-a-a', 'aaaa', BOUNDARY, 'x'.repeat(70), '--', 'ba'.repeat(20), 'y'.repeat(252), 'z'.repeat(299) + 'w'];
  let checked = 0;
  for (let iter = 0; iter < 300; iter++) {
    const B = boundaries[iter % boundaries.length]!;
    const options0: MultipartOptions = { maxBoundaryBytes: 1000 };
    const pieces = ['\r\n--', `\r\n--${B.slice(0, -1)}`, `\r\n--${B}X`, B, B.slice(1), '\r', '\n', '-', 'x', `--${B}`, '\r\n-'];
    let v = '';
    const n = Math.floor(r() * 30);
    for (let k = 0; k < n; k++) v += pieces[Math.floor(r() * pieces.length)]!;
    const text = `--${B}\r\n${CD}"f"; filename="x"\r\n\r\n${v}\r\n--${B}\r\n${CD}"g"\r\n\r\n${v}${v}\r\n--${B}--\r\n`;
    const body = bin(text);
    for (const options of [options0, { ...options0, allowLf: true }]) {
      const whole = parse(body, B, options, [body]);
      // a generated value may itself contain a delimiter: whatever the reading, all searches and feedings agree
      assert.deepEqual(strip(parse(body, B, options, [body], indexOfFallback)), strip(whole), `${JSON.stringify(text)}`);
      assert.deepEqual(strip(parse(body, B, options, bytes(body))), strip(whole), `${JSON.stringify(text)} bytes`);
      const cuts = [1 + Math.floor(r() * (body.length - 1)), 1 + Math.floor(r() * (body.length - 1))].sort((x, y) => x - y);
      assert.deepEqual(strip(parse(body, B, options, split(body, cuts))), strip(whole));
      checked++;
    }
  }
  assert.equal(checked, 600);
});

test('windowed native search: needles across every window edge, from every start, equal the fallback', () => {
  assert.ok(nativeIndexOf !== null);
  const r = rng(29);
  for (const nlen of [4, 5, 43, 74, 300]) {
    const needle = new Uint8Array(nlen);
    for (let k = 0; k < nlen; k++) needle[k] = 0x61 + Math.floor(r() * 3);
    needle[0] = 13;
    const hay = new Uint8Array(16384 * 4 + 1000);
    for (let k = 0; k < hay.length; k++) hay[k] = 0x61 + Math.floor(r() * 3); // no CR: only the planted needle
    for (const edge of [16384, 32768, 49152]) {
      for (let at = edge - nlen - 2; at <= edge + 2; at++) {
        const h = hay.slice();
        h.set(needle, at);
        for (const from of [0, 1, at - 1, at, at + 1, edge - 20000, edge - 16384 - 5]) {
          if (from < 0) continue;
          assert.equal(nativeIndexOf(h, needle, from), indexOfFallback(h, needle, from), `needle ${nlen} at ${at} from ${from}`);
        }
        // a view that does not start at its buffer's start
        const v = new Uint8Array(h.buffer, 7, h.length - 7);
        assert.equal(nativeIndexOf(v, needle, 0), indexOfFallback(v, needle, 0));
      }
    }
  }
});

test('the documented constructor (no search argument) takes the search searchFor chooses for the runtime', () => {
  // ts/README's core example passes three arguments; the default must be the runtime's fastest search (issue #20):
  // on Node, Buffer.indexOf for 1- and 2-byte boundaries, the scan (Buffer.indexOf for dense stretches) from 3 bytes
  // on; on Bun, Buffer.indexOf below 20 bytes and the scan (Buffer.indexOf for dense stretches) from 20 on; on Deno,
  // the scan.
  assert.ok(nativeIndexOf !== null);
  assert.equal(defaultIndexOf, nativeIndexOf);
  const h = { onPartStart() {}, onData() {}, onPartEnd() {}, onEnd() {} };
  const long = '----WebKitFormBoundary7MA4YWxkTrZu0gW';
  const kinds = [1, 2, 3, 39, 70].map(searchFor);
  if (bufferRuntime === 'node') {
    assert.deepEqual(kinds, ['native', 'native', 'scan', 'scan', 'scan']);
    assert.equal(new MultipartParser('b', h).search, nativeIndexOf);
    assert.equal(new MultipartParser('ab', h).search, nativeIndexOf);
    assert.deepEqual(new MultipartParser(long, h).search, { dense: nativeIndexOf });
    assert.deepEqual(new MultipartParser(new TextEncoder().encode('abc'), h).search, { dense: nativeIndexOf });
  } else if (bufferRuntime === 'bun') {
    assert.deepEqual(kinds, ['native', 'native', 'native', 'scan', 'scan']);
    assert.deepEqual([19, 20].map(searchFor), ['native', 'scan']);
    assert.equal(new MultipartParser('b'.repeat(19), h).search, nativeIndexOf);
    assert.deepEqual(new MultipartParser(long, h).search, { dense: nativeIndexOf });
  } else {
    assert.deepEqual(kinds, ['scan', 'scan', 'scan', 'scan', 'scan']);
    assert.equal(new MultipartParser(long, h).search, 'scan');
  }
  // overridable per parser
  assert.equal(new MultipartParser(long, h, {}, nativeIndexOf).search, nativeIndexOf);
  assert.equal(new MultipartParser('b', h, {}, 'scan').search, 'scan');
});
