#!/usr/bin/env node
// Writes the application/x-www-form-urlencoded vectors: vectors/urlencoded/{accept,reject}/.
//
//   node vectors/src/urlencoded/generate.mjs           regenerate (rewrites its own files in accept/ and reject/;
//                                                       files of other writers, e.g. cap-* captures, are left alone)
//   node vectors/src/urlencoded/generate.mjs --check   verify the committed files equal what would be written
//
// Every expectation below is written by hand from spec/urlencoded.md. Before anything is written each one is
// checked against an oracle, and any disagreement aborts the run (exit 1, nothing written):
//   - parse cases: Node's URLSearchParams (WHATWG URL §5.1) must give the same pairs. The oracle string starts with
//     "&" (an empty sequence, UE-P-03) so the constructor's "?" stripping (URL §6.2) never applies, and every byte
//     >= 0x80 is written as %XX so raw non-UTF-8 input reaches the byte parser unchanged (UE-D-09). Valid UTF-8
//     inputs are also fed as plain strings.
//   - serialize cases: new URLSearchParams(pairs).toString() must give the same text, and parsing the text must
//     give the pairs back (UE-S-07).
//   - limit cases: an independent byte-at-a-time computation of UE-L-01..04 must give the same code and offset, and
//     accepted cases with limits must not trip it.
//   - every cited rule ID must be defined in spec/urlencoded.md; ids must be unique and well formed.
// Zero dependencies (Node >= 20).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../../..');
const OUT = path.join(ROOT, 'vectors', 'urlencoded');
const SPEC = path.join(ROOT, 'spec', 'urlencoded.md');

const OWN_ID = /^(wpt-ue-|ue-|cve-|gen-ue-)/; // the ids this script writes (and may delete)
// Default limits from the one registry (spec/registry.json).
const LIMITS = Object.fromEntries(
  JSON.parse(fs.readFileSync(path.join(HERE, '..', '..', '..', 'spec', 'registry.json'), 'utf8'))
    .limits.filter((l) => l.format === 'urlencoded').map((l) => [l.name, l.default]));
const DEFAULT_MAX_PAIRS = LIMITS.max_pairs;
const DEFAULT_MAX_BYTES = LIMITS.max_bytes;

const FFFD = '\uFFFD';
const WPT_PARSER = 'WPT url/urlencoded-parser.any.js (data url/resources/urlencoded-parser-data.json): URLSearchParams constructed with: ';
const WPT_CTOR = 'WPT url/urlsearchparams-constructor.any.js: ';
const WPT_STR = 'WPT url/urlsearchparams-stringifier.any.js: ';

// ---------------------------------------------------------------------------------------------------------------
// Case builders

const cases = [];

/** Raw bytes from pieces: JS strings (UTF-8 encoded), arrays of byte values, Buffers. */
function raw(...pieces) {
  return Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));
}

/**
 * A parse case. `input` is a string (its UTF-8 bytes), a Buffer (raw bytes) or {generate: recipe}.
 * `store`: 'file' writes <id>.txt; otherwise text when the bytes are UTF-8, else base64.
 */
function parse(id, { input, pairs, rules, description, source, options, store }) {
  cases.push({ id, kind: 'urlencoded-parse', input, pairs, rules, description, source, options, store });
}

function reject(id, { input, code, offset, rules, description, source, options, store }) {
  cases.push({ id, kind: 'urlencoded-parse', input, error: { code, offset }, rules, description, source, options, store });
}

function serialize(id, { pairs, text, rules, description, source }) {
  cases.push({ id, kind: 'urlencoded-serialize', pairs, text, rules, description, source });
}

const rep = (pieces, count) => ({ repeat: pieces, count });
const txt = (text) => ({ text });

// ---------------------------------------------------------------------------------------------------------------
// WPT url/resources/urlencoded-parser-data.json: every entry, expectations as in WPT.

const wptParser = [
  ['name-only', 'test', [['test', '']], ['UE-P-04']],
  ['raw-bom', '\uFEFFtest=\uFEFF', [['\uFEFFtest', '\uFEFF']], ['UE-P-08']],
  ['pct-bom', '%EF%BB%BFtest=%EF%BB%BF', [['\uFEFFtest', '\uFEFF']], ['UE-P-07', 'UE-P-08']],
  ['pct-uffff', '%EF%BF%BF=%EF%BF%BF', [['\uFFFF', '\uFFFF']], ['UE-P-08']],
  ['pct-fe-ff', '%FE%FF', [[FFFD + FFFD, '']], ['UE-P-08']],
  ['pct-ff-fe', '%FF%FE', [[FFFD + FFFD, '']], ['UE-P-08']],
  ['raw-dagger', '\u2020&\u2020=x', [['\u2020', ''], ['\u2020', 'x']], ['UE-P-01', 'UE-P-08']],
  ['pct-c2', '%C2', [[FFFD, '']], ['UE-P-08', 'UE-P-10']],
  ['pct-c2-x', '%C2x', [[FFFD + 'x', '']], ['UE-P-08']],
  ['charset-ignored', '_charset_=windows-1252&test=%C2x', [['_charset_', 'windows-1252'], ['test', FFFD + 'x']], ['UE-P-08', 'UE-P-09']],
  ['empty', '', [], ['UE-P-03']],
  ['a', 'a', [['a', '']], ['UE-P-04']],
  ['a-eq-b', 'a=b', [['a', 'b']], ['UE-P-04']],
  ['a-eq', 'a=', [['a', '']], ['UE-P-05']],
  ['eq-b', '=b', [['', 'b']], ['UE-P-05']],
  ['amp', '&', [], ['UE-P-03']],
  ['amp-a', '&a', [['a', '']], ['UE-P-03']],
  ['a-amp', 'a&', [['a', '']], ['UE-P-03']],
  ['a-amp-a', 'a&a', [['a', ''], ['a', '']], ['UE-P-09']],
  ['a-b-c', 'a&b&c', [['a', ''], ['b', ''], ['c', '']], ['UE-P-02', 'UE-P-04']],
  ['two-pairs', 'a=b&c=d', [['a', 'b'], ['c', 'd']], ['UE-P-02']],
  ['two-pairs-trailing-amp', 'a=b&c=d&', [['a', 'b'], ['c', 'd']], ['UE-P-03']],
  ['many-amps', '&&&a=b&&&&c=d&', [['a', 'b'], ['c', 'd']], ['UE-P-03']],
  ['repeated-name', 'a=a&a=b&a=c', [['a', 'a'], ['a', 'b'], ['a', 'c']], ['UE-P-09']],
  ['a-eq-eq-a', 'a==a', [['a', '=a']], ['UE-P-04']],
  ['plus-spaces', 'a=a+b+c+d', [['a', 'a b c d']], ['UE-P-06']],
  ['pct-alone', '%=a', [['%', 'a']], ['UE-P-07']],
  ['pct-one-hex', '%a=a', [['%a', 'a']], ['UE-P-07']],
  ['pct-hex-nonhex', '%a_=a', [['%a_', 'a']], ['UE-P-07']],
  ['pct-61', '%61=a', [['a', 'a']], ['UE-P-07']],
  ['pct-mixed-case', '%61+%4d%4D=', [['a MM', '']], ['UE-P-06', 'UE-P-07']],
  ['pct-at-end', 'id=0&value=%', [['id', '0'], ['value', '%']], ['UE-P-07', 'UE-P-10']],
  ['pct-2s', 'b=%2sf%2a', [['b', '%2sf*']], ['UE-P-07']],
  ['pct-2-pct', 'b=%2%2af%2a', [['b', '%2*f*']], ['UE-P-07']],
  ['pct-pct', 'b=%%2a', [['b', '%*']], ['UE-P-07']],
];
for (const [slug, input, pairs, rules] of wptParser) {
  parse(`wpt-ue-parser-${slug}`, {
    input, pairs, rules,
    description: `WPT urlencoded parser data: ${JSON.stringify(input)}`,
    source: WPT_PARSER + input,
  });
}

// ---------------------------------------------------------------------------------------------------------------
// WPT url/urlsearchparams-constructor.any.js: the string inputs (parsed) and the record/sequence inputs without
// lone surrogates (serialized; lone surrogates are UE-S-01, tested per language).

