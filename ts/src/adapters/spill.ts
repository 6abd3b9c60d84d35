/**
 * Node file IO of formData()'s spill option: temp files for large file parts, and their removal. Node's modules
 * are fetched at call time (nodeBuiltin), so the package still loads, and bundles, where there is no file system.
 *
 * The set of live temp files, the exit hook and the FinalizationRegistry are per process on purpose: a temp file
 * must go when its File is garbage-collected or when the process exits, whichever parse made it.
 */
import { MULTIPART_FORM_DEFAULTS } from '../core/registry.js';
import { nodeBuiltin } from './node.js';

/** Where formData() spills large file parts (Node 20+ only: uses node:fs and fs.openAsBlob). */
export interface SpillOptions {
  /** File parts longer than this many bytes go to a temp file instead of memory. Default 1 MiB. */
  threshold?: number;
  /** Directory for the temp files. Default os.tmpdir(). */
  dir?: string;
  /**
   * `max_disk_bytes` (MP-L-06): the most bytes all temp files of one body may hold together; a file part moved to
   * disk counts from its first byte. Beyond it formData() fails with `MP_LIMIT_DISK_BYTES` (HTTP 413) and removes
   * its temp files. Default 10 GiB; `null` or `Infinity` is unlimited.
   */
  maxDiskBytes?: number | null;
}

/** An open temp file. */
export interface SpillHandle {
  write(b: Uint8Array): Promise<unknown>;
  close(): Promise<void>;
}

/** What the FormData builder needs to spill: everything that touches the file system. */
export interface SpillEnv {
  threshold: number;
  /** max_disk_bytes (Infinity when off). */
  maxDiskBytes: number;
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

/** Temp files not yet removed, and their removal when their File is collected, at exit or on a signal. */
const live = new Set<string>();
/**
 * Handles of temp files still being written, held until they are closed: a FileHandle left to the garbage collector
 * is closed by it (Node warns; Bun throws, which ends the process), e.g. when an abandoned parse's builder is collected.
 */
const writing = new Map<string, Promise<SpillHandle>>();
let exitHook = false;
let registry: FinalizationRegistry<string> | null = null;
let unlinkSync: ((path: string) => void) | null = null;

/** Signals whose default action ends the process. */
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

interface NodeProcess {
  pid: number;
  once(e: string, f: () => void): void;
  on(e: string, f: () => void): void;
  removeListener(e: string, f: () => void): void;
  listenerCount(e: string): number;
  kill(pid: number, sig: string): void;
}

/**
 * Removes every temp file formData()'s spill made that is still on disk (synchronously), and returns how many it
 * removed. Files of FormData objects still in use stop being readable. Runs by itself at exit and on SIGTERM,
 * SIGINT and SIGHUP; call it yourself from your own shutdown path (the counterpart of Python's FormData.close()).
 */
export function removeSpilledFiles(): number {
  let n = 0;
  for (const p of live) {
    try {
      unlinkSync?.(p);
      n++;
    } catch {
      // already gone
    }
  }
  live.clear();
  return n;
}

export async function spillEnv(o: SpillOptions): Promise<SpillEnv> {
  const fsp = await nodeBuiltin<NodeFs>('node:fs/promises');
  const fs = await nodeBuiltin<{
    openAsBlob?: (path: string, o: { type: string }) => Promise<Blob>;
    unlinkSync: (path: string) => void;
  }>('node:fs');
  const os = await nodeBuiltin<typeof import('node:os')>('node:os');
  const path = await nodeBuiltin<typeof import('node:path')>('node:path');
  const openAsBlob = fs.openAsBlob;
  if (typeof openAsBlob !== 'function') throw new Error('formwire: spill needs fs.openAsBlob (Node 20 or later)');
  if (!exitHook) {
    exitHook = true;
    unlinkSync = fs.unlinkSync;
    const proc = (globalThis as { process?: NodeProcess }).process;
    if (proc) {
      proc.once('exit', removeSpilledFiles);
      // A signal's default action ends the process without 'exit': remove the files first, then, when no one else
      // listens for it, let the signal do what it would have done (our listener is removed and it is raised again).
      for (const sig of SIGNALS) {
        const onSignal = (): void => {
          removeSpilledFiles();
          if (proc.listenerCount(sig) === 1) {
            proc.removeListener(sig, onSignal);
            proc.kill(proc.pid, sig);
          }
        };
        try {
          proc.on(sig, onSignal);
        } catch {
          // a signal this platform does not have
        }
      }
    }
    registry = new FinalizationRegistry((p: string) => {
      live.delete(p);
      fsp.unlink(p).catch(() => {});
    });
  }
  const dir = o.dir ?? os.tmpdir();
  return {
    threshold: o.threshold ?? 1048576,
    maxDiskBytes: o.maxDiskBytes === undefined ? MULTIPART_FORM_DEFAULTS.maxDiskBytes : (o.maxDiskBytes ?? Infinity),
    create() {
      const p = path.join(dir, `formwire-${(globalThis as { crypto: Crypto }).crypto.randomUUID()}`);
      live.add(p);
      const handle = fsp.open(p, 'wx');
      writing.set(p, handle);
      return { path: p, handle };
    },
    async adopt(p, type, owner) {
      writing.delete(p);
      const file = owner(await openAsBlob(p, { type }));
      registry?.register(file, p);
      return file;
    },
    async remove(p) {
      writing.delete(p);
      live.delete(p);
      await fsp.unlink(p).catch(() => {});
    },
  };
}
