// The HTTP/2 (TLS) echo endpoint of the ts-browser page tests: Chromium streams a request body (fetch with a
// ReadableStream body and duplex: 'half') only over HTTP/2 or QUIC, and the page's own server is HTTP/1.1.
//
// Started by ts/browser/testee.py --page-tests: listens on 127.0.0.1 only, on a free port, with a self-signed P-256
// certificate made here at start (nothing is written to disk), prints one JSON line {port, spki} (spki: base64 of the
// SHA-256 of the certificate's SubjectPublicKeyInfo, for Chromium's --ignore-certificate-errors-spki-list), and exits
// when its stdin closes.
//
//   OPTIONS *          the CORS preflight (the page is on the HTTP/1.1 origin; a streamed body always preflights)
//   POST /echo?id=ID   the body back with its Content-Type, and in `x-formwire-upload` what the server saw: HTTP
//                      version, the request's content-length and transfer-encoding headers (null when absent), how
//                      many DATA chunks and bytes arrived
//   GET /seen?id=ID    answered once request ID has delivered body bytes while it is still open (no END_STREAM yet):
//                      {bytes, chunks, ended}; {timeout: true} after 10 s. The page holds the end of its streamed body
//                      until this answers, so an answer proves the bytes left the browser before the body was complete.
import { createHash, generateKeyPairSync, randomBytes, sign, X509Certificate } from 'node:crypto';
import { createSecureServer } from 'node:http2';

// ---- a self-signed X.509 v3 certificate, DER by hand (Node's crypto makes keys and signatures, not certificates) ----
function derLength(n) {
  if (n < 0x80) return Buffer.from([n]);
  const b = [];
  for (; n > 0; n = Math.floor(n / 256)) b.unshift(n & 0xff);
  return Buffer.from([0x80 | b.length, ...b]);
}
const der = (tag, ...parts) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag]), derLength(body.length), body]);
};
const seq = (...parts) => der(0x30, ...parts);
const int = (bytes) => der(0x02, bytes[0] & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
function oid(dotted) {
  const a = dotted.split('.').map(Number);
  const out = [40 * a[0] + a[1]];
  for (const v of a.slice(2)) {
    const b = [];
    for (let x = v; ; x = Math.floor(x / 128)) {
      b.unshift((x & 0x7f) | (b.length ? 0x80 : 0));
      if (x < 128) break;
    }
    out.push(...b);
  }
  return der(0x06, Buffer.from(out));
}
const utcTime = (d) => der(0x17, Buffer.from(d.toISOString().replace(/[-:T]/g, '').slice(2, 14) + 'Z'));

function selfSigned() {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const ecdsaSha256 = seq(oid('1.2.840.10045.4.3.2'));
  const name = seq(der(0x31, seq(oid('2.5.4.3'), der(0x0c, Buffer.from('127.0.0.1')))));
  const serial = randomBytes(8);
  serial[0] &= 0x7f;
  const now = Date.now();
  const subjectAltName = seq(oid('2.5.29.17'), der(0x04, seq(der(0x87, Buffer.from([127, 0, 0, 1])))));
  const tbs = seq(
    der(0xa0, int(Buffer.from([2]))), // v3
    int(serial),
    ecdsaSha256,
    name,
    seq(utcTime(new Date(now - 3600e3)), utcTime(new Date(now + 86400e3))),
    name,
    spki,
    der(0xa3, seq(subjectAltName)),
  );
  const cert = seq(tbs, ecdsaSha256, der(0x03, Buffer.from([0]), sign('sha256', tbs, privateKey)));
  const pem = `-----BEGIN CERTIFICATE-----\n${cert.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE-----\n`;
  if (!new X509Certificate(pem).verify(publicKey)) throw new Error('h2-echo: the self-signed certificate does not verify');
  return { key: privateKey.export({ type: 'pkcs8', format: 'pem' }), cert: pem, spki: createHash('sha256').update(spki).digest('base64') };
}

// ---- the server ----
const uploads = new Map(); // id -> {bytes, chunks, ended, waiters}
const upload = (id) => {
  let u = uploads.get(id);
  if (!u) uploads.set(id, (u = { bytes: 0, chunks: 0, ended: false, waiters: [] }));
  return u;
};

const { key, cert, spki } = selfSigned();
const server = createSecureServer({ key, cert }, (req, res) => {
  const url = new URL(req.url, 'https://127.0.0.1');
  const origin = req.headers.origin;
  if (origin) {
    res.setHeader('access-control-allow-origin', origin);
    res.setHeader('access-control-expose-headers', 'x-formwire-upload');
  }
  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      'access-control-allow-methods': 'POST, GET',
      'access-control-allow-headers': req.headers['access-control-request-headers'] ?? 'content-type',
      'access-control-max-age': '600',
    });
    res.end();
    return;
  }
  const id = url.searchParams.get('id') ?? '';
  if (req.method === 'POST' && url.pathname === '/echo') {
    const u = upload(id);
    const parts = [];
    req.on('data', (c) => {
      parts.push(c);
      u.chunks++;
      u.bytes += c.length;
      for (const w of u.waiters.splice(0)) w();
    });
    req.on('end', () => {
      u.ended = true;
      const seen = {
        httpVersion: req.httpVersion,
        contentLength: req.headers['content-length'] ?? null,
        transferEncoding: req.headers['transfer-encoding'] ?? null,
        chunks: u.chunks,
        bytes: u.bytes,
      };
      uploads.delete(id);
      res.writeHead(200, {
        'content-type': req.headers['content-type'] ?? 'application/octet-stream',
        'x-formwire-upload': JSON.stringify(seen),
      });
      res.end(Buffer.concat(parts));
    });
    return;
  }
  if (req.method === 'GET' && url.pathname === '/seen') {
    const u = upload(id);
    let done = false;
    const answer = (body) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    const timer = setTimeout(() => answer({ timeout: true }), 10e3);
    if (u.bytes > 0) answer({ bytes: u.bytes, chunks: u.chunks, ended: u.ended });
    else u.waiters.push(() => answer({ bytes: u.bytes, chunks: u.chunks, ended: u.ended }));
    return;
  }
  res.writeHead(404);
  res.end();
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ port: server.address().port, spki }) + '\n');
});
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