const wptCtorParse = [
  ['a-b-c-bare', 'URLSearchParams constructor, string.', 'a=b&c', [['a', 'b'], ['c', '']], ['UE-P-04']],
  ['spaces-and-amps', 'URLSearchParams constructor, string.', '&a&&& &&&&&a+b=& c&m%c3%b8%c3%b8',
    [['a', ''], [' ', ''], ['a b', ''], [' c', ''], ['m\u00f8\u00f8', '']], ['UE-P-03', 'UE-P-05', 'UE-P-06', 'UE-P-07', 'UE-P-08']],
  ['plus-value', 'Parse +', 'a=b+c', [['a', 'b c']], ['UE-P-06']],
  ['plus-name', 'Parse +', 'a+b=c', [['a b', 'c']], ['UE-P-06']],
  ['encoded-plus', 'Parse encoded +', 'query=%2B15555555555', [['query', '+15555555555']], ['UE-P-06', 'UE-P-07']],
  ['space-value', 'Parse space', 'a=b c', [['a', 'b c']], ['UE-P-05']],
  ['space-name', 'Parse space', 'a b=c', [['a b', 'c']], ['UE-P-05']],
  ['pct20-value', 'Parse %20', 'a=b%20c', [['a', 'b c']], ['UE-P-07']],
  ['pct20-name', 'Parse %20', 'a%20b=c', [['a b', 'c']], ['UE-P-07']],
  ['nul-value', 'Parse \\0', 'a=b\0c', [['a', 'b\0c']], ['UE-P-08']],
  ['nul-name', 'Parse \\0', 'a\0b=c', [['a\0b', 'c']], ['UE-P-08']],
  ['pct00-value', 'Parse %00', 'a=b%00c', [['a', 'b\0c']], ['UE-P-07', 'UE-P-08']],
  ['pct00-name', 'Parse %00', 'a%00b=c', [['a\0b', 'c']], ['UE-P-07', 'UE-P-08']],
  ['u2384-value', 'Parse \\u2384', 'a=b\u2384', [['a', 'b\u2384']], ['UE-P-01', 'UE-P-08']],
  ['u2384-name', 'Parse \\u2384', 'a\u2384b=c', [['a\u2384b', 'c']], ['UE-P-01', 'UE-P-08']],
  ['pct-u2384-value', 'Parse %e2%8e%84', 'a=b%e2%8e%84', [['a', 'b\u2384']], ['UE-P-07', 'UE-P-08']],
  ['pct-u2384-name', 'Parse %e2%8e%84', 'a%e2%8e%84b=c', [['a\u2384b', 'c']], ['UE-P-07', 'UE-P-08']],
  ['poo-value', 'Parse \\uD83D\\uDCA9', 'a=b\u{1F4A9}c', [['a', 'b\u{1F4A9}c']], ['UE-P-01', 'UE-P-08']],
  ['poo-name', 'Parse \\uD83D\\uDCA9', 'a\u{1F4A9}b=c', [['a\u{1F4A9}b', 'c']], ['UE-P-01', 'UE-P-08']],
  ['pct-poo-value', 'Parse %f0%9f%92%a9', 'a=b%f0%9f%92%a9c', [['a', 'b\u{1F4A9}c']], ['UE-P-07', 'UE-P-08']],
  ['pct-poo-name', 'Parse %f0%9f%92%a9', 'a%f0%9f%92%a9b=c', [['a\u{1F4A9}b', 'c']], ['UE-P-07', 'UE-P-08']],
];
for (const [slug, test, input, pairs, rules] of wptCtorParse) {
  parse(`wpt-ue-ctor-${slug}`, {
    input, pairs, rules,
    description: `WPT URLSearchParams constructor string ${JSON.stringify(input)}`,
    source: WPT_CTOR + test,
  });
}

parse('ue-parse-leading-question-mark', {
  input: '?a=b', pairs: [['?a', 'b']], rules: ['UE-P-09'],
  description: 'the parser keeps a leading "?" (only the URLSearchParams constructor strips it, UE-D-09)',
  source: WPT_CTOR + 'URLSearchParams constructor, remove leading "?" (constructor step, not the parser: URL §6.2)',
});

const wptCtorSerialize = [
  ['empty-list', 'URLSearchParams constructor, no arguments', [], '', ['UE-S-06']],
  ['a-b', 'Basic URLSearchParams construction', [['a', 'b']], 'a=b', ['UE-S-06']],
  ['record-plus', 'Construct with object with +', [['+', '%C2']], '%2B=%25C2', ['UE-S-05']],
  ['two-keys', 'Construct with array with two keys', [['c', 'x'], ['a', '?']], 'c=x&a=%3F', ['UE-S-05', 'UE-S-06']],
  ['nul-non-ascii', 'Construct with object with NULL, non-ASCII, and surrogate keys (without the surrogate key)',
    [['a\0b', '42'], ['d\u1234', 'foo']], 'a%00b=42&d%E1%88%B4=foo', ['UE-S-02', 'UE-S-05']],
  ['encoded-plus', 'Parse encoded +', [['query', '+15555555555']], 'query=%2B15555555555', ['UE-S-05']],
];
for (const [slug, test, pairs, text, rules] of wptCtorSerialize) {
  serialize(`wpt-ue-ctor-ser-${slug}`, {
    pairs, text, rules, description: `WPT URLSearchParams constructor, serialized: ${JSON.stringify(text)}`,
    source: WPT_CTOR + test,
  });
}

// ---------------------------------------------------------------------------------------------------------------
// WPT url/urlsearchparams-stringifier.any.js: every assertion.

const wptStringifier = [
  ['space-value', 'Serialize space', [['a', 'b c']], 'a=b+c', ['UE-S-03']],
  ['space-name', 'Serialize space', [['a b', 'c']], 'a+b=c', ['UE-S-03']],
  ['empty-value-1', 'Serialize empty value', [['a', '']], 'a=', ['UE-S-06']],
  ['empty-value-2', 'Serialize empty value', [['a', ''], ['a', '']], 'a=&a=', ['UE-S-06']],
  ['empty-value-3', 'Serialize empty value', [['a', ''], ['a', ''], ['', 'b']], 'a=&a=&=b', ['UE-S-06']],
  ['empty-value-4', 'Serialize empty value', [['a', ''], ['a', ''], ['', 'b'], ['', '']], 'a=&a=&=b&=', ['UE-S-06']],
  ['empty-value-5', 'Serialize empty value', [['a', ''], ['a', ''], ['', 'b'], ['', ''], ['', '']], 'a=&a=&=b&=&=', ['UE-S-06']],
  ['empty-name-1', 'Serialize empty name', [['', 'b']], '=b', ['UE-S-06']],
  ['empty-name-2', 'Serialize empty name', [['', 'b'], ['', 'b']], '=b&=b', ['UE-S-06']],
  ['empty-both-1', 'Serialize empty name and value', [['', '']], '=', ['UE-S-06']],
  ['empty-both-2', 'Serialize empty name and value', [['', ''], ['', '']], '=&=', ['UE-S-06']],
  ['plus-value', 'Serialize +', [['a', 'b+c']], 'a=b%2Bc', ['UE-S-05']],
  ['plus-name', 'Serialize +', [['a+b', 'c']], 'a%2Bb=c', ['UE-S-05']],
  ['eq-1', 'Serialize =', [['=', 'a']], '%3D=a', ['UE-S-05']],
  ['eq-2', 'Serialize =', [['=', 'a'], ['b', '=']], '%3D=a&b=%3D', ['UE-S-05']],
  ['amp-1', 'Serialize &', [['&', 'a']], '%26=a', ['UE-S-05']],
  ['amp-2', 'Serialize &', [['&', 'a'], ['b', '&']], '%26=a&b=%26', ['UE-S-05', 'UE-S-06']],
  ['unreserved-value', 'Serialize *-._', [['a', '*-._']], 'a=*-._', ['UE-S-04']],
  ['unreserved-name', 'Serialize *-._', [['*-._', 'c']], '*-._=c', ['UE-S-04']],
  ['pct-value', 'Serialize %', [['a', 'b%c']], 'a=b%25c', ['UE-S-05']],
  ['pct-name', 'Serialize %', [['a%b', 'c']], 'a%25b=c', ['UE-S-05']],
  ['pct-parsed', 'Serialize % (new URLSearchParams(\'id=0&value=%\'))', [['id', '0'], ['value', '%']], 'id=0&value=%25', ['UE-S-05']],
  ['nul-value', 'Serialize \\0', [['a', 'b\0c']], 'a=b%00c', ['UE-S-05']],
  ['nul-name', 'Serialize \\0', [['a\0b', 'c']], 'a%00b=c', ['UE-S-05']],
  ['poo-value', 'Serialize \\uD83D\\uDCA9', [['a', 'b\u{1F4A9}c']], 'a=b%F0%9F%92%A9c', ['UE-S-02', 'UE-S-05']],
  ['poo-name', 'Serialize \\uD83D\\uDCA9', [['a\u{1F4A9}b', 'c']], 'a%F0%9F%92%A9b=c', ['UE-S-02', 'UE-S-05']],
  ['tostring-empty-seqs', 'URLSearchParams.toString (\'a=b&c=d&&e&&\')', [['a', 'b'], ['c', 'd'], ['e', '']], 'a=b&c=d&e=', ['UE-S-06']],
  ['tostring-spaces', 'URLSearchParams.toString (\'a = b &a=b&c=d%20\')', [['a ', ' b '], ['a', 'b'], ['c', 'd ']], 'a+=+b+&a=b&c=d+', ['UE-S-03']],
  ['tostring-lone-eq', 'URLSearchParams.toString (\'a=&a=b\')', [['a', ''], ['a', 'b']], 'a=&a=b', ['UE-S-06']],
  ['tostring-pct-2s', 'URLSearchParams.toString (\'b=%2sf%2a\')', [['b', '%2sf*']], 'b=%252sf*', ['UE-S-04', 'UE-S-05']],
  ['tostring-pct-2-pct', 'URLSearchParams.toString (\'b=%2%2af%2a\')', [['b', '%2*f*']], 'b=%252*f*', ['UE-S-04', 'UE-S-05']],
  ['tostring-pct-pct', 'URLSearchParams.toString (\'b=%%2a\')', [['b', '%*']], 'b=%25*', ['UE-S-04', 'UE-S-05']],
  ['connected-url-1', 'URLSearchParams connected to URL', [['a', 'b,c']], 'a=b%2Cc', ['UE-S-05']],
  ['connected-url-2', 'URLSearchParams connected to URL', [['a', 'b,c'], ['x', 'y']], 'a=b%2Cc&x=y', ['UE-S-05', 'UE-S-06']],
  ['no-newline-normalization', 'URLSearchParams must not do newline normalization',
    [['a\nb', 'c\rd'], ['e\n\rf', 'g\r\nh']], 'a%0Ab=c%0Dd&e%0A%0Df=g%0D%0Ah', ['UE-S-05']],
];
for (const [slug, test, pairs, text, rules] of wptStringifier) {
  serialize(`wpt-ue-ser-${slug}`, {
    pairs, text, rules, description: `WPT stringifier: ${JSON.stringify(text)}`, source: WPT_STR + test,
  });
}

