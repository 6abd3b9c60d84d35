/**
 * The neutral value description (vectors/SCHEMA.md, SC-N rules) for the testee and the clone tests. It is not part
 * of the package: JavaScript has one implementation of it, the oracle's `conformance/oracles/neutral.mjs` (Node's
 * own type checks, independent of formwire's code), loaded here with its types.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type Neutral = { t: string; [k: string]: unknown };

interface NeutralModule {
  describe(value: unknown): Neutral;
  build(neutral: Neutral): unknown;
  neutralEqual(a: unknown, b: unknown): boolean;
}

// The compiled copy runs from ts/dist/testee/, the sources from ts/testee/: find the repository root upwards.
function oraclePath(): string {
  const rel = join('conformance', 'oracles', 'neutral.mjs');
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; ) {
    if (existsSync(join(dir, rel))) return join(dir, rel);
    const up = dirname(dir);
    if (up === dir) throw new Error(`${rel} not found above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

const oracle = (await import(pathToFileURL(oraclePath()).href)) as NeutralModule;

export const describe: (value: unknown) => Neutral = oracle.describe;
export const build: (neutral: Neutral) => unknown = oracle.build;
export const neutralEqual: (a: unknown, b: unknown) => boolean = oracle.neutralEqual;
