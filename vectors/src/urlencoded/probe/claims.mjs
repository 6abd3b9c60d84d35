// Checks the Node-side claims of spec/urlencoded.md §5 (UE-D-06..10) by running the parsers.
// Run through run.sh (it installs qs and fast-querystring into ./node_modules first).
import { createRequire } from 'node:module';
import querystring from 'node:querystring';

const require = createRequire(import.meta.url);
const qs = require('qs');
const fqs = require('fast-querystring');

let confirmed = 0;
let contradicted = 0;
function claim(id, what, actual, expected) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a === e) { confirmed += 1; console.log(`  confirmed ${id}: ${what}`); } else {
    contradicted += 1;
    console.log(`  CONTRADICTED ${id}: ${what}\n    observed ${a}\n    claimed  ${e}`);
  }
}
const pairs = (n) => Array.from({ length: n }, (_, i) => `k${i}=v`).join('&');
const keys = (o) => Object.keys(o).length;
async function formData(bytes) {
  const r = new Response(bytes, { headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  return [...(await r.formData())];
}

console.log(`node ${process.version}, undici ${process.versions.undici}, qs ${require('qs/package.json').version}, fast-querystring ${require('fast-querystring/package.json').version}`);

// UE-D-06 querystring
claim('UE-D-06', 'querystring maxKeys 1000 silently truncates 1001 pairs', keys(querystring.parse(pairs(1001))), 1000);
claim('UE-D-06', 'querystring counts empty sequences toward maxKeys', querystring.parse('&'.repeat(999) + 'a=1&b=2'), { a: '1' });
claim('UE-D-06', 'querystring maxKeys 0 is unlimited', keys(querystring.parse(pairs(1001), null, null, { maxKeys: 0 })), 1001);
claim('UE-D-06', 'querystring repeated names become arrays', querystring.parse('a=1&b=2&a=3'), { a: ['1', '3'], b: '2' });
claim('UE-D-06', 'querystring keeps invalid % literally', querystring.parse('a=%zz%41'), { a: '%zzA' });
claim('UE-D-06', 'querystring U+FFFD for bad UTF-8', querystring.parse('a=%C0%AF&b=%E2%82'), { a: '\uFFFD\uFFFD', b: '\uFFFD' });
claim('UE-D-06', 'querystring.stringify lone-surrogate bug', querystring.stringify({ k: 'a\uD800b' }), 'k=a%F0%90%81%A2');
claim('UE-D-06', 'querystring.stringify space %20, keeps !\'()*~', querystring.stringify({ k: " !'()*~" }), "k=%20!'()*~");

// UE-D-07 qs
claim('UE-D-07', 'qs parameterLimit 1000 silently truncates', keys(qs.parse(pairs(1001))), 1000);
claim('UE-D-07', 'qs counts empty sequences toward parameterLimit', qs.parse('&'.repeat(999) + 'a=1&b=2'), { a: '1' });
let thrown = null;
try { qs.parse(pairs(1001), { throwOnLimitExceeded: true }); } catch (e) { thrown = e.constructor.name; }
claim('UE-D-07', 'qs throwOnLimitExceeded throws RangeError', thrown, 'RangeError');
claim('UE-D-07', 'qs leaves a component with a bad escape wholly undecoded', qs.parse('a=%zz%41&b=%41'), { a: '%zz%41', b: 'A' });
claim('UE-D-07', 'qs leaves invalid UTF-8 undecoded', qs.parse('%C0%AF=x&y=%E2%82'), { '%C0%AF': 'x', y: '%E2%82' });
claim('UE-D-07', 'qs drops empty names', qs.parse('a&b=&=c&='), { a: '', b: '' });
claim('UE-D-07', 'qs drops __proto__ and constructor', qs.parse('__proto__=x&constructor=y'), {});
claim('UE-D-07', 'qs nests brackets', qs.parse('a[b]=c&a[]=d'), { a: { 0: 'd', b: 'c' } });
claim('UE-D-07', 'qs.stringify space %20, escapes *, keeps ~', qs.stringify({ k: ' *~' }), 'k=%20%2A~');

// UE-D-08 fast-querystring
claim('UE-D-08', 'fast-querystring has no pair limit', keys(fqs.parse(pairs(20001))), 20001);
claim('UE-D-08', 'fast-querystring leaves bad components undecoded', fqs.parse('a=%zz%41&%C0%AF=x&b=%E2%82'), { a: '%zz%41', '%C0%AF': 'x', b: '%E2%82' });
claim('UE-D-08', 'fast-querystring.stringify lone-surrogate bug', fqs.stringify({ k: 'a\uD800b' }), 'k=a%F0%90%81%A2');

// UE-D-09 URLSearchParams and Response.formData
claim('UE-D-09', 'URLSearchParams constructor strips one leading "?"', [...new URLSearchParams('?a=b')], [['a', 'b']]);
claim('UE-D-09', 'a leading "&" keeps the "?" (oracle trick)', [...new URLSearchParams('&?a=b')], [['?a', 'b']]);
claim('UE-D-09', 'Response.formData strips a leading "?"', await formData(Buffer.from('?a=b')), [['a', 'b']]);
claim('UE-D-09', 'Response.formData: %C3 then raw A9 is two U+FFFD', await formData(Buffer.from([0x61, 0x3d, 0x25, 0x43, 0x33, 0xa9])), [['a', '\uFFFD\uFFFD']]);
claim('UE-D-09', 'Response.formData: raw C3 then %A9 is two U+FFFD', await formData(Buffer.from([0x61, 0x3d, 0xc3, 0x25, 0x41, 0x39])), [['a', '\uFFFD\uFFFD']]);
claim('UE-D-09', 'URLSearchParams on %C3%A9 gives e-acute', [...new URLSearchParams('a=%C3%A9')], [['a', '\u00e9']]);

// UE-D-10 serializers
const S = ' !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~\u00e9';
claim('UE-D-10', 'URLSearchParams serializer', new URLSearchParams([['k', S]]).toString(),
  'k=+%21%22%23%24%25%26%27%28%29*%2B%2C-.%2F%3A%3B%3C%3D%3E%3F%40%5B%5C%5D%5E_%60%7B%7C%7D%7E%C3%A9');
claim('UE-D-10', 'querystring serializer', querystring.stringify({ k: S }),
  "k=%20!%22%23%24%25%26'()*%2B%2C-.%2F%3A%3B%3C%3D%3E%3F%40%5B%5C%5D%5E_%60%7B%7C%7D~%C3%A9");
claim('UE-D-10', 'fast-querystring serializer', fqs.stringify({ k: S }),
  "k=%20!%22%23%24%25%26'()*%2B%2C-.%2F%3A%3B%3C%3D%3E%3F%40%5B%5C%5D%5E_%60%7B%7C%7D~%C3%A9");
claim('UE-D-10', 'qs serializer', qs.stringify({ k: S }),
  'k=%20%21%22%23%24%25%26%27%28%29%2A%2B%2C-.%2F%3A%3B%3C%3D%3E%3F%40%5B%5C%5D%5E_%60%7B%7C%7D~%C3%A9');
claim('UE-S-01', 'URLSearchParams replaces a lone surrogate with U+FFFD', new URLSearchParams([['k', 'a\uD800b']]).toString(), 'k=a%EF%BF%BDb');

console.log(`node claims: ${confirmed} confirmed, ${contradicted} contradicted`);
process.exitCode = contradicted ? 1 : 0;
