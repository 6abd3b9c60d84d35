/** Rule-by-rule tests of spec/multipart.md §1-§6: each case whole, byte by byte and at every split point. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allChunkings, bin, run, indexOfFallback, type Outcome } from './helpers.js';
import type { MultipartOptions } from '../src/index.js';

const CT = 'multipart/form-data; boundary=b';
const CD = (name: string, extra = '') => `Content-Disposition: form-data; name="${name}"${extra}\r\n`;
const field = (name: string, value: string) => `--b\r\n${CD(name)}\r\n${value}\r\n`;
const END = '--b--\r\n';

interface Case {
  rule: string;
  what: string;
  body: string; // latin1
  options?: MultipartOptions;
  ct?: string;
  parts?: Array<Partial<{ name: string | null; filename: string | null; body: string; contentType: string | null; type: string | null; nameStar: string | null; filenameStar: string | null; headers: [string, string][] }>>;
  error?: [string, number | string]; // code, offset or a marker whose first index is the offset
}

const cases: Case[] = [
  { rule: 'MP-P-01', what: 'one field', body: field('a', 'x') + END, parts: [{ name: 'a', body: 'x', filename: null }] },
  { rule: 'MP-P-01', what: 'CRLF before a delimiter belongs to it', body: field('a', 'x\r\n') + END, parts: [{ body: 'x\r\n' }] },
  { rule: 'MP-P-06', what: 'empty body', body: field('a', '') + END, parts: [{ body: '' }] },
  { rule: 'MP-P-07', what: 'no parts', body: '--b--', parts: [] },
  { rule: 'MP-P-02', what: 'preamble rejected', body: 'x' + field('a', '1') + END, error: ['MP_PREAMBLE', 0] },
  { rule: 'MP-P-02', what: 'first byte that differs', body: '--c\r\n', error: ['MP_PREAMBLE', 2] },
  { rule: 'MP-P-02', what: 'CRLF preamble rejected', body: '\r\n' + field('a', '1') + END, error: ['MP_PREAMBLE', 0] },
  { rule: 'MP-P-02', what: 'preamble allowed', body: 'junk --b\r\n--bx\r\n' + field('a', '1') + END, options: { allowPreamble: true }, parts: [{ name: 'a', body: '1' }] },
  { rule: 'MP-P-02', what: 'preamble with no delimiter', body: 'junk', options: { allowPreamble: true }, error: ['MP_TRUNCATED', 4] },
  { rule: 'MP-P-03', what: 'transport padding', body: `--b \t\r\n${CD('a')}\r\n1\r\n--b\t\r\n${CD('c')}\r\n2\r\n--b-- \r\n`, parts: [{ body: '1' }, { body: '2' }] },
  { rule: 'MP-P-03', what: '--bX as the first line', body: '--bX\r\n', error: ['MP_DELIMITER', 3] },
  { rule: 'MP-P-03', what: 'bare LF after the delimiter (strict)', body: '--b\n' + CD('a') + '\r\n1\r\n' + END, error: ['MP_DELIMITER', 3] },
  { rule: 'MP-P-03', what: 'CR then not LF', body: '--b\rX', error: ['MP_DELIMITER', 4] },
  { rule: 'MP-P-03', what: 'junk after padding', body: '--b  x\r\n', error: ['MP_DELIMITER', 5] },
  { rule: 'MP-P-04', what: 'CRLF--bX is data', body: field('a', 'v\r\n--bX\r\n--b!') + END, parts: [{ body: 'v\r\n--bX\r\n--b!' }] },
  { rule: 'MP-P-04', what: '--b without CRLF is data', body: field('a', 'v--b--') + END, parts: [{ body: 'v--b--' }] },
  { rule: 'MP-P-04', what: 'CRLF--b-x is a bad delimiter', body: field('a', 'v') .slice(0, -2) + '\r\n--b-X', error: ['MP_DELIMITER', 'X'] },
  { rule: 'MP-P-05', what: 'junk after close delimiter', body: field('a', '1') + '--b--junk', error: ['MP_DELIMITER', 'junk'] },
  { rule: 'MP-P-05', what: 'padding after close at end of input', body: field('a', '1') + '--b--  \t', parts: [{ body: '1' }] },
  { rule: 'MP-P-05', what: 'epilogue ignored', body: field('a', '1') + END + 'epilogue\r\n--b\r\n garbage', parts: [{ body: '1' }] },
  { rule: 'MP-P-07', what: 'no close delimiter', body: field('a', '1'), error: ['MP_TRUNCATED', field('a', '1').length] },
  { rule: 'MP-P-07', what: 'nothing after the first delimiter', body: '--b\r\n', error: ['MP_TRUNCATED', 5] },
  { rule: 'MP-P-07', what: 'no CRLF before close delimiter', body: `--b\r\n${CD('a')}\r\nv--b--`, error: ['MP_TRUNCATED', `--b\r\n${CD('a')}\r\nv--b--`.length] },
  { rule: 'MP-P-07', what: 'empty input', body: '', error: ['MP_TRUNCATED', 0] },
  { rule: 'MP-H-01', what: 'header names are case-insensitive', body: `--b\r\ncOnTeNt-DiSpOsItIoN: form-data; name="a"\r\nCONTENT-TYPE: text/x\r\n\r\n1\r\n` + END, parts: [{ name: 'a', contentType: 'text/x', headers: [['content-disposition', 'form-data; name="a"'], ['content-type', 'text/x']] }] },
  { rule: 'MP-H-01', what: 'OWS around the colon, trailing OWS trimmed', body: `--b\r\nContent-Disposition \t: \t form-data; name=a \t\r\n\r\n1\r\n` + END, parts: [{ name: 'a', headers: [['content-disposition', 'form-data; name=a']] }] },
  { rule: 'MP-H-01', what: 'whitespace before the first header name (CVE-2022-24434)', body: `--b\r\n  ${CD('a')}\r\n1\r\n` + END, parts: [{ name: 'a' }] },
  { rule: 'MP-H-02', what: 'space inside a name', body: `--b\r\n${CD('a')}Cont ent-Type: x\r\n\r\n1\r\n` + END, error: ['MP_HEADER_NAME', 'ent-Type'] },
  { rule: 'MP-H-02', what: 'no colon fails at CR', body: `--b\r\n${CD('a')}NoColon\r\n\r\n1\r\n` + END, error: ['MP_HEADER_NAME', '\r\n\r\n1'] },
  { rule: 'MP-H-02', what: 'empty name', body: `--b\r\n${CD('a')}: x\r\n\r\n1\r\n` + END, error: ['MP_HEADER_NAME', ': x'] },
  { rule: 'MP-H-02', what: 'NUL in a value', body: `--b\r\n${CD('a')}X-A: a\0b\r\n\r\n1\r\n` + END, error: ['MP_HEADER_VALUE', '\0'] },
  { rule: 'MP-H-02', what: 'NUL in a name', body: `--b\r\n${CD('a')}X\0: a\r\n\r\n1\r\n` + END, error: ['MP_HEADER_NAME', '\0'] },
  { rule: 'MP-H-02', what: 'bare CR in a value', body: `--b\r\n${CD('a')}X-A: a\rb\r\n\r\n1\r\n` + END, error: ['MP_HEADER_VALUE', '\rb'] },
  { rule: 'MP-H-02', what: 'bare LF in a value (strict)', body: `--b\r\n${CD('a')}X-A: a\nb\r\n\r\n1\r\n` + END, error: ['MP_HEADER_VALUE', '\nb'] },
  { rule: 'MP-H-02', what: 'control bytes and 80-FF allowed in values', body: `--b\r\n${CD('a')}X-A: \x01\x7f\xff\r\n\r\n1\r\n` + END, parts: [{ name: 'a' }] },
  { rule: 'MP-H-04', what: 'obs-fold rejected', body: `--b\r\n${CD('a')} folded\r\n\r\n1\r\n` + END, error: ['MP_OBS_FOLD', ' folded'] },
  { rule: 'MP-H-04', what: 'obs-fold joined with one SP', body: `--b\r\nContent-Disposition: form-data;\r\n \t name="a"\r\n\r\n1\r\n` + END, options: { allowObsFold: true }, parts: [{ name: 'a', headers: [['content-disposition', 'form-data; name="a"']] }] },
  { rule: 'MP-H-05', what: 'max_headers', body: `--b\r\n${CD('a')}X-A: 1\r\nX-B: 2\r\n\r\n1\r\n` + END, options: { maxHeaders: 2 }, error: ['MP_LIMIT_HEADERS', 'X-B'] },
  { rule: 'MP-H-05', what: 'max_headers exactly', body: `--b\r\n${CD('a')}X-A: 1\r\n\r\n1\r\n` + END, options: { maxHeaders: 2 }, parts: [{ name: 'a' }] },
  { rule: 'MP-H-05', what: 'max_header_bytes: the empty line does not count', body: `--b\r\n${CD('a')}\r\n1\r\n` + END, options: { maxHeaderBytes: CD('a').length }, parts: [{ name: 'a' }] },
  { rule: 'MP-H-05', what: 'max_header_bytes exceeded', body: `--b\r\n${CD('a')}\r\n1\r\n` + END, options: { maxHeaderBytes: CD('a').length - 1 }, error: ['MP_LIMIT_HEADER_BYTES', 5 + CD('a').length - 1] },
  { rule: 'MP-H-05', what: 'a bare CR at a line start is not counted by the limits', body: `--b\r\n${CD('a')}\rX: 1\r\n\r\n1\r\n` + END, options: { maxHeaders: 1, maxHeaderBytes: CD('a').length }, error: ['MP_HEADER_NAME', '\rX'] },
  { rule: 'MP-H-05', what: 'a bare LF line start (strict) is a header line for the limits', body: `--b\r\n${CD('a')}\nX: 1\r\n\r\n1\r\n` + END, options: { maxHeaders: 1 }, error: ['MP_LIMIT_HEADERS', '\nX'] },
  { rule: 'MP-H-02', what: 'a bare LF line start (strict) is MP_HEADER_NAME', body: `--b\r\n${CD('a')}\n\r\n1\r\n` + END, error: ['MP_HEADER_NAME', '\n\r\n1'] },
  { rule: 'MP-H-09', what: 'name* / filename* shown UTF-8 decoded, not RFC 8187 decoded', body: `--b\r\nContent-Disposition: form-data; name="n"; filename*="utf-8''\xc3\xa9%20x"\r\n\r\n1\r\n` + END, parts: [{ filenameStar: "utf-8''\u00e9%20x", filename: null }] },
  { rule: 'MP-L-01', what: 'max_parts 0 still accepts --B--', body: '--b--', options: { maxParts: 0 }, parts: [] },
  { rule: 'MP-L-01', what: 'the parts limit wins over truncation', body: field('a', '1') + '--b\r\n', options: { maxParts: 1 }, error: ['MP_LIMIT_PARTS', (field('a', '1') + '--b\r\n').length] },
  { rule: 'MP-P-05', what: 'input ending right after the close CR is truncated', body: field('a', '1') + '--b--\r', error: ['MP_TRUNCATED', (field('a', '1') + '--b--\r').length] },
  { rule: 'MP-L-03', what: 'a CR at max_total_bytes - 1 is not fully processed', body: field('a', '1') + END, options: { maxTotalBytes: field('a', '1').length - 1 }, error: ['MP_LIMIT_TOTAL_BYTES', field('a', '1').length - 1] },
  { rule: 'MP-H-06', what: 'part without headers', body: `--b\r\n\r\n1\r\n` + END, error: ['MP_NO_DISPOSITION', 5] },
  { rule: 'MP-H-06', what: 'no Content-Disposition', body: `--b\r\nContent-Type: text/plain\r\n\r\n1\r\n` + END, error: ['MP_NO_DISPOSITION', 31] },
  { rule: 'MP-H-06', what: 'two Content-Disposition headers', body: `--b\r\n${CD('a')}content-disposition: form-data; name="z"\r\n\r\n1\r\n` + END, error: ['MP_DISPOSITION', 'content-disposition'] },
  { rule: 'MP-H-07', what: 'backslash is ordinary', body: `--b\r\n${CD('a\\', '; filename="c:\\x\\"')}\r\n1\r\n` + END, parts: [{ name: 'a\\', filename: 'c:\\x\\' }] },
  { rule: 'MP-H-07', what: 'quoted-pair reading when the literal one fails (Go)', body: `--b\r\n${CD('f', '; filename="a\\"b.txt"')}\r\n1\r\n` + END, parts: [{ name: 'f', filename: 'a"b.txt' }] },
  { rule: 'MP-H-07', what: 'one reading for the whole value', body: `--b\r\n${CD('x\\\\y', '; filename="a\\"b"')}\r\n1\r\n` + END, parts: [{ name: 'x\\y', filename: 'a"b' }] },
  { rule: 'MP-H-07', what: 'allow_quoted_pairs reads them first', body: `--b\r\n${CD('x\\\\y', '; filename="c\\d"')}\r\n1\r\n` + END, options: { allowQuotedPairs: true }, parts: [{ name: 'x\\y', filename: 'cd' }] },
  { rule: 'MP-H-07', what: 'allow_quoted_pairs falls back to the literal reading', body: `--b\r\n${CD('f', '; filename="a\\"')}\r\n1\r\n` + END, options: { allowQuotedPairs: true }, parts: [{ name: 'f', filename: 'a\\' }] },
  { rule: 'MP-H-07', what: 'both readings fail', body: `--b\r\n${CD('a\\', '; filename="b\\"c"')}\r\n1\r\n` + END, error: ['MP_DISPOSITION', 5] },
  { rule: 'MP-H-07', what: 'unterminated quote', body: `--b\r\nContent-Disposition: form-data; name="a\r\n\r\n1\r\n` + END, error: ['MP_DISPOSITION', 5] },
  { rule: 'MP-H-07', what: 'junk after a value', body: `--b\r\nContent-Disposition: form-data; name="a".html\r\n\r\n1\r\n` + END, error: ['MP_DISPOSITION', 5] },
  { rule: 'MP-H-07', what: 'not form-data', body: `--b\r\nContent-Disposition: attachment; name="a"\r\n\r\n1\r\n` + END, error: ['MP_DISPOSITION', 5] },
  { rule: 'MP-H-07', what: 'parameter without =', body: `--b\r\nContent-Disposition: form-data; name\r\n\r\n1\r\n` + END, error: ['MP_DISPOSITION', 5] },
  { rule: 'MP-H-07', what: 'empty params, token values, case-insensitive', body: `--b\r\nContent-Disposition: FORM-DATA;; NAME = tok ; ;\r\n\r\n1\r\n` + END, parts: [{ name: 'tok' }] },
  { rule: 'MP-H-08', what: 'name is required', body: `--b\r\nContent-Disposition: form-data; filename="f"\r\n\r\n1\r\n` + END, error: ['MP_DISPOSITION', 5] },
  { rule: 'MP-H-08', what: 'second name fails', body: `--b\r\nContent-Disposition: form-data; name="a"; name="b"\r\n\r\n1\r\n` + END, error: ['MP_DISPOSITION', 5] },
  { rule: 'MP-H-08', what: 'second filename fails', body: `--b\r\nContent-Disposition: form-data; name="a"; filename="x"; FILENAME="y"\r\n\r\n1\r\n` + END, error: ['MP_DISPOSITION', 5] },
  { rule: 'MP-H-08', what: 'empty name and filename', body: `--b\r\nContent-Disposition: form-data; name=""; filename=""\r\n\r\n1\r\n` + END, parts: [{ name: '', filename: '', type: 'text/plain' }] },
  { rule: 'MP-H-09', what: 'name* and filename* raw, never overriding', body: `--b\r\nContent-Disposition: form-data; name="comment"; name*=utf-8''role; filename="safe.txt"; filename*=utf-8''evil.php; filename*0="x"\r\n\r\n1\r\n` + END, parts: [{ name: 'comment', nameStar: "utf-8''role", filename: 'safe.txt', filenameStar: "utf-8''evil.php" }] },
  { rule: 'MP-H-09', what: 'second filename* fails', body: `--b\r\nContent-Disposition: form-data; name="a"; filename*=x; filename*=y\r\n\r\n1\r\n` + END, error: ['MP_DISPOSITION', 5] },
  { rule: 'MP-H-10', what: 'no percent decoding, UTF-8 names, U+FFFD', body: `--b\r\nContent-Disposition: form-data; name="a%0Ab%22\xc3\xa9\xff"\r\n\r\n1\r\n` + END, parts: [{ name: 'a%0Ab%22\u00e9\ufffd' }] },
  { rule: 'MP-H-11', what: 'last Content-Type wins; CTE ignored', body: `--b\r\n${CD('a', '; filename="f"')}Content-Type: text/a\r\nContent-Transfer-Encoding: base64\r\nContent-Type:  text/b \r\n\r\nYQ==\r\n` + END, parts: [{ contentType: 'text/b', type: 'text/b', body: 'YQ==' }] },
  { rule: 'MP-F-03', what: 'type lowercased', body: `--b\r\n${CD('a', '; filename="f"')}Content-Type: TEXT/HTML\r\n\r\n1\r\n` + END, parts: [{ type: 'text/html', contentType: 'TEXT/HTML' }] },
  { rule: 'MP-F-03', what: 'type serialized', body: `--b\r\n${CD('a', '; filename="f"')}Content-Type: text/html;;x="y"\r\n\r\n1\r\n` + END, parts: [{ type: 'text/html;x=y' }] },
  { rule: 'MP-F-03', what: 'comma list: last valid', body: `--b\r\n${CD('a', '; filename="f"')}Content-Type: text/html, text/plain\r\n\r\n1\r\n` + END, parts: [{ type: 'text/plain' }] },
  { rule: 'MP-F-03', what: 'invalid types give ""', body: `--b\r\n${CD('a', '; filename="f"')}Content-Type: text\r\n\r\n1\r\n` + END, parts: [{ type: '' }] },
  { rule: 'MP-F-03', what: 'non-ASCII type gives ""', body: `--b\r\n${CD('a', '; filename="f"')}Content-Type: text/\xc3\xa9\r\n\r\n1\r\n` + END, parts: [{ type: '' }] },
  { rule: 'MP-F-03', what: 'no Content-Type: text/plain; fields have no type', body: `--b\r\n${CD('a', '; filename="f"')}\r\n1\r\n` + field('c', '2') + END, parts: [{ type: 'text/plain' }, { type: null }] },
  { rule: 'MP-L-01', what: 'max_parts', body: field('a', '1') + field('c', '2') + END, options: { maxParts: 1 }, error: ['MP_LIMIT_PARTS', field('a', '1').length + 5] },
  { rule: 'MP-L-01', what: 'max_parts exactly', body: field('a', '1') + END, options: { maxParts: 1 }, parts: [{ body: '1' }] },
  { rule: 'MP-L-05', what: 'max_files: a filename makes a file ("" too), at the header block start', body: field('a', '1') + `--b\r\n${CD('f', '; filename=""')}\r\nx\r\n` + field('c', '2') + `--b\r\n${CD('g', '; filename="g"')}\r\ny\r\n` + END, options: { maxFiles: 1 }, error: ['MP_LIMIT_FILES', (field('a', '1') + `--b\r\n${CD('f', '; filename=""')}\r\nx\r\n` + field('c', '2')).length + 5] },
  { rule: 'MP-L-05', what: 'max_fields: filename* alone is a field', body: field('a', '1') + `--b\r\n${CD('f', "; filename*=utf-8''x")}\r\nx\r\n` + END, options: { maxFields: 1, maxFiles: 0 }, error: ['MP_LIMIT_FIELDS', field('a', '1').length + 5] },
  { rule: 'MP-L-05', what: 'max_files and max_fields exactly', body: field('a', '1') + `--b\r\n${CD('f', '; filename="f"')}\r\nx\r\n` + END, options: { maxFiles: 1, maxFields: 1 }, parts: [{ body: '1' }, { body: 'x' }] },
  { rule: 'MP-L-02', what: 'field at the limit passes', body: field('a', '12345') + END, options: { maxFieldBytes: 5 }, parts: [{ body: '12345' }] },
  { rule: 'MP-L-02', what: 'field over the limit', body: field('a', '123456') + END, options: { maxFieldBytes: 5 }, error: ['MP_LIMIT_FIELD_BYTES', '6\r\n'] },
  { rule: 'MP-L-02', what: 'file over the limit', body: `--b\r\n${CD('a', '; filename="f"')}\r\n123\r\n` + END, options: { maxFileBytes: 2, maxFieldBytes: 0 }, error: ['MP_LIMIT_FILE_BYTES', '3\r\n'] },
  { rule: 'MP-L-04', what: 'fields summing to the total pass, files do not count', body: field('a', '123') + `--b\r\n${CD('f', '; filename="f"')}\r\n0123456789\r\n` + field('c', '45') + END, options: { maxTotalFieldBytes: 5 }, parts: [{ body: '123' }, { body: '0123456789' }, { body: '45' }] },
  { rule: 'MP-L-04', what: 'the byte that makes the sum total + 1', body: field('a', '123') + field('c', '456') + END, options: { maxTotalFieldBytes: 5 }, error: ['MP_LIMIT_TOTAL_FIELD_BYTES', '6\r\n'] },
  { rule: 'MP-L-04', what: 'field limit wins at the same byte', body: field('a', '12') + field('c', '3456') + END, options: { maxTotalFieldBytes: 5, maxFieldBytes: 3 }, error: ['MP_LIMIT_FIELD_BYTES', '6\r\n'] },
  { rule: 'MP-L-04', what: 'total fires within the field limit', body: field('a', '12') + field('c', '3456') + END, options: { maxTotalFieldBytes: 5, maxFieldBytes: 4 }, error: ['MP_LIMIT_TOTAL_FIELD_BYTES', '6\r\n'] },
  { rule: 'MP-L-02', what: 'CR-dense field at the limit', body: field('a', '\r\r\r\n\r') + END, options: { maxFieldBytes: 5 }, parts: [{ body: '\r\r\r\n\r' }] },
  { rule: 'MP-L-03', what: 'max_total_bytes', body: field('a', '1') + END, options: { maxTotalBytes: 10 }, error: ['MP_LIMIT_TOTAL_BYTES', 10] },
  { rule: 'MP-L-03', what: 'an earlier error wins', body: 'x' + field('a', '1') + END, options: { maxTotalBytes: 10 }, error: ['MP_PREAMBLE', 0] },
  { rule: 'MP-L-03', what: 'the epilogue counts', body: field('a', '1') + END + 'xx', options: { maxTotalBytes: (field('a', '1') + END).length + 1 }, error: ['MP_LIMIT_TOTAL_BYTES', (field('a', '1') + END).length + 1] },
  { rule: 'MP-R-02', what: 'allow_lf: LF-only body', body: `--b\nContent-Disposition: form-data; name="a"\n\nv1\r\n--b\nContent-Disposition: form-data; name="c"\n\nv2\n--b--\n`, options: { allowLf: true }, parts: [{ body: 'v1' }, { body: 'v2' }] },
  { rule: 'MP-R-02', what: 'allow_lf: CR kept when not before LF--b', body: `--b\n${CD('a')}\nv\r\r\n--b--`, options: { allowLf: true }, parts: [{ body: 'v\r' }] },
  // The four lenient options of MP-R-02 added with issues #16 and #17 (each off by default: the strict twins above)
  { rule: 'MP-H-06', what: 'allow_missing_disposition: no Content-Disposition is a nameless part, a fast-path part follows', body: `--b\r\nContent-Type: text/x\r\n\r\n1\r\n` + field('a', '2') + END, options: { allowMissingDisposition: true }, parts: [{ name: null, filename: null, nameStar: null, filenameStar: null, contentType: 'text/x', type: null, headers: [['content-type', 'text/x']], body: '1' }, { name: 'a', body: '2' }] },
  { rule: 'MP-H-06', what: 'allow_missing_disposition: an OWS-only Content-Disposition is empty', body: `--b\r\nContent-Disposition: \t \r\n\r\n1\r\n` + END, options: { allowMissingDisposition: true }, parts: [{ name: null, headers: [['content-disposition', '']], body: '1' }] },
  { rule: 'MP-H-06', what: 'allow_missing_disposition: a block without headers', body: `--b\r\n\r\n1\r\n` + END, options: { allowMissingDisposition: true }, parts: [{ name: null, headers: [], body: '1' }] },
  { rule: 'MP-H-06', what: 'allow_missing_disposition: a second, empty Content-Disposition still fails at its line', body: `--b\r\n${CD('a')}Content-Disposition:\r\n\r\n1\r\n` + END, options: { allowMissingDisposition: true }, error: ['MP_DISPOSITION', 'Content-Disposition:\r'] },
  { rule: 'MP-H-06', what: 'allow_missing_disposition: form-data without name still fails', body: `--b\r\nContent-Disposition: form-data\r\n\r\n1\r\n` + END, options: { allowMissingDisposition: true }, error: ['MP_DISPOSITION', 5] },
  { rule: 'MP-H-06', what: 'strict: an empty Content-Disposition is MP_DISPOSITION', body: `--b\r\nContent-Disposition:\r\n\r\n1\r\n` + END, error: ['MP_DISPOSITION', 5] },
  { rule: 'MP-L-05', what: 'allow_missing_disposition: a nameless part is a field (max_fields)', body: field('a', '1') + `--b\r\n\r\n2\r\n` + END, options: { allowMissingDisposition: true, maxFields: 1, maxFiles: 0 }, error: ['MP_LIMIT_FIELDS', field('a', '1').length + 5] },
  { rule: 'MP-L-02', what: 'allow_missing_disposition: a nameless body is under max_field_bytes', body: `--b\r\n\r\n123\r\n` + END, options: { allowMissingDisposition: true, maxFieldBytes: 2, maxFileBytes: 100 }, error: ['MP_LIMIT_FIELD_BYTES', '3\r\n'] },
  { rule: 'MP-H-07', what: 'allow_any_disposition_type: any token type, parameters as for form-data', body: `--b\r\nContent-Disposition: Form-Field ; name="a"; filename="f"\r\n\r\n1\r\n` + END, options: { allowAnyDispositionType: true }, parts: [{ name: 'a', filename: 'f', body: '1' }] },
  { rule: 'MP-H-07', what: 'allow_any_disposition_type: an empty type still fails', body: `--b\r\nContent-Disposition: ; name="a"\r\n\r\n1\r\n` + END, options: { allowAnyDispositionType: true }, error: ['MP_DISPOSITION', 5] },
  { rule: 'MP-H-07', what: 'allow_any_disposition_type: name still required', body: `--b\r\nContent-Disposition: inline\r\n\r\n1\r\n` + END, options: { allowAnyDispositionType: true }, error: ['MP_DISPOSITION', 5] },
  { rule: 'MP-H-07', what: 'allow_any_disposition_type with allow_quoted_pairs', body: `--b\r\nContent-Disposition: attachment; name="a\\\\b"\r\n\r\n1\r\n` + END, options: { allowAnyDispositionType: true, allowQuotedPairs: true }, parts: [{ name: 'a\\b' }] },
  { rule: 'MP-P-05', what: 'allow_junk_after_close: junk right after --b--', body: field('a', '1') + '--b--junk\r\n--b\r\n', options: { allowJunkAfterClose: true }, parts: [{ name: 'a', body: '1' }] },
  { rule: 'MP-P-07', what: 'allow_junk_after_close: --b-- CR at the end of input', body: field('a', '1') + '--b--\r', options: { allowJunkAfterClose: true }, parts: [{ body: '1' }] },
  { rule: 'MP-P-03', what: 'allow_junk_after_close: --b-x still fails', body: field('a', '1') + '--b-x', options: { allowJunkAfterClose: true }, error: ['MP_DELIMITER', 'x'] },
  { rule: 'MP-L-03', what: 'allow_junk_after_close: the junk counts', body: field('a', '1') + '--b--xy', options: { allowJunkAfterClose: true, maxTotalBytes: field('a', '1').length + 6 }, error: ['MP_LIMIT_TOTAL_BYTES', field('a', '1').length + 6] },
  { rule: 'MP-H-01', what: 'allow_utf8_header_names: bytes 80-FF in names, ASCII-only lowercasing, obs-fold', body: `--b\r\n${CD('a')}X-F\xc3\x98: 1\r\n \xc3\xb6\r\n\r\n1\r\n` + END, options: { allowUtf8HeaderNames: true, allowObsFold: true }, parts: [{ name: 'a', headers: [['content-disposition', 'form-data; name="a"'], ['x-f\u00d8', '1 \u00f6']] }] },
  { rule: 'MP-H-01', what: 'allow_utf8_header_names: a UTF-8 name first (after OWS) and last', body: `--b\r\n \xc3\x98x\xff : 1\r\n${CD('a')}X-\xc3\x98\xc3\x98:2\r\n\r\n1\r\n` + END, options: { allowUtf8HeaderNames: true }, parts: [{ name: 'a', headers: [['\u00d8x\ufffd', '1'], ['content-disposition', 'form-data; name="a"'], ['x-\u00d8\u00d8', '2']] }] },
  { rule: 'MP-H-01', what: 'allow_utf8_header_names: C\u00f6ntent-Type is no Content-Type', body: `--b\r\n${CD('a', '; filename="f"')}C\xc3\xb6ntent-Type: text/html\r\n\r\n1\r\n` + END, options: { allowUtf8HeaderNames: true }, parts: [{ contentType: null, type: 'text/plain' }] },
  { rule: 'MP-H-02', what: 'allow_utf8_header_names: a CTL in the name still fails', body: `--b\r\n${CD('a')}X\xc3\x98\x01: v\r\n\r\n1\r\n` + END, options: { allowUtf8HeaderNames: true }, error: ['MP_HEADER_NAME', '\x01'] },
  { rule: 'MP-H-02', what: 'strict: a byte 80-FF in a name fails there', body: `--b\r\n${CD('a')}X\xc3\x98: v\r\n\r\n1\r\n` + END, error: ['MP_HEADER_NAME', '\xc3'] },
  { rule: 'MP-R-02', what: 'the four new options together with allow_lf', body: `--b\n\xc3\x98: 1\n\nx\n--b\nContent-Disposition: form-field; name="a"\n\ny\n--b--junk`, options: { allowMissingDisposition: true, allowAnyDispositionType: true, allowJunkAfterClose: true, allowUtf8HeaderNames: true, allowLf: true }, parts: [{ name: null, headers: [['\u00d8', '1']], body: 'x' }, { name: 'a', body: 'y' }] },
  // allow_cr, allow_near_delimiters, allow_8bit_parameter_names, allow_rfc2231_continuations (MP-R-02, issue #17)
  { rule: 'MP-P-03', what: 'allow_cr: every line ends with a bare CR', body: `--b\rContent-Disposition: form-data; name="a"\r\r1\r--b \rContent-Disposition: form-data; name="c"\rX-A: v\r\r\r2\r--b--`, options: { allowCr: true }, parts: [{ name: 'a', body: '1', headers: [['content-disposition', 'form-data; name="a"']] }, { name: 'c', body: '\r2', headers: [['content-disposition', 'form-data; name="c"'], ['x-a', 'v']] }] },
  { rule: 'MP-P-03', what: 'strict: a bare CR after the boundary fails at the next byte', body: `--b\rContent-Disposition: form-data; name="a"\r\r1\r--b--`, error: ['MP_DELIMITER', 4] },
  { rule: 'MP-P-06', what: 'allow_cr: CR--b ends a body that strict mode reads as one part', body: field('a', '1\r--b\r\n' + CD('c') + '\r\n2') + END, options: { allowCr: true }, parts: [{ name: 'a', body: '1' }, { name: 'c', body: '2' }] },
  { rule: 'MP-P-06', what: 'strict: CR--b inside a body is data', body: field('a', '1\r--b\r\n' + CD('c') + '\r\n2') + END, parts: [{ name: 'a', body: '1\r--b\r\n' + CD('c') + '\r\n2' }] },
  { rule: 'MP-P-04', what: 'allow_cr: CR--bX is data, CR CR--b and CRLF CR--b keep one CR each', body: field('a', 'x\r--bX\r\r\n') + '\r--b\r\n' + CD('c') + '\r\ny\r\r--b--', options: { allowCr: true }, parts: [{ body: 'x\r--bX\r\r\n\r\n' }, { body: 'y\r' }] },
  { rule: 'MP-P-05', what: 'allow_cr: --b-- CR at the end of input, and CR then epilogue', body: field('a', '1') + '--b--\r', options: { allowCr: true }, parts: [{ body: '1' }] },
  { rule: 'MP-P-05', what: 'allow_cr: the byte after the close CR is epilogue', body: field('a', '1') + '--b--\rjunk\r\n--b\r\n', options: { allowCr: true }, parts: [{ body: '1' }] },
  { rule: 'MP-P-05', what: 'strict: --b-- CR then junk fails at the junk', body: field('a', '1') + '--b--\rjunk', error: ['MP_DELIMITER', 'junk'] },
  { rule: 'MP-P-07', what: 'allow_cr: input ending after the CR of a delimiter line is truncated', body: '--b\r', options: { allowCr: true }, error: ['MP_TRUNCATED', 4] },
  { rule: 'MP-P-03', what: 'allow_cr: --b-x still fails', body: field('a', '1') + '--b-x\r', options: { allowCr: true }, error: ['MP_DELIMITER', 'x\r'] },
  { rule: 'MP-H-03', what: 'allow_cr: header line CR then CRLF, and an empty body at once', body: `--b\r${CD('a').slice(0, -2)}\r\r\n\r--b\r${CD('c').slice(0, -2)}\r\r\r--b--`, options: { allowCr: true }, parts: [{ name: 'a', body: '' }, { name: 'c', body: '' }] },
  { rule: 'MP-H-02', what: 'allow_cr: a bare CR before the colon still fails there', body: `--b\r\n${CD('a')}X-A\r: v\r\n\r\n1\r\n` + END, options: { allowCr: true }, error: ['MP_HEADER_NAME', '\r: v'] },
  { rule: 'MP-H-02', what: 'strict: a bare CR ending a header line fails at the CR', body: `--b\r\n${CD('a').slice(0, -2)}\rX-A: v\r\n\r\n1\r\n` + END, error: ['MP_HEADER_VALUE', '\rX-A'] },
  { rule: 'MP-H-04', what: 'allow_cr with allow_obs_fold: a CR-ended folded line', body: `--b\rContent-Disposition: form-data;\r name="a"\r\r1\r--b--`, options: { allowCr: true, allowObsFold: true }, parts: [{ name: 'a', headers: [['content-disposition', 'form-data; name="a"']] }] },
  { rule: 'MP-P-02', what: 'allow_cr with allow_preamble: the preamble ends at CR--b', body: `pre\r--bX\r--b\r${CD('a').slice(0, -2)}\r\r1\r--b--`, options: { allowCr: true, allowPreamble: true }, parts: [{ name: 'a', body: '1' }] },
  { rule: 'MP-P-06', what: 'allow_cr with allow_lf: CR, LF and CRLF mixed', body: `--b\r${CD('a').slice(0, -2)}\n\r\nx\r--b\n${CD('c').slice(0, -2)}\r\ry\n--b--`, options: { allowCr: true, allowLf: true }, parts: [{ body: 'x' }, { body: 'y' }] },
  { rule: 'MP-P-06', what: 'allow_cr without allow_lf: LF--b is data', body: `--b\r${CD('a').slice(0, -2)}\r\rx\n--b\r--b--`, options: { allowCr: true }, parts: [{ body: 'x\n--b' }] },
  { rule: 'MP-L-02', what: 'allow_cr: the CR of CR--b is no body byte', body: `--b\r${CD('a').slice(0, -2)}\r\rabcd\r--b--`, options: { allowCr: true, maxFieldBytes: 4 }, parts: [{ body: 'abcd' }] },
  { rule: 'MP-L-02', what: 'allow_cr: over max_field_bytes', body: `--b\r${CD('a').slice(0, -2)}\r\rabcd\r--b--`, options: { allowCr: true, maxFieldBytes: 3 }, error: ['MP_LIMIT_FIELD_BYTES', 'd\r--b--'] },
  { rule: 'MP-P-03', what: 'allow_near_delimiters: CRLF--b-y and CRLF--b CR y are body data', body: field('a', 'x\r\n--b-y\r\n--b\ry') + END, options: { allowNearDelimiters: true }, parts: [{ body: 'x\r\n--b-y\r\n--b\ry' }] },
  { rule: 'MP-P-03', what: 'strict: CRLF--b CR y fails at y', body: field('a', 'x\r\n--b\ry') + END, error: ['MP_DELIMITER', 'y\r\n'] },
  { rule: 'MP-P-03', what: 'allow_near_delimiters: a chain, then --b- CR CR LF--b--', body: field('a', 'x\r\n--b-\r\n--b\r\r\n--b-\r') + END, options: { allowNearDelimiters: true }, parts: [{ body: 'x\r\n--b-\r\n--b\r\r\n--b-\r' }] },
  { rule: 'MP-P-03', what: 'allow_near_delimiters: real delimiters (padding, CRLF, close) still end the body', body: field('a', 'x') + '--b \r\n' + CD('c') + '\r\ny\r\n--b--', options: { allowNearDelimiters: true }, parts: [{ body: 'x' }, { body: 'y' }] },
  { rule: 'MP-P-07', what: 'allow_near_delimiters: input ending at --b- inside a body', body: field('a', 'x').slice(0, -2) + '\r\n--b-', options: { allowNearDelimiters: true }, error: ['MP_TRUNCATED', field('a', 'x').length + 4] },
  { rule: 'MP-P-07', what: 'allow_near_delimiters: input ending at --b CR inside a body', body: field('a', 'x').slice(0, -2) + '\r\n--b\r', options: { allowNearDelimiters: true }, error: ['MP_TRUNCATED', field('a', 'x').length + 4] },
  { rule: 'MP-P-02', what: 'allow_near_delimiters: not for the first delimiter', body: '--b-x\r\n', options: { allowNearDelimiters: true }, error: ['MP_DELIMITER', 4] },
  { rule: 'MP-P-02', what: 'allow_near_delimiters: not for the first delimiter after a preamble', body: 'pre\r\n--b-x\r\n' + field('a', '1') + END, options: { allowNearDelimiters: true, allowPreamble: true }, error: ['MP_DELIMITER', 'x'] },
  { rule: 'MP-P-03', what: 'allow_near_delimiters: padding then junk still fails', body: field('a', 'x') + '--b x\r\n' + END, options: { allowNearDelimiters: true }, error: ['MP_DELIMITER', 'x\r\n--b--'] },
  { rule: 'MP-L-02', what: 'allow_near_delimiters: the lookalike counts for max_file_bytes', body: `--b\r\n${CD('f', '; filename="f"')}\r\nab\r\n--b-x\r\n` + END, options: { allowNearDelimiters: true, maxFileBytes: 3 }, error: ['MP_LIMIT_FILE_BYTES', '\n--b-x'] },
  { rule: 'MP-L-04', what: 'allow_near_delimiters: the lookalike counts for max_total_field_bytes', body: field('a', 'ab\r\n--b-x') + field('c', 'y') + END, options: { allowNearDelimiters: true, maxTotalFieldBytes: 9 }, error: ['MP_LIMIT_TOTAL_FIELD_BYTES', 'y\r\n--b--'] },
  { rule: 'MP-P-05', what: 'allow_near_delimiters with allow_junk_after_close', body: field('a', 'x\r\n--b-y') + '--b--junk', options: { allowNearDelimiters: true, allowJunkAfterClose: true }, parts: [{ body: 'x\r\n--b-y' }] },
  { rule: 'MP-P-03', what: 'allow_near_delimiters with allow_lf: LF--b-x is data', body: `--b\n${CD('a').slice(0, -2)}\n\nx\n--b-x\r\n--b\ry\n--b--`, options: { allowNearDelimiters: true, allowLf: true }, parts: [{ body: 'x\n--b-x\r\n--b\ry' }] },
  { rule: 'MP-P-03', what: 'allow_near_delimiters with allow_cr: the CR ends the line, CR--b-x is data', body: field('a', 'x\r--b-x') + '--b\r' + CD('c').slice(0, -2) + '\r\ry\r--b--', options: { allowNearDelimiters: true, allowCr: true }, parts: [{ body: 'x\r--b-x' }, { name: 'c', body: 'y' }] },
  { rule: 'MP-H-07', what: 'allow_8bit_parameter_names: A0filename is ignored', body: `--b\r\nContent-Disposition: form-data; name="a";\xa0filename="a.txt"; f\xc3\xa9=x; name\xff="b"\r\n\r\n1\r\n` + END, options: { allow8bitParameterNames: true }, parts: [{ name: 'a', filename: null }] },
  { rule: 'MP-H-07', what: 'strict: a byte 80-FF in a parameter name fails', body: `--b\r\nContent-Disposition: form-data; name="a";\xa0filename="a.txt"\r\n\r\n1\r\n` + END, error: ['MP_DISPOSITION', 5] },
  { rule: 'MP-H-07', what: 'allow_8bit_parameter_names: the parameter after it counts', body: `--b\r\nContent-Disposition: form-data; \xa0x=1; name="a"; filename="f"\r\n\r\n1\r\n` + END, options: { allow8bitParameterNames: true }, parts: [{ name: 'a', filename: 'f' }] },
  { rule: 'MP-H-07', what: 'allow_8bit_parameter_names: its value must still be valid', body: `--b\r\nContent-Disposition: form-data; name="a"; \xa0x=\r\n\r\n1\r\n` + END, options: { allow8bitParameterNames: true }, error: ['MP_DISPOSITION', 5] },
  { rule: 'MP-H-07', what: 'allow_8bit_parameter_names: not in the type', body: `--b\r\nContent-Disposition: form-data\xa0; name="a"\r\n\r\n1\r\n` + END, options: { allow8bitParameterNames: true, allowAnyDispositionType: true }, error: ['MP_DISPOSITION', 5] },
  { rule: 'MP-H-08', what: 'allow_8bit_parameter_names: \\xa0name is no name', body: `--b\r\nContent-Disposition: form-data; \xa0name="a"\r\n\r\n1\r\n` + END, options: { allow8bitParameterNames: true }, error: ['MP_DISPOSITION', 5] },
  { rule: 'MP-H-09', what: 'allow_rfc2231_continuations: joined, percent-decoded where marked', body: `--b\r\nContent-Disposition: form-data; name="f"; filename*1*=%20b%2; filename*0*=UTF-8'en'%C3%A9t%c3%A9; filename*2=".txt"; filename*4=x\r\n\r\n1\r\n` + END, options: { allowRfc2231Continuations: true }, parts: [{ name: 'f', filename: '\u00e9t\u00e9 b%2.txt', type: 'text/plain', filenameStar: null }] },
  { rule: 'MP-H-09', what: 'strict: continuations are ignored', body: `--b\r\nContent-Disposition: form-data; name="f"; filename*0="a"; filename*1="b"\r\n\r\n1\r\n` + END, parts: [{ name: 'f', filename: null, type: null }] },
  { rule: 'MP-H-09', what: 'allow_rfc2231_continuations: filename wins, filename* stays raw', body: `--b\r\nContent-Disposition: form-data; name="f"; filename*0="evil"; filename*=utf-8''x; filename="safe"\r\n\r\n1\r\n` + END, options: { allowRfc2231Continuations: true }, parts: [{ filename: 'safe', filenameStar: "utf-8''x" }] },
  { rule: 'MP-H-09', what: 'allow_rfc2231_continuations: no *0, a leading zero, name*0 and filename** give nothing', body: `--b\r\nContent-Disposition: form-data; name="f"; filename*1="b"; FILENAME*01="c"; name*0="x"; filename**=y\r\n\r\n1\r\n` + END, options: { allowRfc2231Continuations: true }, parts: [{ name: 'f', filename: null }] },
  { rule: 'MP-H-09', what: 'allow_rfc2231_continuations: the same N twice fails', body: `--b\r\nContent-Disposition: form-data; name="f"; filename*0="a"; FileName*0*=''b\r\n\r\n1\r\n` + END, options: { allowRfc2231Continuations: true }, error: ['MP_DISPOSITION', 5] },
  { rule: 'MP-H-09', what: "allow_rfc2231_continuations: filename*0* without charset'language' fails", body: `--b\r\nContent-Disposition: form-data; name="f"; filename*0*=utf-8'a\r\n\r\n1\r\n` + END, options: { allowRfc2231Continuations: true }, error: ['MP_DISPOSITION', 5] },
  { rule: 'MP-H-09', what: 'allow_rfc2231_continuations with the quoted-pair reading', body: `--b\r\nContent-Disposition: form-data; name="a\\"b"; filename*0="c\\"d"; filename*1*="%41\\%42"\r\n\r\n1\r\n` + END, options: { allowRfc2231Continuations: true }, parts: [{ name: 'a"b', filename: 'c"dAB' }] },
  { rule: 'MP-H-09', what: 'allow_rfc2231_continuations with allow_8bit_parameter_names: filename*0\\xa0 is no continuation', body: `--b\r\nContent-Disposition: form-data; name="f"; filename*0\xa0="a"; filename*0="b"\r\n\r\n1\r\n` + END, options: { allowRfc2231Continuations: true, allow8bitParameterNames: true }, parts: [{ filename: 'b' }] },
  { rule: 'MP-L-05', what: 'allow_rfc2231_continuations: a joined filename makes a file part', body: field('a', '1') + `--b\r\nContent-Disposition: form-data; name="f"; filename*0=x\r\n\r\nabcd\r\n` + END, options: { allowRfc2231Continuations: true, maxFileBytes: 3 }, error: ['MP_LIMIT_FILE_BYTES', 'd\r\n--b--'] },
  { rule: 'MP-R-02', what: 'the four newer options together', body: `--b\rContent-Disposition: form-data; name="a";\xa0x=1; filename*0="f.txt"\r\r1\r\n--b-x\r--b--`, options: { allowCr: true, allowNearDelimiters: true, allow8bitParameterNames: true, allowRfc2231Continuations: true }, parts: [{ name: 'a', filename: 'f.txt', body: '1\r\n--b-x' }] },
  { rule: 'MP-B-02', what: 'quoted boundary with specials', ct: 'multipart/form-data; boundary="a.b(c)"', body: '--a.b(c)\r\n' + CD('a') + '\r\n1\r\n--a.b(c)--', parts: [{ body: '1' }] },
  { rule: 'MP-B-02', what: 'non-ASCII boundary is UTF-8', ct: 'multipart/form-data; boundary="b\u00e9"', body: '--b\xc3\xa9\r\n' + CD('a') + '\r\n1\r\n--b\xc3\xa9--', parts: [{ body: '1' }] },
  { rule: 'MP-B-01', what: 'not multipart/form-data', ct: 'multipart/mixed; boundary=b', body: END, error: ['MP_CONTENT_TYPE', 0] },
  { rule: 'MP-B-03', what: 'missing boundary', ct: 'multipart/form-data', body: END, error: ['MP_BOUNDARY', 0] },
  { rule: 'MP-B-03', what: 'empty boundary', ct: 'multipart/form-data; boundary=""', body: END, error: ['MP_BOUNDARY', 0] },
  { rule: 'MP-B-04', what: 'boundary too long', ct: 'multipart/form-data; boundary=' + 'x'.repeat(257), body: END, error: ['MP_LIMIT_BOUNDARY', 0] },
  { rule: 'MP-B-04', what: "a 71-byte boundary (werkzeug's test client) parses", ct: 'multipart/form-data; boundary=' + 'w'.repeat(71), body: `--${'w'.repeat(71)}\r\n${CD('a')}\r\n1\r\n--${'w'.repeat(71)}--`, parts: [{ name: 'a', body: '1' }] },
  { rule: 'MP-B-04', what: 'max_boundary_bytes 70', ct: 'multipart/form-data; boundary=' + 'w'.repeat(71), body: END, options: { maxBoundaryBytes: 70 }, error: ['MP_LIMIT_BOUNDARY', 0] },
];

function check(c: Case, out: Outcome, how: string): void {
  const body = bin(c.body);
  if (c.error) {
    const off = typeof c.error[1] === 'number' ? c.error[1] : c.body.indexOf(c.error[1]);
    assert.deepEqual(out, { error: { code: c.error[0], offset: off } }, `${c.rule} ${c.what} (${how})`);
    return;
  }
  assert.ok('parts' in out, `${c.rule} ${c.what} (${how}): ${JSON.stringify(out)} (${body.length} bytes)`);
  assert.equal(out.parts.length, c.parts!.length, `${c.rule} ${c.what}: number of parts`);
  c.parts!.forEach((want, k) => {
    for (const [key, v] of Object.entries(want)) {
      assert.deepEqual((out.parts[k] as unknown as Record<string, unknown>)[key], v, `${c.rule} ${c.what} (${how}): part ${k} ${key}`);
    }
  });
}

for (const c of cases) {
  test(`${c.rule}: ${c.what}`, () => {
    const body = bin(c.body);
    const ct = c.ct ?? CT;
    const whole = run(body, ct, c.options);
    check(c, whole, 'whole');
    for (const chunks of allChunkings(body)) {
      assert.deepEqual(run(body, ct, c.options, chunks), whole, `${c.rule} ${c.what}: chunking ${chunks.map((x) => x.length).join(',')}`);
    }
    // the pure fallback search gives the same result
    assert.deepEqual(run(body, ct, c.options, [body], indexOfFallback), whole);
  });
}

test('MP-H-09: joined filenames stay right when the header slab fills up (both quoted-string readings)', () => {
  // Long continuations in many parts: some joined filename does not fit after its block's headers, so the block
  // moves to a new slab on the way (addFilename's ensure).
  let text = '';
  const want: Array<{ name: string; filename: string }> = [];
  for (let k = 0; k < 60; k++) {
    const a = String.fromCharCode(0x61 + (k % 26)).repeat(300 + ((k * 977) % 3000));
    const b = 'z'.repeat(200 + ((k * 331) % 1500));
    const esc = k % 2 === 1; // a quoted-pair in the name: the quoted-pair reading, so unescapeValues runs too
    text += `--b\r\nContent-Disposition: form-data; name="n${k}${esc ? '\\"' : ''}"; filename*0*=''${a}%2F; filename*1="${b}"\r\n\r\n${k}\r\n`;
    want.push({ name: `n${k}${esc ? '"' : ''}`, filename: `${a}/${b}` });
  }
  const body = bin(text + END);
  // small chunks: the slab grows by what each chunk needs, so it is full more often
  const chunksOf = (size: number) => Array.from({ length: Math.ceil(body.length / size) }, (_, i) => body.subarray(i * size, (i + 1) * size));
  for (const chunks of [[body], chunksOf(13), chunksOf(1000)]) {
    const out = run(body, CT, { allowRfc2231Continuations: true, maxHeaderBytes: 8192 }, chunks);
    assert.ok('parts' in out, JSON.stringify(out));
    assert.deepEqual(out.parts.map((p) => ({ name: p.name, filename: p.filename })), want);
    out.parts.forEach((p, k) => assert.equal(p.body, String(k)));
  }
});
