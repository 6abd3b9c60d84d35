// Child process of native.mjs for the W1 peak-memory row: one parse of a W1 body (one file of PEAK_MIB MiB) in a fresh
// process, so the native and formwire peaks do not mix. The body is generated chunk by chunk as it is read (never held
// whole), so the process's growth is what the parser keeps. Prints one JSON line: RSS before, peak RSS after
// (Linux /proc/self/status VmRSS / VmHWM, the kernel's high-water mark, which catches peaks between samples).
import process from 'node:process';
import { readFileSync } from 'node:fs';
import { formData, parseMultipart } from '../../ts/dist/src/index.js';
import { CT, peakBody, peakHead as head, peakTail as tail } from './inputs.mjs';

const mode = process.env.PEAK_MODE;
const MiB = Number(process.env.PEAK_MIB ?? 200);
const body = () => peakBody(MiB);
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
