// createInterface: an async iterable of the request lines the page is handed (window.__fw.request).
const queue = [];
let wake = null;
export function push(line) {
  queue.push(line);
  if (wake) { const w = wake; wake = null; w(); }
}
export function createInterface() {
  return {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        while (queue.length) yield queue.shift();
        await new Promise((r) => { wake = r; });
      }
    },
  };
}
export default { createInterface };