// The parse halves of the stringifier's toString tests.
const wptStringifierParse = [
  ['tostring-empty-seqs', 'a=b&c=d&&e&&', [['a', 'b'], ['c', 'd'], ['e', '']], ['UE-P-03', 'UE-P-04']],
  ['tostring-spaces', 'a = b &a=b&c=d%20', [['a ', ' b '], ['a', 'b'], ['c', 'd ']], ['UE-P-05', 'UE-P-07']],
  ['tostring-lone-eq', 'a=&a=b', [['a', ''], ['a', 'b']], ['UE-P-05', 'UE-P-09']],
  ['connected-url', 'a=b,c', [['a', 'b,c']], ['UE-P-04']],
];
for (const [slug, input, pairs, rules] of wptStringifierParse) {
  parse(`wpt-ue-str-parse-${slug}`, {
    input, pairs, rules, description: `WPT stringifier input parsed: ${JSON.stringify(input)}`,
    source: WPT_STR + 'URLSearchParams.toString / connected to URL (input side)',
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Ours: separators, `;` (advisory triggers), blanks.

parse('cve-2021-23336-semicolon-not-separator', {
  input: 'a=1;b=2', pairs: [['a', '1;b=2']], rules: ['UE-P-02', 'UE-D-01', 'UE-D-05'],
  description: '";" is data: a=1;b=2 is one pair',
  source: 'CVE-2021-23336 (CPython parse_qsl web cache poisoning, ";" as separator); GHSA-6jv3-5f52-599m',
});
parse('cve-ghsa-6jv3-5f52-599m-semicolon-smuggle', {
  input: 'role=user;role=admin&x=1', pairs: [['role', 'user;role=admin'], ['x', '1']], rules: ['UE-P-02'],
  description: 'a second parameter cannot be smuggled with ";"',
  source: 'GHSA-6jv3-5f52-599m (python-multipart < 0.0.30 split urlencoded bodies on ";")',
});
parse('cve-ghsa-5rvq-cxj2-64vf-many-semicolons', {
  input: { generate: [txt('a'), rep([txt(';a')], 50000)] },
  pairs: [['a' + ';a'.repeat(50000), '']], rules: ['UE-P-02', 'UE-P-04'],
  description: '100001 bytes of a;a;a... with no "&" is one name (the advisory was quadratic here)',
  source: 'GHSA-5rvq-cxj2-64vf (python-multipart < 0.0.30 rescanned for "&" at every ";")',
});
parse('ue-parse-semicolon-then-pair', {
  input: 'a=1;b=2&c=3', pairs: [['a', '1;b=2'], ['c', '3']], rules: ['UE-P-02', 'UE-D-01'],
  description: 'Go ParseQuery drops the first pair with an error; WHATWG keeps both', source: 'ours (Go net/url probe, UE-D-01)',
});
parse('ue-parse-semicolon-alone', {
  input: ';', pairs: [[';', '']], rules: ['UE-P-02', 'UE-P-04'], description: 'a lone ";" is a name', source: 'ours',
});
parse('ue-parse-semicolon-name', {
  input: 'a;b=c;d', pairs: [['a;b', 'c;d']], rules: ['UE-P-02'], description: '";" in name and value', source: 'ours',
});
parse('ue-parse-only-amps', {
  input: '&&&', pairs: [], rules: ['UE-P-03'], description: 'only separators: no pairs', source: 'ours',
});
parse('ue-parse-amp-eq-amp', {
  input: '&=&', pairs: [['', '']], rules: ['UE-P-03', 'UE-P-05'], description: '"=" between separators is one blank pair', source: 'ours',
});
parse('ue-parse-eq-only', {
  input: '=', pairs: [['', '']], rules: ['UE-P-04', 'UE-P-05'], description: '"=" alone: empty name, empty value', source: 'ours',
});
parse('ue-parse-eq-eq', {
  input: '==', pairs: [['', '=']], rules: ['UE-P-04', 'UE-P-05'], description: 'split at the first "="', source: 'ours',
});
parse('ue-parse-blanks-kept', {
  input: '=a&a=&=&a', pairs: [['', 'a'], ['a', ''], ['', ''], ['a', '']], rules: ['UE-P-05', 'UE-D-05'],
  description: 'every blank form is kept (parse_qsl drops three of them by default)', source: 'ours (Python parse_qsl probe, UE-D-05)',
});
parse('ue-parse-multi-eq', {
  input: 'a=b=c=d', pairs: [['a', 'b=c=d']], rules: ['UE-P-04'], description: 'later "=" belong to the value', source: 'ours',
});
parse('ue-parse-no-trim', {
  input: ' a = b ', pairs: [[' a ', ' b ']], rules: ['UE-P-05'], description: 'spaces are not trimmed', source: 'ours',
});
parse('ue-parse-eq-after-pct3d', {
  input: 'a=%3D=', pairs: [['a', '==']], rules: ['UE-P-04', 'UE-P-07'], description: 'decoded %3D and a raw "=" in a value', source: 'ours',
});

// `+` versus %2B (UE-P-06).
parse('ue-parse-plus-vs-pct2b', {
  input: 'a+b=c%2Bd', pairs: [['a b', 'c+d']], rules: ['UE-P-06', 'UE-P-07'], description: '"+" is a space, %2B is "+"', source: 'ours',
});
parse('ue-parse-pct2b-name-plus-value', {
  input: '%2B=+', pairs: [['+', ' ']], rules: ['UE-P-06', 'UE-P-07'], description: '%2B name, "+" value', source: 'ours',
});
parse('ue-parse-plus-before-pct', {
  input: 'a=%+41', pairs: [['a', '% 41']], rules: ['UE-P-06', 'UE-P-07'],
  description: '"+" becomes a space first, so "%+4" is not an escape', source: 'ours',
});
parse('ue-parse-pct-then-plus', {
  input: 'a=%2+', pairs: [['a', '%2 ']], rules: ['UE-P-06', 'UE-P-07'], description: '"%2" then "+" at the end', source: 'ours',
});
parse('ue-parse-plus-only', {
  input: '+=+&++', pairs: [[' ', ' '], ['  ', '']], rules: ['UE-P-06'], description: 'names and values made of "+"', source: 'ours',
});
parse('ue-parse-pct20-and-plus', {
  input: 'a=%20+%20', pairs: [['a', '   ']], rules: ['UE-P-06', 'UE-P-07'], description: '%20 and "+" both give a space', source: 'ours',
});

// Percent-decoding (UE-P-07).
const pct = [
  ['end-of-name', 'a%', [['a%', '']], 'a "%" ending a name without "="'],
  ['one-hex-at-end', 'a=%4', [['a', '%4']], '"%X" at the end of the input'],
  ['one-hex-then-nonhex', 'a=%4g', [['a', '%4g']], '"%X" followed by a non-hex byte'],
  ['zz', 'a=%zz', [['a', '%zz']], '"%zz" is kept'],
  ['g1-1g', 'a=%G1&b=%1G', [['a', '%G1'], ['b', '%1G']], 'G is not a hex digit'],
  ['pct-pct-41', 'a=%%41', [['a', '%A']], 'an invalid "%" then a valid escape'],
  ['2-pct-41', 'a=%2%41', [['a', '%2A']], '"%2" then %41'],
  ['no-double-decode', 'a=%2541', [['a', '%41']], 'one pass: %2541 gives "%41"'],
  ['hex-case', '%4a%4A%6a%6A=%c3%A9%C3%a9', [['JJjj', '\u00e9\u00e9']], 'upper, lower and mixed hex digits'],
  ['amp-eq-are-data', 'a%26b=c%3Dd&%3D=%26', [['a&b', 'c=d'], ['=', '&']], 'decoded "&" and "=" do not split'],
  ['does-not-span-amp', 'a=%&26=%=3D', [['a', '%'], ['26', '%=3D']], 'a "%" never takes bytes across "&" or "="'],
  ['does-not-span-eq', 'a%3=D', [['a%3', 'D']], '"%3" ends at "="'],
  ['before-amp', 'a=%&b=%4&c=%4', [['a', '%'], ['b', '%4'], ['c', '%4']], '"%" and "%X" ending values before "&" and at the end'],
  ['many-pct', '%%%=%%%', [['%%%', '%%%']], 'runs of "%"'],
  ['pct-2b-plus-mix', '%2B%2b+%2B', [['++ +', '']], '%2B in both cases next to "+"'],
];
for (const [slug, input, pairs, what] of pct) {
  parse(`ue-parse-pct-${slug}`, { input, pairs, rules: ['UE-P-07'], description: what, source: 'ours' });
}

{
  // Every byte 0x00-0xFF percent-encoded: 00-7F decode to themselves; 80-FF are 128 bytes that never form a valid
  // sequence (64 lone continuation bytes, then C0..FF each followed by another non-continuation byte or the end),
  // so each gives one U+FFFD.
  let upper = 'a=';
  let lower = 'a=';
  for (let b = 0; b < 256; b++) {
    upper += '%' + b.toString(16).toUpperCase().padStart(2, '0');
    lower += '%' + b.toString(16).padStart(2, '0');
  }
  let ascii = '';
  for (let b = 0; b < 128; b++) ascii += String.fromCharCode(b);
  const value = ascii + FFFD.repeat(128);
  parse('ue-parse-pct-every-byte-upper', {
    input: upper, pairs: [['a', value]], rules: ['UE-P-07', 'UE-P-08'],
    description: '%00..%FF: ASCII kept, each byte 80..FF alone is one U+FFFD', source: 'ours',
  });
  parse('ue-parse-pct-every-byte-lower', {
    input: lower, pairs: [['a', value]], rules: ['UE-P-07', 'UE-P-08'],
    description: '%00..%ff in lowercase hex', source: 'ours',
  });
}

// UTF-8 decode without BOM (UE-P-08).
parse('ue-parse-bom-raw-at-start', {
  input: raw([0xef, 0xbb, 0xbf], 'a=1'), pairs: [['\uFEFFa', '1']], rules: ['UE-P-08'], store: 'file',
  description: 'a raw BOM at offset 0 is kept as U+FEFF (the input file starts with EF BB BF)', source: 'ours (WPT keeps it too: \\uFEFFtest=\\uFEFF)',
});
parse('ue-parse-bom-double-at-start', {
  input: raw([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], '=x'), pairs: [['\uFEFF\uFEFF', 'x']], rules: ['UE-P-08'], store: 'file',
  description: 'two raw BOMs at the start are two U+FEFF', source: 'ours',
});
parse('ue-parse-bom-in-middle', {
  input: 'a=\uFEFF&\uFEFFb=\uFEFF\uFEFF', pairs: [['a', '\uFEFF'], ['\uFEFFb', '\uFEFF\uFEFF']], rules: ['UE-P-08'],
  description: 'raw U+FEFF inside names and values', source: 'ours',
});
parse('ue-parse-bom-pct-only', {
  input: '%EF%BB%BF', pairs: [['\uFEFF', '']], rules: ['UE-P-07', 'UE-P-08'], description: 'a percent-encoded BOM alone', source: 'ours',
});

const invalidUtf8 = [
  // slug, bytes, expected decoding, what
  ['overlong-2', [0xc0, 0xaf], FFFD + FFFD, 'overlong "/" C0 AF'],
  ['overlong-3', [0xe0, 0x80, 0xaf], FFFD.repeat(3), 'overlong E0 80 AF'],
  ['overlong-4', [0xf0, 0x80, 0x80, 0xaf], FFFD.repeat(4), 'overlong F0 80 80 AF'],
  ['c1', [0xc1, 0xbf], FFFD + FFFD, 'C1 is never a lead byte'],
  ['surrogate', [0xed, 0xa0, 0x80], FFFD.repeat(3), 'encoded surrogate ED A0 80'],
  ['above-max', [0xf4, 0x90, 0x80, 0x80], FFFD.repeat(4), 'F4 90 80 80 is above U+10FFFF'],
  ['f5', [0xf5, 0x80, 0x80, 0x80], FFFD.repeat(4), 'F5 is never a lead byte'],
  ['five-byte', [0xf8, 0x88, 0x80, 0x80, 0x80], FFFD.repeat(5), 'old five-byte form'],
  ['lone-continuation', [0x80], FFFD, 'a lone continuation byte'],
  ['two-continuations', [0x80, 0xbf], FFFD + FFFD, 'two lone continuation bytes'],
  ['ff', [0xff], FFFD, 'FF'],
  ['truncated-3', [0xe2, 0x82], FFFD, 'E2 82 cut short by the end of the value: one U+FFFD'],
  ['truncated-4', [0xf0, 0x9f, 0x98], FFFD, 'F0 9F 98 cut short: one U+FFFD'],
  ['truncated-then-ascii', [0xe2, 0x82, 0x41], FFFD + 'A', 'the byte that breaks a sequence is decoded on its own'],
  ['lead-lead', [0xc3, 0xc3, 0xa9], FFFD + '\u00e9', 'a lead byte followed by a complete sequence'],
];
for (const [slug, bytes, decoded, what] of invalidUtf8) {
  const escaped = bytes.map((b) => '%' + b.toString(16).toUpperCase().padStart(2, '0')).join('');
  parse(`ue-parse-utf8-pct-${slug}`, {
    input: `a=${escaped}&${escaped}=b`, pairs: [['a', decoded], [decoded, 'b']], rules: ['UE-P-08'],
    description: `percent-encoded ${what}`, source: 'ours (WHATWG Encoding UTF-8 decoder, maximal subparts)',
  });
  parse(`ue-parse-utf8-raw-${slug}`, {
    input: raw('a=', bytes, '&', bytes, '=b'), pairs: [['a', decoded], [decoded, 'b']], rules: ['UE-P-01', 'UE-P-08'],
    description: `raw ${what}`, source: 'ours (WHATWG Encoding UTF-8 decoder, maximal subparts)',
  });
}
parse('ue-parse-utf8-raw-invalid-file', {
  input: raw('a=', [0xc0, 0xaf], '&b=', [0xed, 0xa0, 0x80], '&c=', [0xe2, 0x82], '&d=', [0xf4, 0x90, 0x80, 0x80],
    '&', [0xff, 0xfe], '=', [0x80], 'x'),
  pairs: [['a', FFFD + FFFD], ['b', FFFD.repeat(3)], ['c', FFFD], ['d', FFFD.repeat(4)], [FFFD + FFFD, FFFD + 'x']],
  rules: ['UE-P-01', 'UE-P-08'], store: 'file',
  description: 'raw invalid UTF-8 in a .txt input file', source: 'ours',
});
parse('ue-parse-utf8-pct-valid-boundaries', {
  input: 'a=%C2%80&b=%DF%BF&c=%E0%A0%80&d=%ED%9F%BF&e=%EE%80%80&f=%EF%BF%BF&g=%F0%90%80%80&h=%F4%8F%BF%BF&i=%EF%B7%90',
  pairs: [['a', '\u0080'], ['b', '\u07FF'], ['c', '\u0800'], ['d', '\uD7FF'], ['e', '\uE000'], ['f', '\uFFFF'],
    ['g', '\u{10000}'], ['h', '\u{10FFFF}'], ['i', '\uFDD0']],
  rules: ['UE-P-08'], description: 'the first and last scalar values of each UTF-8 length; noncharacters are kept', source: 'ours',
});
parse('ue-parse-utf8-raw-valid-boundaries', {
  input: 'a=\u0080&b=\u07FF&c=\u0800&d=\uD7FF&e=\uE000&f=\uFFFF&g=\u{10000}&h=\u{10FFFF}&\uFFFE=\uFDD0',
  pairs: [['a', '\u0080'], ['b', '\u07FF'], ['c', '\u0800'], ['d', '\uD7FF'], ['e', '\uE000'], ['f', '\uFFFF'],
    ['g', '\u{10000}'], ['h', '\u{10FFFF}'], ['\uFFFE', '\uFDD0']],
  rules: ['UE-P-01', 'UE-P-08'], description: 'the same boundaries as raw UTF-8', source: 'ours',
});
parse('ue-parse-utf8-pct-lead-raw-continuation', {
  input: raw('a=%C3', [0xa9]), pairs: [['a', '\u00e9']], rules: ['UE-P-01', 'UE-P-08', 'UE-D-09'],
  description: 'percent-decoded C3 and a raw A9 form one character (Node Response.formData gives two U+FFFD)', source: 'ours (undici probe, UE-D-09)',
});
parse('ue-parse-utf8-raw-lead-pct-continuation', {
  input: raw('a=', [0xc3], '%A9'), pairs: [['a', '\u00e9']], rules: ['UE-P-01', 'UE-P-08', 'UE-D-09'],
  description: 'a raw C3 and a percent-decoded A9 form one character', source: 'ours (undici probe, UE-D-09)',
});
parse('ue-parse-utf8-split-raw-and-pct', {
  input: raw('a=', [0xe2], '%82', [0xac], '&b=%F0', [0x9f], '%98', [0x80]), pairs: [['a', '\u20ac'], ['b', '\u{1F600}']],
  rules: ['UE-P-01', 'UE-P-08', 'UE-P-11'], description: '"\u20ac" and U+1F600 assembled from alternating raw and percent-encoded bytes', source: 'ours',
});
parse('ue-parse-utf8-plus-inside-sequence', {
  input: '%C3+%A9', pairs: [[FFFD + ' ' + FFFD, '']], rules: ['UE-P-06', 'UE-P-08'],
  description: 'a "+" (now a space) inside a two-byte sequence breaks it', source: 'ours',
});
parse('ue-parse-utf8-per-name-and-value', {
  input: raw([0xc3], '=', [0xa9]), pairs: [[FFFD, FFFD]], rules: ['UE-P-08'],
  description: 'name and value are decoded separately: C3 "=" A9 is not "\u00e9"', source: 'ours',
});
parse('ue-parse-utf8-pct-per-name-and-value', {
  input: '%E2%82=%AC', pairs: [[FFFD, FFFD]], rules: ['UE-P-08'],
  description: 'percent-encoded "\u20ac" cut by "=" is two U+FFFD', source: 'ours',
});
parse('ue-parse-utf8-across-amp', {
  input: raw('a=', [0xc3], '&', [0xa9]), pairs: [['a', FFFD], [FFFD, '']], rules: ['UE-P-08'],
  description: 'a sequence never continues into the next pair', source: 'ours',
});
parse('ue-parse-controls-raw', {
  input: 'a=\0\t\r\n\x7f&\x01=\x1f', pairs: [['a', '\0\t\r\n\x7f'], ['\x01', '\x1f']], rules: ['UE-P-02', 'UE-P-08'],
  description: 'NUL, TAB, CR, LF, DEL and other controls are data', source: 'ours',
});
{
  // Every ASCII byte except the four that mean something (% & + =) passes through untouched.
  let s = '';
  for (let b = 0; b < 128; b++) if (![0x25, 0x26, 0x2b, 0x3d].includes(b)) s += String.fromCharCode(b);
  parse('ue-parse-every-ascii-byte-raw', {
    input: s + '=' + s, pairs: [[s, s]], rules: ['UE-P-02', 'UE-P-08'],
    description: 'all 124 ASCII bytes other than % & + = are kept as they are, in name and value', source: 'ours',
  });
}

// The parser's output is the list (UE-P-09).
parse('ue-parse-hash', {
  input: '#a=b&c=d#e', pairs: [['#a', 'b'], ['c', 'd#e']], rules: ['UE-P-09'], description: '"#" is data', source: 'ours',
});
parse('ue-parse-brackets-flat', {
  input: 'a[b]=c&a[]=d&a[]=e', pairs: [['a[b]', 'c'], ['a[]', 'd'], ['a[]', 'e']], rules: ['UE-P-09', 'UE-D-07'],
  description: 'brackets build nothing (qs nests them)', source: 'ours (qs probe, UE-D-07)',
});
parse('ue-parse-proto-names', {
  input: '__proto__=x&constructor=y&hasOwnProperty=z', pairs: [['__proto__', 'x'], ['constructor', 'y'], ['hasOwnProperty', 'z']],
  rules: ['UE-P-09', 'UE-D-07'], description: 'prototype-looking names are ordinary names (qs drops them)', source: 'ours (qs probe, UE-D-07)',
});
parse('ue-parse-duplicates-interleaved', {
  input: 'a=1&b=2&a=3&b=4', pairs: [['a', '1'], ['b', '2'], ['a', '3'], ['b', '4']], rules: ['UE-P-09', 'UE-D-04', 'UE-D-06'],
  description: 'input order is kept across repeated names (maps lose it)', source: 'ours',
});
parse('ue-parse-charset-latin1-ignored', {
  input: '_charset_=iso-8859-1&a=%E9', pairs: [['_charset_', 'iso-8859-1'], ['a', FFFD]], rules: ['UE-P-08', 'UE-P-09'],
  description: '_charset_ does not switch decoding: latin-1 %E9 is U+FFFD', source: 'ours (URL §5.1 note on _charset_)',
});

// The W4 benchmark's mix (shared/peers.md).
const W4_TEXT = 'name=caf%C3%A9&price=5+%E2%82%AC&emoji=%F0%9F%98%80&greeting=%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82'
  + '&amp=a%26b&eq=x%3Dy&pct=100%25&q=hello+world';
const W4_PAIRS = [['name', 'caf\u00e9'], ['price', '5 \u20ac'], ['emoji', '\u{1F600}'],
  ['greeting', '\u043f\u0440\u0438\u0432\u0435\u0442'], ['amp', 'a&b'], ['eq', 'x=y'], ['pct', '100%'], ['q', 'hello world']];
parse('ue-parse-w4-mix', {
  input: W4_TEXT, pairs: W4_PAIRS, rules: ['UE-P-06', 'UE-P-07', 'UE-P-08'],
  description: 'W4-style pairs: caf\u00e9, \u20ac, U+1F600, \u043f\u0440\u0438\u0432\u0435\u0442, &, =, % percent-encoded, + spaces',
  source: 'ours (shared/peers.md workload W4)',
});
parse('ue-parse-w4-raw-utf8', {
  input: 'caf\u00e9=\u20ac&\u043f\u0440\u0438\u0432\u0435\u0442=\u{1F600}+\u{1F600}&%=100%',
  pairs: [['caf\u00e9', '\u20ac'], ['\u043f\u0440\u0438\u0432\u0435\u0442', '\u{1F600} \u{1F600}'], ['%', '100%']],
  rules: ['UE-P-01', 'UE-P-06', 'UE-P-07', 'UE-P-08'], description: 'the same characters sent as raw UTF-8', source: 'ours (shared/peers.md workload W4)',
});
parse('ue-parse-non-bmp-pct', {
  input: '%F0%9D%84%9E=%F0%9F%98%80%F0%9F%92%A9', pairs: [['\u{1D11E}', '\u{1F600}\u{1F4A9}']], rules: ['UE-P-07', 'UE-P-08'],
  description: 'percent-encoded characters outside the BMP', source: 'ours',
});
parse('ue-parse-streaming-dense', {
  input: raw('%E2%82%AC%F0%9F%98%80+%2B%', [0xc3], '%A9%4&=', [0xf0, 0x9f], '%98', [0x80], '&&%', [0xe2, 0x82, 0xac], '=%'),
  pairs: [['\u20ac\u{1F600} +%\u00e9%4', ''], ['', '\u{1F600}'], ['%\u20ac', '%']], rules: ['UE-P-06', 'UE-P-07', 'UE-P-08', 'UE-P-11'],
  description: 'escapes, raw and encoded UTF-8, "+", "&", "=" packed so that every split point cuts something', source: 'ours',
});

// Many pairs and long values.
{
  const pairs = [];
  for (let i = 0; i <= 1000; i++) pairs.push([`k${String(i).padStart(4, '0')}`, `v${String(i).padStart(4, '0')}`]);
  parse('ue-parse-many-pairs-1001', {
    input: pairs.map(([k, v]) => `${k}=${v}`).join('&'), pairs, rules: ['UE-P-09', 'UE-L-02', 'UE-D-06', 'UE-D-07'], store: 'file',
    description: '1001 pairs at the default limits (querystring and qs silently keep 1000)', source: 'ours (querystring/qs probe)',
  });
  serialize('ue-ser-many-pairs-1001', {
    pairs, text: pairs.map(([k, v]) => `${k}=${v}`).join('&'), rules: ['UE-S-06'],
    description: '1001 pairs serialized', source: 'ours',
  });
}
parse('gen-ue-parse-long-value', {
  input: { generate: [txt('a='), rep([txt('x'.repeat(1024))], 64)] }, pairs: [['a', 'x'.repeat(65536)]],
  rules: ['UE-P-04', 'UE-P-11'], description: 'a 64 KiB value', source: 'ours',
});
parse('gen-ue-parse-long-pct-value', {
  input: { generate: [txt('a='), rep([txt('%E2%82%AC')], 10000)] }, pairs: [['a', '\u20ac'.repeat(10000)]],
  rules: ['UE-P-07', 'UE-P-08', 'UE-P-11'], description: '10000 percent-encoded "\u20ac" (90000 input bytes)', source: 'ours',
});
parse('gen-ue-parse-long-plus-name', {
  input: { generate: [rep([txt('a+')], 20000), txt('='), rep([txt('%6E')], 10000)] },
  pairs: [['a '.repeat(20000), 'n'.repeat(10000)]], rules: ['UE-P-06', 'UE-P-07'],
  description: 'a 40000-byte name of "a+" and a value of 10000 %6E', source: 'ours',
});
parse('gen-ue-parse-long-raw-utf8', {
  input: { generate: [rep([txt('\u043f\u0440\u0438\u0432\u0435\u0442')], 5000), txt('='), rep([txt('\u{1F600}')], 5000)] },
  pairs: [['\u043f\u0440\u0438\u0432\u0435\u0442'.repeat(5000), '\u{1F600}'.repeat(5000)]], rules: ['UE-P-08', 'UE-P-11'],
  description: '60000 bytes of raw Cyrillic, then 20000 bytes of raw 4-byte UTF-8', source: 'ours',
});

// ---------------------------------------------------------------------------------------------------------------
// Serializer (ours).

const ASCII_ALL = Array.from({ length: 128 }, (_, b) => String.fromCharCode(b)).join('');
const ASCII_ALL_ENCODED = '%00%01%02%03%04%05%06%07%08%09%0A%0B%0C%0D%0E%0F%10%11%12%13%14%15%16%17%18%19%1A%1B%1C%1D%1E%1F'
  + '+%21%22%23%24%25%26%27%28%29*%2B%2C-.%2F0123456789%3A%3B%3C%3D%3E%3F%40ABCDEFGHIJKLMNOPQRSTUVWXYZ%5B%5C%5D%5E_%60'
  + 'abcdefghijklmnopqrstuvwxyz%7B%7C%7D%7E%7F';
serialize('ue-ser-every-ascii-byte', {
  pairs: [[ASCII_ALL, ASCII_ALL]], text: `${ASCII_ALL_ENCODED}=${ASCII_ALL_ENCODED}`,
  rules: ['UE-S-03', 'UE-S-04', 'UE-S-05', 'UE-S-06'],
  description: 'every byte 0x00-0x7F in name and value: only A-Za-z0-9*-._ kept, space as +, the rest %XX uppercase', source: 'ours',
});
serialize('ue-ser-not-kept-punct', {
  pairs: [['a', "~!'()"]], text: 'a=%7E%21%27%28%29', rules: ['UE-S-04', 'UE-S-05', 'UE-D-10'],
  description: "~ ! ' ( ) are escaped (encodeURIComponent, quote_plus and QueryEscape keep some of them)", source: 'ours',
});
serialize('ue-ser-semicolon', {
  pairs: [['a', '1;b=2']], text: 'a=1%3Bb%3D2', rules: ['UE-S-05'], description: '";" and "=" in a value are escaped', source: 'ours',
});
serialize('ue-ser-space-and-plus', {
  pairs: [['a b', 'c+d e']], text: 'a+b=c%2Bd+e', rules: ['UE-S-03', 'UE-S-05'], description: 'space is "+", "+" is %2B', source: 'ours',
});
serialize('ue-ser-plus-and-pct2b', {
  pairs: [['+', '%2B']], text: '%2B=%252B', rules: ['UE-S-05'], description: 'a literal "%2B" is escaped again', source: 'ours',
});
serialize('ue-ser-pct-sequences', {
  pairs: [['a', '%zz%41%']], text: 'a=%25zz%2541%25', rules: ['UE-S-05'], description: 'every "%" becomes %25', source: 'ours',
});
serialize('ue-ser-non-ascii-boundaries', {
  pairs: [['a', '\u0080'], ['b', '\u07FF'], ['c', '\u0800'], ['d', '\uD7FF'], ['e', '\uE000'], ['f', '\uFFFF'],
    ['g', '\u{10000}'], ['h', '\u{10FFFF}'], ['i', '\uFEFF'], ['j', '\uFFFD']],
  text: 'a=%C2%80&b=%DF%BF&c=%E0%A0%80&d=%ED%9F%BF&e=%EE%80%80&f=%EF%BF%BF&g=%F0%90%80%80&h=%F4%8F%BF%BF&i=%EF%BB%BF&j=%EF%BF%BD',
  rules: ['UE-S-02', 'UE-S-05'], description: 'UTF-8 of each length boundary, U+FEFF and U+FFFD', source: 'ours',
});
serialize('ue-ser-w4-mix', {
  pairs: W4_PAIRS, text: W4_TEXT, rules: ['UE-S-02', 'UE-S-03', 'UE-S-05', 'UE-S-06'],
  description: 'W4-style pairs serialized (the exact input of ue-parse-w4-mix)', source: 'ours (shared/peers.md workload W4)',
});
serialize('ue-ser-non-ascii-names', {
  pairs: [['caf\u00e9', '\u20ac'], ['\u043f\u0440\u0438\u0432\u0435\u0442', '\u{1F600} \u{1F600}']],
  text: 'caf%C3%A9=%E2%82%AC&%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82=%F0%9F%98%80+%F0%9F%98%80',
  rules: ['UE-S-02', 'UE-S-03', 'UE-S-05'], description: 'non-ASCII names and values', source: 'ours',
});
serialize('ue-ser-non-bmp', {
  pairs: [['\u{1D11E}', '\u{1F600}\u{1F4A9}']], text: '%F0%9D%84%9E=%F0%9F%98%80%F0%9F%92%A9', rules: ['UE-S-02', 'UE-S-05'],
  description: 'characters outside the BMP are 4 UTF-8 bytes each', source: 'ours',
});
serialize('ue-ser-uppercase-hex', {
  pairs: [['\u00ff', '\n\u00e9']], text: '%C3%BF=%0A%C3%A9', rules: ['UE-S-05'], description: 'hex digits are uppercase', source: 'ours',
});
serialize('ue-ser-controls', {
  pairs: [['a', '\r\n\t\0\x7f']], text: 'a=%0D%0A%09%00%7F', rules: ['UE-S-05'], description: 'controls and DEL, no newline normalization', source: 'ours',
});
serialize('ue-ser-question-hash', {
  pairs: [['?a', '#b']], text: '%3Fa=%23b', rules: ['UE-S-05'], description: '"?" and "#" are escaped', source: 'ours',
});
serialize('ue-ser-bom', {
  pairs: [['\uFEFFa', '1']], text: '%EF%BB%BFa=1', rules: ['UE-S-02', 'UE-S-05'], description: 'U+FEFF is encoded like any character', source: 'ours',
});
serialize('gen-ue-ser-long-value', {
  pairs: [['a', '\u20ac'.repeat(10000)]], text: 'a=' + '%E2%82%AC'.repeat(10000), rules: ['UE-S-05'],
  description: 'a value of 10000 "\u20ac"', source: 'ours',
});

// ---------------------------------------------------------------------------------------------------------------
// Limits (UE-L). Offsets per spec/errors.md.

const PAIRS = 'UE_LIMIT_PAIRS';
const BYTES = 'UE_LIMIT_BYTES';

reject('ue-limit-pairs-3', {
  input: 'a=1&b=2&c=3&d=4', options: { max_pairs: 3 }, code: PAIRS, offset: 12, rules: ['UE-L-02'],
  description: 'the 4th pair with max_pairs 3: offset of its first byte "d"', source: 'ours (spec/errors.md UE_LIMIT_PAIRS)',
});
reject('ue-limit-pairs-3-empty-sequences', {
  input: '&&a&&b&&c&&d&&', options: { max_pairs: 3 }, code: PAIRS, offset: 11, rules: ['UE-L-02', 'UE-P-03'],
  description: 'empty sequences do not count; the error is at "d"', source: 'ours',
});
parse('ue-limit-pairs-3-exact-trailing-amps', {
  input: 'a=1&b=2&c=3&&&', options: { max_pairs: 3 }, pairs: [['a', '1'], ['b', '2'], ['c', '3']], rules: ['UE-L-02', 'UE-P-03'],
  description: 'exactly max_pairs pairs then "&&&" is accepted', source: 'ours',
});
reject('ue-limit-pairs-4th-is-eq', {
  input: 'a&b&c&=', options: { max_pairs: 3 }, code: PAIRS, offset: 6, rules: ['UE-L-02'],
  description: 'a pair that is only "=" counts', source: 'ours',
});
reject('ue-limit-pairs-4th-is-pct', {
  input: 'a&b&c&%26', options: { max_pairs: 3 }, code: PAIRS, offset: 6, rules: ['UE-L-02', 'UE-P-12'],
  description: 'a pair starting with "%" counts at its "%"', source: 'ours',
});
reject('ue-limit-pairs-4th-is-plus', {
  input: 'a&b&c&+', options: { max_pairs: 3 }, code: PAIRS, offset: 6, rules: ['UE-L-02', 'UE-P-12'],
  description: 'a pair that is only "+" counts', source: 'ours',
});
reject('ue-limit-pairs-0', {
  input: 'a', options: { max_pairs: 0 }, code: PAIRS, offset: 0, rules: ['UE-L-02'],
  description: 'max_pairs 0 rejects the first pair at its first byte', source: 'ours',
});
reject('ue-limit-pairs-0-leading-amps', {
  input: '&&=', options: { max_pairs: 0 }, code: PAIRS, offset: 2, rules: ['UE-L-02', 'UE-P-03'],
  description: 'max_pairs 0, first pair after two empty sequences', source: 'ours',
});
parse('ue-limit-pairs-0-empty-input', {
  input: '', options: { max_pairs: 0 }, pairs: [], rules: ['UE-L-02'], description: 'max_pairs 0 accepts the empty input', source: 'ours',
});
parse('ue-limit-pairs-0-only-amps', {
  input: '&&&', options: { max_pairs: 0 }, pairs: [], rules: ['UE-L-02', 'UE-P-03'], description: 'max_pairs 0 accepts "&&&"', source: 'ours',
});
reject('ue-limit-pairs-1-long-first-pair', {
  input: 'name=' + 'v'.repeat(100) + '&&c', options: { max_pairs: 1 }, code: PAIRS, offset: 107, rules: ['UE-L-02', 'UE-P-12'],
  description: 'the error is at the second pair, not at the end of the input', source: 'ours',
});
reject('ue-limit-pairs-default-10001', {
  input: { generate: [txt('k=v'), rep([txt('&k=v')], 10000)] }, code: PAIRS, offset: 40000, rules: ['UE-L-02'],
  description: '10001 pairs at the default max_pairs 10000: error at pair 10001 (offset 4*10000)', source: 'ours (spec/limits.md default)',
});
parse('ue-limit-pairs-default-exact', {
  input: { generate: [txt('k=v'), rep([txt('&k=v')], 9999)] }, pairs: Array.from({ length: 10000 }, () => ['k', 'v']),
  rules: ['UE-L-02'], description: 'exactly 10000 pairs at the default limit are accepted', source: 'ours (spec/limits.md default)',
});
parse('ue-limit-pairs-null', {
  input: { generate: [txt('k=v'), rep([txt('&k=v')], 10000)] }, options: { max_pairs: null },
  pairs: Array.from({ length: 10001 }, () => ['k', 'v']), rules: ['UE-L-02', 'UE-L-04'],
  description: 'max_pairs null: 10001 pairs accepted', source: 'ours',
});
parse('ue-limit-pairs-empty-sequences-do-not-count', {
  input: { generate: [rep([txt('&')], 20000), txt('a=1'), rep([txt('&')], 20000)] }, pairs: [['a', '1']],
  rules: ['UE-L-02', 'UE-P-03', 'UE-D-03'],
  description: '40000 "&" around one pair at default limits: one pair (Go ParseQuery rejects it, counting "&")',
  source: 'ours (Go net/url probe, UE-D-03)',
});
reject('cve-2025-61726-many-pairs', {
  input: { generate: [rep([txt('&k=v')], 1000000)] }, code: PAIRS, offset: 40001, rules: ['UE-L-02', 'UE-D-03'],
  description: '1000000 x "&k=v" (4 MB) at default limits: pair 10001 starts at offset 4*10000+1',
  source: 'CVE-2025-61726 (Go net/url: urlencoded body with millions of &k=v)',
});
parse('gen-ue-limit-pairs-raised', {
  input: { generate: [rep([txt('&k=v')], 20000)] }, options: { max_pairs: 20000 },
  pairs: Array.from({ length: 20000 }, () => ['k', 'v']), rules: ['UE-L-02', 'UE-P-03'],
  description: '20000 x "&k=v" with max_pairs raised to 20000: accepted', source: 'ours (CVE-2025-61726 shape, limit raised)',
});

reject('ue-limit-bytes-5', {
  input: 'a=1&b=2', options: { max_bytes: 5 }, code: BYTES, offset: 5, rules: ['UE-L-01'],
  description: '7 bytes with max_bytes 5: offset 5', source: 'ours (spec/errors.md UE_LIMIT_BYTES)',
});
reject('ue-limit-bytes-last-byte', {
  input: 'a=1&b=2', options: { max_bytes: 6 }, code: BYTES, offset: 6, rules: ['UE-L-01'],
  description: 'one byte over: the error is at the last byte', source: 'ours',
});
parse('ue-limit-bytes-exact', {
  input: 'a=1&b=2', options: { max_bytes: 7 }, pairs: [['a', '1'], ['b', '2']], rules: ['UE-L-01'],
  description: 'exactly max_bytes bytes are accepted', source: 'ours',
});
reject('ue-limit-bytes-0', {
  input: 'a', options: { max_bytes: 0 }, code: BYTES, offset: 0, rules: ['UE-L-01'],
  description: 'max_bytes 0 rejects any byte at offset 0', source: 'ours',
});
parse('ue-limit-bytes-0-empty-input', {
  input: '', options: { max_bytes: 0 }, pairs: [], rules: ['UE-L-01'], description: 'max_bytes 0 accepts the empty input', source: 'ours',
});
reject('ue-limit-bytes-mid-escape', {
  input: 'a=%C3%A9', options: { max_bytes: 4 }, code: BYTES, offset: 4, rules: ['UE-L-01', 'UE-P-11'],
  description: 'the limit falls inside a percent escape: no waiting for the escape to finish', source: 'ours',
});
reject('ue-limit-bytes-mid-utf8', {
  input: 'a=\u00e9', options: { max_bytes: 3 }, code: BYTES, offset: 3, rules: ['UE-L-01', 'UE-P-11'],
  description: 'the limit falls inside a raw two-byte character', source: 'ours',
});
reject('ue-limit-bytes-only-amps', {
  input: '&&&&', options: { max_bytes: 3 }, code: BYTES, offset: 3, rules: ['UE-L-01'],
  description: 'bytes count even when they make no pair', source: 'ours',
});
parse('ue-limit-null-both', {
  input: 'a=1', options: { max_pairs: null, max_bytes: null }, pairs: [['a', '1']], rules: ['UE-L-04'],
  description: 'both limits null', source: 'ours',
});
reject('ue-limit-both-pairs-first', {
  input: 'a&b&c', options: { max_pairs: 1, max_bytes: 3 }, code: PAIRS, offset: 2, rules: ['UE-L-03'],
  description: 'pair 2 starts at 2, before max_bytes 3: UE_LIMIT_PAIRS', source: 'ours',
});
reject('ue-limit-both-tie-bytes-wins', {
  input: 'a&b&c', options: { max_pairs: 1, max_bytes: 2 }, code: BYTES, offset: 2, rules: ['UE-L-03'],
  description: 'pair 2 starts exactly at max_bytes: the byte is over the limit, UE_LIMIT_BYTES', source: 'ours',
});
reject('ue-limit-both-bytes-first', {
  input: 'a&b&c', options: { max_pairs: 1, max_bytes: 1 }, code: BYTES, offset: 1, rules: ['UE-L-03'],
  description: 'max_bytes is reached before pair 2 starts', source: 'ours',
});
reject('ue-limit-pairs-null-bytes-set', {
  input: 'a&b&c', options: { max_pairs: null, max_bytes: 3 }, code: BYTES, offset: 3, rules: ['UE-L-01', 'UE-L-04'],
  description: 'max_pairs null, max_bytes 3', source: 'ours',
});
reject('ue-limit-pairs-bytes-null', {
  input: 'a&b&c', options: { max_pairs: 2, max_bytes: null }, code: PAIRS, offset: 4, rules: ['UE-L-02', 'UE-L-04'],
  description: 'max_bytes null, max_pairs 2', source: 'ours',
});

// ---------------------------------------------------------------------------------------------------------------
// Recipes (vectors/SCHEMA.md "Generated inputs").

function expand(pieces) {
  const out = [];
  for (const p of pieces) {
    if ('text' in p) out.push(Buffer.from(p.text, 'utf8'));
    else if ('hex' in p) out.push(Buffer.from(p.hex, 'hex'));
    else if ('repeat' in p) {
      const one = expand(p.repeat);
      out.push(Buffer.alloc(one.length * p.count, one));
    } else throw new Error(`unsupported recipe piece ${JSON.stringify(p)}`);
  }
  return Buffer.concat(out);
}

function inputBytes(input) {
  if (typeof input === 'string') return Buffer.from(input, 'utf8');
  if (Buffer.isBuffer(input)) return input;
  if (input && input.generate) return expand(input.generate);
  throw new Error('bad input');
}

// ---------------------------------------------------------------------------------------------------------------
// Oracles.

const utf8Fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
function isUtf8(bytes) {
  try { utf8Fatal.decode(bytes); return true; } catch { return false; }
}

/** The input as a URLSearchParams string: leading "&" (no "?" stripping), bytes >= 0x80 as %XX. */
function oracleString(bytes) {
  const parts = ['&'];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] >= 0x80) {
      if (i > start) parts.push(bytes.toString('latin1', start, i));
      parts.push('%' + bytes[i].toString(16).toUpperCase().padStart(2, '0'));
      start = i + 1;
    }
  }
  if (start < bytes.length) parts.push(bytes.toString('latin1', start, bytes.length));
  return parts.join('');
}

