// Worker of native.mjs's postMessage rows: sends every message back. 'native' posts the received value (the runtime's
// structured clone both ways); 'formwire' decodes the transferred bytes and posts the value back serialized, so each
// side of the round trip materializes the value, as the native path does. A Web Worker (Bun, Deno) gets its mode from
// its name, a Node worker_threads Worker from workerData.
import { postSerialized, receiveSerialized } from '../../ts/dist/src/clone/index.js';

const wt = typeof self === 'undefined' ? await import('node:worker_threads') : null;
const port = wt ? wt.parentPort : self;
const mode = wt ? wt.workerData : self.name;
const onMessage = (f) => (wt ? port.on('message', f) : port.addEventListener('message', (e) => f(e.data)));
onMessage(mode === 'formwire' ? (data) => postSerialized(port, receiveSerialized(data)) : (data) => port.postMessage(data));
