/**
 * Worker messaging with `serialize`: the value is encoded once into bytes whose buffer is transferred (moved, not
 * copied), so the runtime's own structured clone only handles one transferred ArrayBuffer. Works with Node
 * `worker_threads` (Worker, MessagePort, parentPort: the listener receives the data) and Web workers / MessagePort /
 * BroadcastChannel-like targets (the listener receives a MessageEvent: pass the event or its `data`).
 *
 * When it pays (Node 20.20, 2 vCPU, worker ping-pong, median round trip; `node test/clone/bench.mjs worker`):
 * arrays of small objects and nested objects, where native postMessage pays V8's serializer plus a C++ -> JS call
 * per message and our encoder/decoder are faster (see the measured numbers in the package report and bench script).
 * For one big string or one big binary buffer native postMessage is as good or better (it copies the string once;
 * a transferred buffer is already zero-copy), and for tiny messages both are bound by the ~15 µs thread wake-up.
 */
import { serialize, type SerializeOptions } from './serialize.js';
import { deserialize, type DeserializeOptions } from './deserialize.js';

/** Anything with `postMessage(message, transfer)`: Worker, MessagePort, parentPort, DedicatedWorkerGlobalScope. */
export interface MessageTarget {
  postMessage(message: unknown, transfer?: readonly unknown[] | unknown): void;
}

/** Serializes `value` and posts the bytes, transferring their buffer. */
export function postSerialized(target: MessageTarget, value: unknown, options?: SerializeOptions): void {
  const bytes = serialize(value, options);
  target.postMessage(bytes, [bytes.buffer]);
}

/**
 * Decodes a message posted with `postSerialized`: accepts the bytes (Node listeners) or a MessageEvent (Web).
 */
export function receiveSerialized(message: unknown, options?: DeserializeOptions): unknown {
  let data = message;
  if (!(data instanceof Uint8Array) && data !== null && typeof data === 'object' && 'data' in data) {
    data = (data as { data: unknown }).data;
  }
  if (!(data instanceof Uint8Array)) throw new TypeError('receiveSerialized: the message is not serialized bytes');
  return deserialize(data, options);
}