/** UE-L-01..04, byte at a time: the byte limit is checked before a byte is examined. */
function limitError(bytes, options = {}) {
  const lim = (name, dflt) => (options[name] === undefined ? dflt : options[name] === null ? Infinity : options[name]);
  const maxPairs = lim('max_pairs', DEFAULT_MAX_PAIRS);
  const maxBytes = lim('max_bytes', DEFAULT_MAX_BYTES);
  let pairs = 0;
  let atSequenceStart = true;
  for (let i = 0; i < bytes.length; i++) {
    if (i >= maxBytes) return { code: BYTES, offset: maxBytes };
    if (bytes[i] === 0x26) { atSequenceStart = true; continue; }
    if (atSequenceStart) {
      atSequenceStart = false;
      pairs += 1;
      if (pairs > maxPairs) return { code: PAIRS, offset: i };
    }
  }
  return null;
}

function samePairs(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: ${actual.length} pairs, expected ${expected.length}`);
  for (let i = 0; i < expected.length; i++) {
    assert.deepEqual(actual[i], expected[i], `${what}: pair ${i} is ${JSON.stringify(actual[i])}, expected ${JSON.stringify(expected[i])}`);
  }
}

function checkCase(c, specRules) {
  assert.match(c.id, /^[a-z0-9-]+$/, 'id must be lowercase [a-z0-9-]+');
  assert.ok(OWN_ID.test(c.id), 'id prefix: wpt-ue- / ue- / cve- / gen-ue-');
  assert.ok(c.rules.length > 0, 'rules must not be empty');
  for (const r of c.rules) assert.ok(specRules.has(r), `rule ${r} is not defined in spec/urlencoded.md`);
  assert.ok(c.description && !c.description.includes('\n'), 'description: one line');
  assert.ok(c.source, 'source is required');
  if (c.options) {
    for (const [k, v] of Object.entries(c.options)) {
      assert.ok(['max_pairs', 'max_bytes'].includes(k), `unknown option ${k}`);
      assert.ok(v === null || (Number.isSafeInteger(v) && v >= 0), `bad limit ${k}=${v}`);
    }
  }
  if (c.kind === 'urlencoded-serialize') {
    for (const pair of c.pairs) {
      assert.equal(pair.length, 2);
      for (const s of pair) assert.ok(typeof s === 'string' && s.isWellFormed(), 'serialize inputs are scalar value strings');
    }
    assert.match(c.text, /^[\x21-\x7e]*$/, 'serializer output is printable ASCII (UE-S-06)');
    const got = new URLSearchParams(c.pairs).toString();
    assert.equal(got, c.text, `URLSearchParams.toString() gives ${JSON.stringify(got)}`);
    samePairs([...new URLSearchParams('&' + c.text)], c.pairs, 'round trip (UE-S-07)');
    return;
  }
  const bytes = inputBytes(c.input);
  const limit = limitError(bytes, c.options);
  if (c.error) {
    assert.deepEqual(limit, c.error, `independent limit computation gives ${JSON.stringify(limit)}`);
    return;
  }
  assert.equal(limit, null, `accepted case trips a limit: ${JSON.stringify(limit)}`);
  for (const pair of c.pairs) for (const s of pair) assert.ok(s.isWellFormed(), 'parser output is always well formed');
  samePairs([...new URLSearchParams(oracleString(bytes))], c.pairs, 'URLSearchParams (bytes >= 0x80 as %XX)');
  if (isUtf8(bytes)) samePairs([...new URLSearchParams('&' + bytes.toString('utf8'))], c.pairs, 'URLSearchParams (UTF-8 string)');
}

// ---------------------------------------------------------------------------------------------------------------
// Output.

/** JSON with every non-ASCII code unit escaped, so the files are ASCII and invisible characters are visible. */
function j(v) {
  return JSON.stringify(v).replace(/[\u007f-\uffff]/g, (ch) => '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0'));
}

function render(c) {
  const files = {};
  const doc = [];
  const verdict = c.error ? 'reject' : 'accept';
  doc.push(['id', j(c.id)], ['kind', j(c.kind)], ['rules', j(c.rules)], ['description', j(c.description)], ['source', j(c.source)]);
  if (c.kind === 'urlencoded-serialize') {
    doc.push(['input', listField('pairs', c.pairs)]);
    doc.push(['expect', `{"text": ${j(c.text)}}`]);
  } else {
    let input;
    if (c.input && c.input.generate) input = `{"generate": ${j(c.input.generate)}}`;
    else {
      const bytes = inputBytes(c.input);
      if (c.store === 'file') {
        files[`${verdict}/${c.id}.txt`] = bytes;
        input = `{"file": ${j(c.id + '.txt')}}`;
      } else if (isUtf8(bytes)) input = `{"text": ${j(bytes.toString('utf8'))}}`;
      else input = `{"base64": ${j(bytes.toString('base64'))}}`;
    }
    doc.push(['input', input]);
    if (c.options) doc.push(['options', j(c.options)]);
    doc.push(['expect', c.error ? `{"error": ${j(c.error)}}` : listField('pairs', c.pairs)]);
  }
  const body = '{\n' + doc.map(([k, v]) => `  ${j(k)}: ${v}`).join(',\n') + '\n}\n';
  files[`${verdict}/${c.id}.json`] = Buffer.from(body, 'utf8');
  // The written JSON must read back as the case.
  const back = JSON.parse(body);
  assert.equal(back.id, c.id);
  if (c.pairs && c.kind === 'urlencoded-parse') samePairs(back.expect.pairs, c.pairs, 'JSON read-back');
  if (c.kind === 'urlencoded-serialize') samePairs(back.input.pairs, c.pairs, 'JSON read-back');
  return files;
}

function listField(name, pairs) {
  if (pairs.length === 0) return `{${j(name)}: []}`;
  return `{${j(name)}: [\n    ` + pairs.map(j).join(',\n    ') + '\n  ]}';
}

// ---------------------------------------------------------------------------------------------------------------
// Main.

function main() {
  const check = process.argv.includes('--check');
  const specRules = new Set([...fs.readFileSync(SPEC, 'utf8').matchAll(/\*\*(UE-[PSLD]-\d\d)\./g)].map((m) => m[1]));
  const seen = new Set();
  const files = {};
  let failures = 0;
  for (const c of cases) {
    try {
      assert.ok(!seen.has(c.id), `duplicate id ${c.id}`);
      seen.add(c.id);
      checkCase(c, specRules);
      Object.assign(files, render(c));
    } catch (e) {
      failures += 1;
      console.error(`FAIL ${c.id}: ${e.message}`);
    }
  }
  // Every vector id that spec/urlencoded.md names must exist.
  const specText = fs.readFileSync(SPEC, 'utf8');
  for (const m of specText.matchAll(/`((?:wpt-ue-|ue-|cve-|gen-ue-)[a-z0-9-]+)`/g)) {
    if (!seen.has(m[1])) { failures += 1; console.error(`FAIL spec/urlencoded.md names vector ${m[1]}, which does not exist`); }
  }
  if (failures) {
    console.error(`${failures} case(s) disagree with their oracle; nothing written`);
    process.exit(1);
  }

  const existing = new Set();
  for (const dir of ['accept', 'reject']) {
    const full = path.join(OUT, dir);
    // Only files with this generator's id prefixes are ours; others (cap-* captures) have their own writers.
    if (fs.existsSync(full)) for (const f of fs.readdirSync(full)) if (OWN_ID.test(f)) existing.add(`${dir}/${f}`);
  }
  const counts = { accept: 0, reject: 0, parse: 0, serialize: 0 };
  for (const c of cases) {
    counts[c.error ? 'reject' : 'accept'] += 1;
    counts[c.kind === 'urlencoded-parse' ? 'parse' : 'serialize'] += 1;
  }
  const summary = `${cases.length} cases (${counts.accept} accept, ${counts.reject} reject; ${counts.parse} parse, ${counts.serialize} serialize), ${Object.keys(files).length} files`;

  if (check) {
    const problems = [];
    for (const [rel, data] of Object.entries(files)) {
      const p = path.join(OUT, rel);
      if (!fs.existsSync(p)) problems.push(`missing ${rel}`);
      else if (!fs.readFileSync(p).equals(data)) problems.push(`differs ${rel}`);
      existing.delete(rel);
    }
    for (const rel of existing) problems.push(`stale ${rel}`);
    for (const p of problems) console.error(p);
    if (problems.length) {
      console.error(`vectors/urlencoded is out of date (${problems.length} problems): run node vectors/src/urlencoded/generate.mjs`);
      process.exit(1);
    }
    console.log(`vectors/urlencoded up to date: ${summary}`);
    return;
  }
  for (const rel of existing) if (!(rel in files)) fs.unlinkSync(path.join(OUT, rel));
  for (const dir of ['accept', 'reject']) fs.mkdirSync(path.join(OUT, dir), { recursive: true });
  for (const [rel, data] of Object.entries(files)) fs.writeFileSync(path.join(OUT, rel), data);
  console.log(`wrote vectors/urlencoded: ${summary}`);
}

main();
