/**
 * WHATWG MIME Sniffing §4.4 "parse a MIME type" and §4.5 "serialize a MIME type", plus Fetch's
 * "extract a MIME type" over a list of Content-Type values. Used for MP-B-01 (request Content-Type) and MP-F-03
 * (the File type of a part).
 */

/** A parsed MIME type. `parameters` keeps the first occurrence of each (lowercased) name, in order. */
export interface MimeType {
  type: string;
  subtype: string;
  parameters: Map<string, string>;
}

/** Lowercased `type/subtype`. */
export function essence(m: MimeType): string {
  return `${m.type}/${m.subtype}`;
}

// HTTP token code points (RFC 9110 tchar): ! # $ % & ' * + - . ^ _ ` | ~ DIGIT ALPHA
const TOKEN = new Uint8Array(128);
for (const c of "!#$%&'*+-.^_`|~") TOKEN[c.charCodeAt(0)] = 1;
for (let c = 0x30; c <= 0x39; c++) TOKEN[c] = 1;
for (let c = 0x41; c <= 0x5a; c++) TOKEN[c] = 1;
for (let c = 0x61; c <= 0x7a; c++) TOKEN[c] = 1;

function isToken(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128 || TOKEN[c] === 0) return false;
  }
  return true;
}

// HTTP quoted-string token code points: U+0009, U+0020-U+007E, U+0080-U+00FF.
function isQuotedStringTokens(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x09 || (c >= 0x20 && c <= 0x7e) || (c >= 0x80 && c <= 0xff)) continue;
    return false;
  }
  return true;
}

// HTTP whitespace: LF, CR, HT, SP.
function isHttpWs(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x09 || c === 0x20;
}

function trimHttpWs(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isHttpWs(s.charCodeAt(a))) a++;
  while (b > a && isHttpWs(s.charCodeAt(b - 1))) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

function trimTrailingHttpWs(s: string): string {
  let b = s.length;
  while (b > 0 && isHttpWs(s.charCodeAt(b - 1))) b--;
  return b === s.length ? s : s.slice(0, b);
}

/**
 * Collect an HTTP quoted string (Fetch). `pos` points at the opening quote. Returns [value, newPos].
 * With `extract`, the unescaped value; otherwise the raw substring including quotes and backslashes.
 */
function collectQuoted(input: string, pos: number, extract: boolean): [string, number] {
  const start = pos;
  let value = '';
  pos++; // the opening quote
  for (;;) {
    let i = pos;
    while (i < input.length) {
      const c = input.charCodeAt(i);
      if (c === 0x22 || c === 0x5c) break;
      i++;
    }
    value += input.slice(pos, i);
    pos = i;
    if (pos >= input.length) break;
    const q = input.charCodeAt(pos);
    pos++;
    if (q === 0x5c) {
      if (pos >= input.length) {
        value += '\\';
        break;
      }
      value += input[pos];
      pos++;
    } else {
      break;
    }
  }
  return [extract ? value : input.slice(start, pos), pos];
}

/** MIME Sniffing §4.4. Returns null on failure. */
export function parseMimeType(input: string): MimeType | null {
  input = trimHttpWs(input);
  let pos = input.indexOf('/');
  if (pos < 0) return null;
  const type = input.slice(0, pos);
  if (!isToken(type)) return null;
  pos++;
  let end = input.indexOf(';', pos);
  if (end < 0) end = input.length;
  const subtype = trimTrailingHttpWs(input.slice(pos, end));
  if (!isToken(subtype)) return null;
  pos = end;
  const m: MimeType = { type: type.toLowerCase(), subtype: subtype.toLowerCase(), parameters: new Map() };
  while (pos < input.length) {
    pos++; // ';'
    while (pos < input.length && isHttpWs(input.charCodeAt(pos))) pos++;
    let i = pos;
    while (i < input.length) {
      const c = input.charCodeAt(i);
      if (c === 0x3b || c === 0x3d) break;
      i++;
    }
    const name = input.slice(pos, i).toLowerCase();
    pos = i;
    if (pos < input.length) {
      if (input.charCodeAt(pos) === 0x3b) continue;
      pos++; // '='
    }
    if (pos >= input.length) break;
    let value: string;
    if (input.charCodeAt(pos) === 0x22) {
      [value, pos] = collectQuoted(input, pos, true);
      const semi = input.indexOf(';', pos);
      pos = semi < 0 ? input.length : semi;
    } else {
      const semi = input.indexOf(';', pos);
      const e = semi < 0 ? input.length : semi;
      value = trimTrailingHttpWs(input.slice(pos, e));
      pos = e;
      if (value === '') continue;
    }
    if (isToken(name) && isQuotedStringTokens(value) && !m.parameters.has(name)) m.parameters.set(name, value);
  }
  return m;
}

