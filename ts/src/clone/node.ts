/**
 * Node-specific additions to formwire/clone (import once; everything else is re-exported):
 *  - Latin-1 strings are decoded with Buffer#latin1Slice (exact Latin-1, faster than TextDecoder('latin1'));
 *  - Proxy detection through util.types.isProxy (also found automatically on Node >= 20.16);
 *  - Node's host classes that structuredClone treats specially are registered as platform classes.
 */
import { Buffer } from 'node:buffer';
import { types } from 'node:util';
import * as net from 'node:net';
import * as crypto from 'node:crypto';
import * as wt from 'node:worker_threads';
import { setLatin1Decoder } from './strings.js';
import { setProxyDetector, registerPlatformClass } from './kinds.js';

const latin1Slice = (Buffer.prototype as unknown as { latin1Slice: (this: Uint8Array, s: number, e: number) => string }).latin1Slice;
setLatin1Decoder((b, s, e) => latin1Slice.call(b, s, e));
setProxyDetector(types.isProxy);
for (const c of [
  (net as { BlockList?: unknown }).BlockList, (net as { SocketAddress?: unknown }).SocketAddress,
  crypto.X509Certificate, crypto.KeyObject, wt.MessagePort, wt.BroadcastChannel,
]) {
  if (typeof c === 'function' && (c as { prototype?: object }).prototype) registerPlatformClass(c as { prototype: object });
}

export * from './index.js';
