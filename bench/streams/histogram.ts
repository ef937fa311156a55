/**
 * The delivery-delay histogram of bench/streams: log buckets 1% wide from 1 µs (bucket 0 holds everything
 * ≤ 1 µs, negative skews included) to past 10 minutes; mergeable by adding counts. A percentile is the upper
 * bound of its bucket (at most 1% above the true value).
 */
const FLOOR_MS = 0.001;
const RATIO = 1.01;
const LOG_RATIO = Math.log(RATIO);

export const HIST_SIZE = 2400;

/** Counts one delay of `ms`. */
export function histogramAdd(hist: Float64Array, ms: number): void {
  const i =
    ms <= FLOOR_MS ? 0 : Math.min(HIST_SIZE - 1, Math.ceil(Math.log(ms / FLOOR_MS) / LOG_RATIO));
  hist[i]! += 1;
}

/** The `p`-th percentile (0–100) of a sparse histogram `[[bucket, count], …]` in ms, NaN when empty. */
export function histogramPercentile(
  sparse: readonly (readonly [number, number])[],
  p: number,
): number {
  const sorted = [...sparse].sort((a, b) => a[0] - b[0]);
  const total = sorted.reduce((n, [, c]) => n + c, 0);
  if (total === 0) return NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  let seen = 0;
  for (const [i, c] of sorted) {
    seen += c;
    if (seen >= rank) return FLOOR_MS * RATIO ** i;
  }
  return FLOOR_MS * RATIO ** sorted[sorted.length - 1]![0];
}

/** Adds sparse histograms bucket by bucket. */
export function histogramMerge(
  ...all: (readonly (readonly [number, number])[])[]
): [number, number][] {
  const sum = new Map<number, number>();
  for (const sparse of all) for (const [i, c] of sparse) sum.set(i, (sum.get(i) ?? 0) + c);
  return [...sum];
}
