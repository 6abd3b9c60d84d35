/**
 * The engine's own recursion bound. The codec recurses once per container level (SC-L-02/03), and a JavaScript stack
 * holds only a few thousand such levels, fewer when the caller is already deep. A raised or unlimited `maxDepth` must
 * still end in a coded error, never in the engine's bare RangeError, so the entry points turn a stack overflow that
 * escapes them into `SC_LIMIT_DEPTH` (issue #13).
 */

/** Whether `e` is the engine's stack overflow (V8 and JavaScriptCore: RangeError; SpiderMonkey: InternalError). */
export function isStackOverflow(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  if (!(e instanceof RangeError) && e.name !== 'InternalError') return false;
  return /call stack|recursion/i.test(e.message);
}

/**
 * The error `clone()` throws past its depth: a RangeError, as `structuredClone` throws when its stack runs out, with
 * the registry code SC_LIMIT_DEPTH in `formwireCode` (as DataCloneError carries SC_DATA_CLONE).
 */
export function cloneDepthError(e: Error | string): Error {
  const err = typeof e === 'string' ? new RangeError(e) : e;
  Object.defineProperty(err, 'formwireCode', { value: 'SC_LIMIT_DEPTH', configurable: true });
  return err;
}
