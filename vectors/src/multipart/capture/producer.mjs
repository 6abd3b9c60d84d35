// Writes multipart/form-data bodies with Node's built-in fetch (undici):
// new Response(formData). Run by vectors/src/multipart/capture.py.
// Usage: node producer.mjs <out-dir>
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2];
writeFileSync(join(dir, "node.version"), `node ${process.version} undici ${process.versions.undici}`);

async function write(name, build) {
  const fd = new FormData();
  build(fd);
  const res = new Response(fd);
  const bytes = new Uint8Array(await res.arrayBuffer());
  writeFileSync(join(dir, `${name}.http`), bytes);
  writeFileSync(join(dir, `${name}.ctype`), res.headers.get("content-type"));
}

await write("node-basic", (fd) => {
  fd.append("a", "1");
  fd.append("note", "line1\nline2");
  fd.append("file", new File(["hello"], "hello.txt", { type: "text/plain" }));
  fd.append("blob", new Blob([new Uint8Array([0, 1, 2, 0xff])]));
});
await write("node-escapes", (fd) => {
  fd.append("a\nb\"c", "v");
  fd.append("f", new File(["x"], "q\"\\\r.txt", { type: "text/plain" }));
});
// A File with an empty name: browsers send filename=""; undici omits filename.
await write("node-empty-filename", (fd) => {
  fd.append("f", new File(["x"], "", { type: "text/plain" }));
});
