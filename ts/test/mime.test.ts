/** WHATWG MIME Sniffing §4.4/§4.5 (MP-B-01, MP-F-03): cases from WPT mimesniff/mime-types/resources/mime-types.json. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMimeType, serializeMimeType, extractMimeType } from '../src/index.js';

const CASES: Array<[string, string | null]> = [
  ['text/html;charset=gbk', 'text/html;charset=gbk'],
  ['TEXT/HTML;CHARSET=GBK', 'text/html;charset=GBK'],
  ['text/html;charset=gbk(', 'text/html;charset="gbk("'],
  ['text/html;x=(;charset=gbk', 'text/html;x="(";charset=gbk'],
  ['text/html;charset=gbk;charset=windows-1255', 'text/html;charset=gbk'],
  ['text/html;charset=();charset=GBK', 'text/html;charset="()"'],
  ['text/html;charset =gbk', 'text/html'],
  ['text/html ;charset=gbk', 'text/html;charset=gbk'],
  ['text/html; charset=gbk', 'text/html;charset=gbk'],
  ['text/html;charset= gbk', 'text/html;charset=" gbk"'],
  ['text/html;charset="gbk"', 'text/html;charset=gbk'],
  ['text/html;charset="gbk', 'text/html;charset=gbk'],
  ['text/html;charset=gbk"', 'text/html;charset="gbk\\""'],
  ['text/html;charset="\\ gbk"', 'text/html;charset=" gbk"'],
  ['text/html;charset="\\g\\b\\k"', 'text/html;charset=gbk'],
  ['text/html;charset="gbk"x', 'text/html;charset=gbk'],
  ['text/html;charset="";charset=GBK', 'text/html;charset=""'],
  ['text/html;charset=;charset=GBK', 'text/html;charset=GBK'],
  ['text/html;charset=\u00e5', 'text/html;charset="\u00e5"'],
  ['text/html;charset=\u0100', 'text/html'],
  ['/html', null],
  ['text/', null],
  ['text /html', null],
  ['te xt/html', null],
  ['text/html;', 'text/html'],
  ['x/x;test', 'x/x'],
  ['x/x;x= ', 'x/x'],
  ['x/x\n\r\t ;x=x', 'x/x;x=x'],
  ['\n\r\t x/x;x=x\n\r\t ', 'x/x;x=x'],
  ['x/x;\n\r\t x=x\n\r\t ;x=y', 'x/x;x=x'],
  ['multipart/form-data; boundary="a.b(c)"', 'multipart/form-data;boundary="a.b(c)"'],
];

test('parse then serialize', () => {
  for (const [input, want] of CASES) {
    const m = parseMimeType(input);
    assert.equal(m === null ? null : serializeMimeType(m), want, JSON.stringify(input));
  }
});

test('Fetch extract a MIME type: last valid wins, */* skipped, charset carried over', () => {
  const s = (v: string[]) => {
    const m = extractMimeType(v);
    return m === null ? null : serializeMimeType(m);
  };
  assert.equal(s(['text/plain;charset=gbk, text/html']), 'text/html');
  assert.equal(s(['text/html;charset=gbk', 'text/html']), 'text/html;charset=gbk');
  assert.equal(s(['text/html;charset=gbk', 'text/html;x=", text/plain"']), 'text/html;x=", text/plain";charset=gbk');
  assert.equal(s(['text/plain', '*/*']), 'text/plain');
  assert.equal(s(['*/*']), null);
  assert.equal(s(['']), null);
  assert.equal(s(['text/html', 'bogus']), 'text/html');
});
