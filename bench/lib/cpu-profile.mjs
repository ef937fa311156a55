// Summaries of a V8 .cpuprofile for the profile scripts (bench/profile.mjs, bench/grpc/profile.mjs).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** The newest .cpuprofile in `dir` written since `sinceMs`; throws when there is none. */
export function newestProfile(dir, sinceMs) {
  const file = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile") && statSync(join(dir, f)).mtimeMs >= sinceMs)
    .map((f) => join(dir, f))
    .pop();
  if (file === undefined) throw new Error("no profile written");
  return file;
}

/**
 * The busy time of a profile (idle left out) by function, self and inclusive, and by `category(node)`
 * when given; `format(map)` lists a map's `top` entries as percentages of the busy time.
 */
export function summarizeProfile(file, { top = 30, category } = {}) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const label = (n) =>
    `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.split("/").slice(-2).join("/")}:${n.callFrame.lineNumber + 1}`;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const time = new Map();
  for (let i = 0; i < profile.samples.length; i++)
    time.set(
      profile.samples[i],
      (time.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0),
    );
  const self = new Map();
  const inclusive = new Map();
  const byCategory = new Map();
  let busy = 0;
  let idle = 0;
  for (const n of profile.nodes) {
    const t = time.get(n.id) ?? 0;
    if (t === 0) continue;
    if (n.callFrame.functionName === "(idle)") {
      idle += t;
      continue;
    }
    busy += t;
    self.set(label(n), (self.get(label(n)) ?? 0) + t);
    if (category !== undefined) byCategory.set(category(n), (byCategory.get(category(n)) ?? 0) + t);
    const seen = new Set();
    for (let id = n.id; id !== undefined; id = parent.get(id)) {
      const key = label(nodes.get(id));
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + t);
    }
  }
  const format = (m) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `${((100 * v) / busy).toFixed(1).padStart(5)}%  ${k}`)
      .join("\n");
  return { busy, idle, self, inclusive, byCategory, format };
}
