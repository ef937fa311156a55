// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/** A seeded random source for the crash-safety runs (the seed is printed with a failure, `CRASH_SEED` replays it). */

/** A mulberry32 generator in [0, 1) from `seed` (default: `CRASH_SEED` or a random seed). */
export function randomSource(
  seed = Number(process.env["CRASH_SEED"] ?? Math.floor(Math.random() * 2 ** 31)),
): { random: () => number; seed: number } {
  let a = seed >>> 0;
  const random = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { random, seed };
}
