/**
 * Shape cache: one key list, one object factory. A factory builds a plain object from an array of values with an
 * object literal, so every object of a shape is born with its final hidden class (V8 analogue: map transitions).
 *
 * Factories are made with `new Function` once per key list; callers ask only for key lists they have seen twice, so
 * one-off key lists (objects used as dictionaries) never cost a compilation. Where code generation is forbidden
 * (CSP), or for key lists that cannot be written as a literal (`__proto__`), `factoryFor` returns null and callers
 * assign properties.
 */

/** Builds an object from values[base], values[base + 1], ... (one literal: the object is born with its final shape). */
export type Factory = (values: unknown[], base: number) => object;

const MAX_SHAPES = 512;
const MAX_KEYS = 32;
/** A cached factory and the key list it was made for. */
interface Entry {
  keys: readonly string[];
  f: Factory | null;
}
/**
 * By the keys joined with NUL. The join is not injective (one key `"a\0b"` and the keys `a`, `b` join alike), so a
 * hit counts only when its key list is equal key by key (`sameKeys`); a colliding list replaces the entry.
 */
const cache = new Map<string, Entry>();

/** Whether two key lists are the same list (same length, same keys in the same order). */
export function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  const n = a.length;
  if (n !== b.length) return false;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}
let codegen: boolean | undefined;

/** Whether `new Function` works here (not under a CSP that forbids it). */
export function canCodegen(): boolean {
  if (codegen === undefined) {
    try {
      codegen = typeof new Function('return 1') === 'function';
    } catch {
      codegen = false;
    }
  }
  return codegen;
}

/** The factory for this key list (keys in enumeration order), or null. */
export function factoryFor(keys: readonly string[]): Factory | null {
  const n = keys.length;
  if (n === 0 || n > MAX_KEYS) return null;
  const sig = n === 1 ? keys[0]! : keys.join('\u0000');
  const hit = cache.get(sig);
  if (hit !== undefined && sameKeys(hit.keys, keys)) return hit.f;
  let f: Factory | null = null;
  if (!keys.includes('__proto__') && canCodegen()) {
    let src = 'return {';
    for (let i = 0; i < n; i++) src += (i ? ',' : '') + JSON.stringify(keys[i]) + ':v[b' + (i ? ' + ' + i : '') + ']';
    src += '}';
    try {
      f = new Function('v', 'b', src) as Factory;
    } catch {
      f = null;
    }
  }
  if (cache.size >= MAX_SHAPES) cache.clear();
  cache.set(sig, { keys: keys.slice(), f });
  return f;
}

/** Defines an own data property; plain assignment except for `__proto__`, which would set the prototype. */
export function defineValue(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  else o[k] = v;
}
