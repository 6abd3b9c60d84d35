// spec/multipart.md §8 probe: busboy / @fastify/busboy / Node's Response.formData(). node probe.js <busboy|fastify|undici> <cases-dir>
const fs = require('fs');
const idx = JSON.parse(fs.readFileSync(process.argv[3] + '/index.json'));
const which = process.argv[2];
async function viaBusboy(mod, ct, body) {
  return new Promise((resolve) => {
    const out = []; let done = false;
    const fin = (r) => { if (!done) { done = true; resolve(r); } };
    let bb;
    try { bb = mod({ headers: { 'content-type': ct } }); } catch (e) { return fin({ error: String(e.message) }); }
    bb.on('field', (n, v) => out.push([n, v]));
    bb.on('file', (n, s, info) => { const chunks = []; s.on('data', c => chunks.push(c)); s.on('end', () => out.push([n, { filename: typeof info === 'object' ? info.filename : info, body: Buffer.concat(chunks).toString('latin1') }])); });
    bb.on('error', (e) => fin({ error: String(e.message), entries: out }));
    bb.on('close', () => fin({ entries: out }));
    bb.on('finish', () => setTimeout(() => fin({ entries: out }), 10));
    setTimeout(() => fin({ timeout: true, entries: out }), 2000);
    bb.end(body);
  });
}
async function viaUndici(ct, body) {
  try {
    const fd = await new Response(body, { headers: { 'content-type': ct } }).formData();
    const out = [];
    for (const [k, v] of fd) out.push([k, typeof v === 'string' ? v : { filename: v.name, type: v.type, body: Buffer.from(await v.arrayBuffer()).toString('latin1') }]);
    return { entries: out };
  } catch (e) { return { error: e.name + ': ' + e.message }; }
}
(async () => {
  const res = {};
  for (const [k, ct] of Object.entries(idx)) {
    const body = fs.readFileSync(`${process.argv[3]}/${k}.bin`);
    if (which === 'undici') res[k] = await viaUndici(ct, body);
    else if (which === 'busboy') res[k] = await viaBusboy(require('busboy'), ct, body);
    else { const FB = require('@fastify/busboy'); res[k] = await viaBusboy((o) => new FB(o), ct, body); }
  }
  console.log(JSON.stringify(res, null, 0).replace(/\],"/g, '],\n"').replace(/\},"/g, '},\n"'));
})();
