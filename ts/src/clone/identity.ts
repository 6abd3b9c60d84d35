/**
 * The memory map of structured serialization (HTML StructuredSerializeInternal step "memory"; V8's id map): which
 * objects were already visited in this call, numbered in first-visit order (the V8 object ids, SC-E rules), so that
 * cycles and shared references become back-references.
 *
 * Cost model (Node 20, measured): a `Map` get + set costs 60-100 ns per object, more than everything else an encoder
 * does for a small object; a `Set` add with a size check (one hash operation) about 30 ns; comparing with each
 * object of an array about 1 ns per object compared. So:
 *  - the first LINEAR objects are kept in an array and a new object is compared with each (no Set to allocate for
 *    tiny graphs);
 *  - past that, a `Set` answers "seen before?" with one `add` and a size check;
 *  - on the first revisit in Set mode a `Map` from object to index is built, and used from then on (graphs with
 *    shared references pay one Map operation per object).
 * Every visited object is recorded, so shared references and cycles are found exactly; nothing is assumed about
 * the graph's shape.
 */

const LINEAR = 8;

export class Identity {
  /** visited objects in first-visit order: objs[i] has index i */
  readonly objs: object[] = [];
  private set: Set<object> | null = null;
  private map: Map<object, number> | null = null;

  get size(): number {
    return this.objs.length;
  }

  /** The index of `o` if it was visited before; otherwise records it (taking the next index) and returns -1. */
  visit(o: object): number {
    const set = this.set;
    if (set !== null) {
      const size = set.size;
      set.add(o);
      if (set.size !== size) {
        this.objs.push(o);
        return -1;
      }
      return this.toMap().get(o)!;
    }
    const objs = this.objs;
    const n = objs.length;
    const map = this.map;
    if (map !== null) {
      const id = map.get(o);
      if (id !== undefined) return id;
      map.set(o, n);
      objs.push(o);
      return -1;
    }
    for (let i = 0; i < n; i++) if (objs[i] === o) return i;
    objs.push(o);
    if (n + 1 === LINEAR) this.set = new Set(objs);
    return -1;
  }

  /** The index of `o`, or -1 (records nothing). */
  find(o: object): number {
    const objs = this.objs;
    const n = objs.length;
    if (n <= LINEAR) {
      for (let i = 0; i < n; i++) if (objs[i] === o) return i;
      return -1;
    }
    if (this.map !== null) {
      const id = this.map.get(o);
      return id === undefined ? -1 : id;
    }
    if (!this.set!.has(o)) return -1;
    return this.toMap().get(o)!;
  }

  /** Records `o`, which must not have been visited, and returns its index. */
  add(o: object): number {
    const objs = this.objs;
    const n = objs.length;
    objs.push(o);
    if (n < LINEAR) {
      if (n + 1 === LINEAR) this.set = new Set(objs);
    } else if (this.map !== null) this.map.set(o, n);
    else this.set!.add(o);
    return n;
  }

  private toMap(): Map<object, number> {
    const objs = this.objs;
    const map = new Map<object, number>();
    for (let i = 0; i < objs.length; i++) map.set(objs[i]!, i);
    this.map = map;
    this.set = null;
    return map;
  }
}
