// Child process of native.mjs for the W1 peak-memory row: one parse of a W1 body (one file of PEAK_MIB MiB) in a fresh
// process, so the native and formwire peaks do not mix. The body is generated chunk by chunk as it is read (never held
// whole), so the process's growth is what the parser keeps. Prints one JSON line: RSS before, peak RSS after
// (Linux /proc/self/status VmRSS / VmHWM, the kernel's high-water mark, which catches peaks between samples).
import process from 'node:process';
import { readFileSync } from 'node:fs';
import { formData, parseMultipart } from '../../ts/dist/src/index.js';

const mode = process.env.PEAK_MODE;
const MiB = Number(process.env.PEAK_MIB ?? 200);
const B = '----formwireBenchBoundary7MA4YWxkTrZu0gW';
const CT = `multipart/form-data; boundary=${B}`;
const enc = new TextEncoder();
const CH = 65536;
const pattern = new Uint8Array(CH).map((_, i) => (i * 2654435761) >>> 24);
const head = enc.encode(`--${B}\r\nContent-Disposition: form-data; name="note"\r\n\r\nupload\r\n--${B}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
const tail = enc.encode(`\r\n--${B}--\r\n`);
function body() {
  let left = MiB * (1 << 20) / CH, stage = 0;
  // A fresh chunk per pull, as a socket gives them (a parser may keep references to what it is given).
  return new ReadableStream({ type: 'bytes', pull(c) {
    if (stage === 0) { c.enqueue(head.slice()); stage = 1; return; }
    if (left > 0) { c.enqueue(pattern.slice()); left--; return; }
    if (stage === 1) { c.enqueue(tail.slice()); stage = 2; return; }
    c.close();
  } });
}
const kib = (k) => Number(readFileSync('/proc/self/status', 'utf8').match(new RegExp(`^${k}:\\s+(\\d+)`, 'm'))[1]);
const before = kib('VmRSS');
let got = 0;
if (mode === 'native') {
  const fd = await new Request('http://x/', { method: 'POST', body: body(), headers: { 'content-type': CT }, duplex: 'half' }).formData();
  got = fd.get('file').size;
} else if (mode === 'formData') {
  const fd = await formData(body(), CT, { maxTotalFieldBytes: null });
  got = fd.get('file').size;
} else if (mode === 'parseMultipart') {
  for await (const part of parseMultipart(body(), CT)) {
    for await (const c of part) if (part.filename !== null) got += c.length;
  }
} else if (mode === 'drain') {
  // Floor: the same body read to the end with no parser (what generating and reading the chunks costs by itself).
  const r = body().getReader();
  for (let x = await r.read(); !x.done; x = await r.read()) got += x.value.length;
  got -= head.length + tail.length; // compared below with the file's size
} else throw new Error(`PEAK_MODE ${mode}?`);
if (got !== MiB << 20) throw new Error(`peak ${mode}: file of ${got} bytes, expected ${MiB << 20}`);
console.log(JSON.stringify({ mode, mib: MiB, rss_before_kib: before, peak_kib: kib('VmHWM') }));
