/**
 * formwire/clone: structured clone in memory (`clone`) and on the wire (`serialize` / `deserialize`, V8
 * ValueSerializer v15, byte-compatible with `structuredClone`, `postMessage`, `v8.serialize` and every V8 reader).
 * Zero dependencies, standard JavaScript; `formwire/clone/node` adds Node-only speed-ups.
 */
export { clone, type CloneOptions } from './clone.js';
export { serialize, type SerializeOptions, DEFAULT_MAX_DEPTH } from './serialize.js';
export { deserialize, type DeserializeOptions, DEFAULT_MAX_BYTES } from './deserialize.js';
export { scError, dataCloneError, type CloneErrorCode } from './errors.js';
export { setProxyDetector, hasProxyDetector, registerPlatformClass } from './kinds.js';
export { setLatin1Decoder } from './strings.js';
export { postSerialized, receiveSerialized, type MessageTarget } from './worker.js';