/** MIME Sniffing §4.5. */
export function serializeMimeType(m: MimeType): string {
  let s = `${m.type}/${m.subtype}`;
  for (const [name, value] of m.parameters) {
    s += ';' + name + '=';
    if (value === '' || !isToken(value)) s += '"' + value.replace(/["\\]/g, '\\$&') + '"';
    else s += value;
  }
  return s;
}

/** Fetch "get, decode, and split" over one (already isomorphic-decoded) header value. */
export function splitHeaderValue(input: string): string[] {
  const values: string[] = [];
  let pos = 0;
  let temp = '';
  for (;;) {
    let i = pos;
    while (i < input.length) {
      const c = input.charCodeAt(i);
      if (c === 0x22 || c === 0x2c) break;
      i++;
    }
    temp += input.slice(pos, i);
    pos = i;
    if (pos < input.length && input.charCodeAt(pos) === 0x22) {
      let q: string;
      [q, pos] = collectQuoted(input, pos, false);
      temp += q;
      if (pos < input.length) continue;
    }
    // strip HTTP tab or space
    let a = 0;
    let b = temp.length;
    while (a < b && (temp.charCodeAt(a) === 0x20 || temp.charCodeAt(a) === 0x09)) a++;
    while (b > a && (temp.charCodeAt(b - 1) === 0x20 || temp.charCodeAt(b - 1) === 0x09)) b--;
    values.push(temp.slice(a, b));
    temp = '';
    if (pos >= input.length) return values;
    pos++; // ','
  }
}

/**
 * Fetch "extract a MIME type" over the values of every Content-Type header, in order (isomorphic-decoded strings).
 * Returns null on failure.
 */
export function extractMimeType(headerValues: readonly string[]): MimeType | null {
  if (headerValues.length === 0) return null;
  let charset: string | null = null;
  let ess: string | null = null;
  let mime: MimeType | null = null;
  // Fetch combines the values with ", " before splitting.
  for (const value of splitHeaderValue(headerValues.join(', '))) {
    const t = parseMimeType(value);
    if (t === null || (t.type === '*' && t.subtype === '*')) continue;
    mime = t;
    const e = essence(t);
    if (e !== ess) {
      charset = t.parameters.get('charset') ?? null;
      ess = e;
    } else if (!t.parameters.has('charset') && charset !== null) {
      t.parameters.set('charset', charset);
    }
  }
  return mime;
}

/**
 * MP-F-03: the File `type` of a part from the raw bytes of its Content-Type header values. No header gives
 * `text/plain`; failure gives `""`. A value holding a byte 80-FF makes its pieces invalid (spec/multipart.md MP-F-03).
 */
export function partFileType(values: readonly Uint8Array[]): string {
  if (values.length === 0) return 'text/plain';
  const strs: string[] = [];
  for (const v of values) {
    let s = '';
    for (let i = 0; i < v.length; i++) s += String.fromCharCode(v[i]!);
    strs.push(s);
  }
  let charset: string | null = null;
  let ess: string | null = null;
  let mime: MimeType | null = null;
  for (const value of splitHeaderValue(strs.join(', '))) {
    if (/[\u0080-\u00ff]/.test(value)) continue;
    const t = parseMimeType(value);
    if (t === null || (t.type === '*' && t.subtype === '*')) continue;
    mime = t;
    const e = essence(t);
    if (e !== ess) {
      charset = t.parameters.get('charset') ?? null;
      ess = e;
    } else if (!t.parameters.has('charset') && charset !== null) {
      t.parameters.set('charset', charset);
    }
  }
  return mime === null ? '' : serializeMimeType(mime);
}
