/**
 * Node file IO of formData()'s spill option: temp files for large file parts, and their removal. Loaded lazily
 * (dynamic `node:` imports) so the package still loads where there is no file system.
 *
 * The set of live temp files, the exit hook and the FinalizationRegistry are per process on purpose: a temp file
 * must go when its File is garbage-collected or when the process exits, whichever parse made it.
 */

/** Where formData() spills large file parts (Node 20+ only: uses node:fs and fs.openAsBlob). */
export interface SpillOptions {
  /** File parts longer than this many bytes go to a temp file instead of memory. Default 1 MiB. */
  threshold?: number;
  /** Directory for the temp files. Default os.tmpdir(). */
  dir?: string;
}

/** An open temp file. */
export interface SpillHandle {
  write(b: Uint8Array): Promise<unknown>;
  close(): Promise<void>;
}

/** What the FormData builder needs to spill: everything that touches the file system. */
export interface SpillEnv {
  threshold: number;
  /** A new temp file path (tracked until removed), and the file opened exclusively for writing. */
  create(): { path: string; handle: Promise<SpillHandle> };
  /** The closed temp file as a Blob; the file is removed when `owner` is garbage-collected or at exit. */
  adopt<T extends object>(path: string, type: string, owner: (blob: Blob) => T): Promise<T>;
  /** Remove a temp file now (parsing failed). */
  remove(path: string): Promise<void>;
}

interface NodeFs {
  open(path: string, flags: string): Promise<SpillHandle>;
  unlink(path: string): Promise<void>;
}

/** Temp files not yet removed, and their removal when their File is collected or at exit. */
const live = new Set<string>();
let exitHook = false;
let registry: FinalizationRegistry<string> | null = null;

export async function spillEnv(o: SpillOptions): Promise<SpillEnv> {
  const fsp = (await import('node:fs/promises')) as unknown as NodeFs;
  const fs = (await import('node:fs')) as unknown as {
    openAsBlob?: (path: string, o: { type: string }) => Promise<Blob>;
    unlinkSync: (path: string) => void;
  };
  const os = await import('node:os');
  const path = await import('node:path');
  const openAsBlob = fs.openAsBlob;
  if (typeof openAsBlob !== 'function') throw new Error('formwire: spill needs fs.openAsBlob (Node 20 or later)');
  if (!exitHook) {
    exitHook = true;
    const proc = (globalThis as { process?: { once(e: string, f: () => void): void } }).process;
    proc?.once('exit', () => {
      for (const p of live) {
        try {
          fs.unlinkSync(p);
        } catch {
          // already gone
        }
      }
    });
    registry = new FinalizationRegistry((p: string) => {
      live.delete(p);
      fsp.unlink(p).catch(() => {});
    });
  }
  const dir = o.dir ?? os.tmpdir();
  return {
    threshold: o.threshold ?? 1048576,
    create() {
      const p = path.join(dir, `formwire-${(globalThis as { crypto: Crypto }).crypto.randomUUID()}`);
      live.add(p);
      return { path: p, handle: fsp.open(p, 'wx') };
    },
    async adopt(p, type, owner) {
      const file = owner(await openAsBlob(p, { type }));
      registry?.register(file, p);
      return file;
    },
    async remove(p) {
      live.delete(p);
      await fsp.unlink(p).catch(() => {});
    },
  };
}
