/**
 * The memory map of structured serialization (HTML StructuredSerializeInternal's "memory"; V8's id map): which
 * objects were already visited in this call, numbered in first-visit order (the V8 object ids), so that cycles and
 * shared references become back-references.
 *
 * Every visited object is recorded, so shared references and cycles are found exactly; nothing is assumed about the
 * graph's shape. What is tuned is the cost per object (Node 20, measured in the serializer on 100 small objects):
 *  - the first LINEAR objects are kept in a small array and a new object is compared with each: no Map is
 *    allocated for small graphs (a nested config of 14 objects), and comparing with up to 16 objects is cheaper
 *    than building a Map and hashing into it;
 *  - from then on a `Map` from object to index: one get and one set per new object. A `Set` with
 *    a size check is one hash operation, but its ids need a side list of objects, and pushing to it cost as much
 *    as the Map's second operation; a linear scan of 32 objects already costs more than the Map;
 *  - on Bun a `WeakMap` instead (WEAK_MEMORY_MAP): JavaScriptCore's WeakMap get + set of a new object key costs
 *    about half its Map's, and less again with a large heap around it, while V8's costs more than its Map's
 *    (figures in CHANGELOG.md). Nothing here iterates the map or keys it by a primitive, so either class serves.
 */

const LINEAR = 16;
/** Whether the memory map past LINEAR objects is a WeakMap (see above). Chosen by construction. */
export const WEAK_MEMORY_MAP = (globalThis as { Bun?: unknown }).Bun !== undefined;

export class Identity {
  /** objects 0..n-1 while there are at most LINEAR of them */
  private readonly objs: object[] = [];
  private map: Map<object, number> | WeakMap<object, number> | null = null;
  private n = 0;
  /** `weak`: the class of the map past LINEAR objects (the tests take both on every runtime) */
  constructor(private readonly weak = WEAK_MEMORY_MAP) {}

  /** How many objects have an index. */
  get size(): number {
    return this.n;
  }

  /** The index of `o` if it was visited before; otherwise records it (taking the next index) and returns -1. */
  visit(o: object): number {
    const map = this.map;
    if (map !== null) {
      const id = map.get(o);
      if (id !== undefined) return id;
      map.set(o, this.n++);
      return -1;
    }
    const objs = this.objs;
    const n = this.n;
    for (let i = 0; i < n; i++) if (objs[i] === o) return i;
    this.record(o, n);
    return -1;
  }

  /** The index of `o`, or -1 (records nothing). */
  find(o: object): number {
    const map = this.map;
    if (map !== null) {
      const id = map.get(o);
      return id === undefined ? -1 : id;
    }
    const objs = this.objs;
    for (let i = 0; i < this.n; i++) if (objs[i] === o) return i;
    return -1;
  }

  /** Records `o`, which must not have been visited, and returns its index. */
  add(o: object): number {
    const n = this.n;
    if (this.map !== null) {
      this.map.set(o, n);
      this.n = n + 1;
    } else this.record(o, n);
    return n;
  }

  private record(o: object, n: number): void {
    const objs = this.objs;
    this.n = n + 1;
    if (n < LINEAR) {
      objs.push(o);
      return;
    }
    const map = this.weak ? new WeakMap<object, number>() : new Map<object, number>();
    for (let i = 0; i < n; i++) map.set(objs[i]!, i);
    map.set(o, n);
    objs.length = 0;
    this.map = map;
  }
}
