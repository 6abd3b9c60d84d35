/**
 * Worker messaging with `serialize`: the value is encoded once into bytes whose buffer is transferred (moved, not
 * copied), so the runtime's own structured clone only handles one transferred ArrayBuffer. Works with Node
 * `worker_threads` (Worker, MessagePort, parentPort: the listener receives the data) and Web workers / MessagePort /
 * BroadcastChannel-like targets (the listener receives a MessageEvent: pass the event or its `data`).
 *
 * Round trips measured with `node bench/node/clone.mjs worker` (figures in CHANGELOG.md) show that native
 * postMessage still wins for strings, binary and small graphs (the per-message cost of a transfer and of
 * the worker-side decode dominates), and this helper wins for arrays of records. Use it for those, or when the bytes
 * themselves are wanted (the same message also goes to storage, another process or a non-V8 peer) or a receiver
 * needs decode limits (maxDepth/maxBytes).
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
