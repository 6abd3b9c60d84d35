// The W5 floor-body work, shared by bench/run's `floor-body` row (bench/node/cases.mjs) and the breakdown tool
// bench/node/serialize.mjs, so both measure the same thing. Why this is the least work: see the row in cases.mjs.
const te = new TextEncoder();

/**
 * Read the FormData's entries back and write into `out` (the body's length): every name and value, concatenated and
 * UTF-8 encoded once at 0, and the one File's bytes at `at`, read with File.stream() and a default reader.
 */
export async function writeFloorBody(fd, out, at) {
  let text = '';
  let file;
  for (const [k, v] of fd) {
    text += k;
    if (typeof v === 'string') text += v;
    else file = v;
  }
  te.encodeInto(text, out);
  let o = at;
  const reader = file.stream().getReader();
  for (;;) {
    const c = await reader.read();
    if (c.done) break;
    out.set(c.value, o);
    o += c.value.length;
  }
  return out;
}
