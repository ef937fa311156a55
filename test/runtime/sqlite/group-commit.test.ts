/**
 * The SQLite task store's group commit (runtime/src/sqlite/group-commit.ts) as a unit, over a fake
 * commit function: the writes of one event-loop turn are one commit, in order, their promises
 * settled only after it; a write that fails alone rejects alone; a commit that throws rejects
 * exactly the writes of its batch and later writes still commit; two writes of a key in one batch
 * are written once; `maxBatch` commits at once; a busy database is retried on a timer (the batch
 * kept before newer writes) up to `busyTimeoutMs`; `flush()` and `close()`.
 */
import { describe, expect, it } from "vitest";
import { GroupCommit, type GroupCommitOptions } from "../../../runtime/src/sqlite/group-commit.js";

interface Write {
  readonly key: string;
  readonly value: string;
}

/** What happens to one commit call: write everything, fail some writes alone, or throw. */
type Plan =
  | { readonly throws: unknown }
  | { readonly failAlone: Readonly<Record<string, unknown>> }
  | undefined;

const BUSY = Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });

/** A group commit over a fake commit that records every batch and follows `plans` (one per call; afterwards, success). */
function harness(plans: Plan[] = [], options: Partial<GroupCommitOptions<Write>> = {}) {
  const batches: string[][] = [];
  const committed: string[] = [];
  const commits = new GroupCommit<Write>({
    commit(batch, errors) {
      batches.push(batch.map((w) => w.value));
      const plan = plans.shift();
      if (plan !== undefined && "throws" in plan) throw plan.throws;
      batch.forEach((w, i) => {
        if (plan !== undefined && w.value in plan.failAlone) errors[i] = plan.failAlone[w.value];
        else committed.push(w.value);
      });
    },
    isBusy: (e) => (e as { code?: unknown } | null)?.code === "SQLITE_BUSY",
    busyTimeoutMs: 1000,
    retryMs: 5,
    ...options,
  });
  const write = (key: string, value = key) => settled(commits.add(key, { key, value }));
  return { commits, batches, committed, write };
}

/** A promise's state, readable synchronously. */
function settled(promise: Promise<void>) {
  const state: {
    status: "pending" | "resolved" | "rejected";
    error?: unknown;
    promise: Promise<void>;
  } = { status: "pending", promise };
  promise.then(
    () => {
      state.status = "resolved";
    },
    (error: unknown) => {
      state.status = "rejected";
      state.error = error;
    },
  );
  return state;
}

/** Lets the current event-loop turn end (the group commit's setImmediate runs), then the promise callbacks. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe("GroupCommit", () => {
  it("commits the writes of one turn in one batch, in order, and settles them only after the commit", async () => {
    const h = harness();
    const writes = ["a", "b", "c", "d"].map((k) => h.write(k));
    expect(h.commits.size).toBe(4);
    expect(h.commits.has("b")).toBe(true);
    await Promise.resolve();
    expect(h.batches).toEqual([]);
    expect(writes.map((w) => w.status)).toEqual(["pending", "pending", "pending", "pending"]);
    await nextTurn();
    expect(h.batches).toEqual([["a", "b", "c", "d"]]);
    await Promise.all(writes.map((w) => w.promise));
    expect(writes.map((w) => w.status)).toEqual(["resolved", "resolved", "resolved", "resolved"]);
    expect(h.commits.size).toBe(0);
    expect(h.commits.has("b")).toBe(false);
  });

  it("commits the writes of later turns in later batches, in order", async () => {
    const h = harness();
    const first = [h.write("a"), h.write("b")];
    await nextTurn();
    const second = [h.write("c")];
    await nextTurn();
    const third = [h.write("d"), h.write("e")];
    await Promise.all([...first, ...second, ...third].map((w) => w.promise));
    expect(h.batches).toEqual([["a", "b"], ["c"], ["d", "e"]]);
    expect(h.committed).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("writes a key written twice in one batch once, the last write, in the place of the last; both callers wait for it", async () => {
    const h = harness();
    const a1 = h.write("a", "a1");
    const b = h.write("b");
    const a2 = h.write("a", "a2");
    expect(h.commits.size).toBe(2);
    await Promise.all([a1.promise, b.promise, a2.promise]);
    expect(h.batches).toEqual([["b", "a2"]]);
    expect([a1.status, b.status, a2.status]).toEqual(["resolved", "resolved", "resolved"]);
  });

  it("a write that fails alone rejects alone, with its own error; the others of the batch commit", async () => {
    const quota = new RangeError("over quota");
    const h = harness([{ failAlone: { b: quota, c: undefined } }]);
    const [a, b, c, d] = ["a", "b", "c", "d"].map((k) => h.write(k));
    await nextTurn();
    await Promise.allSettled([a, b, c, d].map((w) => w?.promise));
    expect([a?.status, b?.status, c?.status, d?.status]).toEqual([
      "resolved",
      "rejected",
      "rejected",
      "resolved",
    ]);
    expect(b?.error).toBe(quota);
    // An error slot set, even to undefined, fails its write.
    expect(c?.error).toBeUndefined();
    expect(h.committed).toEqual(["a", "d"]);
  });

  it("a commit that throws rejects exactly the writes of its batch, with its error; later writes still commit", async () => {
    const disk = Object.assign(new Error("disk I/O error"), { code: "SQLITE_IOERR" });
    const h = harness([undefined, { throws: disk }]);
    const before = h.write("a");
    await nextTurn();
    const failed = [h.write("b"), h.write("c", "c1")];
    await nextTurn();
    const after = [h.write("c", "c2"), h.write("d")];
    await Promise.allSettled([before, ...failed, ...after].map((w) => w.promise));
    expect(before.status).toBe("resolved");
    expect(failed.map((w) => [w.status, w.error])).toEqual([
      ["rejected", disk],
      ["rejected", disk],
    ]);
    expect(after.map((w) => w.status)).toEqual(["resolved", "resolved"]);
    expect(h.batches).toEqual([["a"], ["b", "c1"], ["c2", "d"]]);
    expect(h.committed).toEqual(["a", "c2", "d"]);
  });

  it("commits at once, before the turn ends, when maxBatch writes are queued", async () => {
    const h = harness([], { maxBatch: 3 });
    h.write("a");
    h.write("b");
    expect(h.batches).toEqual([]);
    const c = h.write("c");
    expect(h.batches).toEqual([["a", "b", "c"]]);
    const d = h.write("d");
    await Promise.all([c.promise, d.promise]);
    expect(h.batches).toEqual([["a", "b", "c"], ["d"]]);
  });

  it("flush() commits what is pending now; writes after it go to the batch at the end of the turn", async () => {
    const h = harness();
    const a = h.write("a");
    h.commits.flush();
    expect(h.batches).toEqual([["a"]]);
    const b = h.write("b");
    h.commits.flush();
    h.commits.flush();
    const c = h.write("c");
    expect(h.batches).toEqual([["a"], ["b"]]);
    await Promise.all([a.promise, b.promise, c.promise]);
    expect(h.batches).toEqual([["a"], ["b"], ["c"]]);
  });

  it("retries a batch that finds the database locked on a timer, keeping it before newer writes (merged by key); flush() waits meanwhile", async () => {
    const h = harness([{ throws: BUSY }, { throws: BUSY }]);
    const a = h.write("a", "a1");
    const b = h.write("b");
    await nextTurn();
    expect(h.batches).toEqual([["a1", "b"]]);
    expect(h.commits.size).toBe(2);
    // Written while the batch waits: they go after it, and the second write of "a" replaces the first and moves to the end.
    const c = h.write("c");
    const a2 = h.write("a", "a2");
    h.commits.flush();
    await nextTurn();
    expect(h.batches).toHaveLength(1);
    expect([a.status, b.status, c.status, a2.status]).toEqual([
      "pending",
      "pending",
      "pending",
      "pending",
    ]);
    await Promise.all([a.promise, b.promise, c.promise, a2.promise]);
    expect(h.batches).toEqual([
      ["a1", "b"],
      ["b", "c", "a2"],
      ["b", "c", "a2"],
    ]);
    expect(h.committed).toEqual(["b", "c", "a2"]);
  });

  it("rejects a batch with the busy error once it has waited busyTimeoutMs; the next batch has its own wait, and commits", async () => {
    const plans: Plan[] = Array.from({ length: 200 }, () => ({ throws: BUSY }));
    const h = harness(plans, { busyTimeoutMs: 30 });
    const started = Date.now();
    const a = h.write("a");
    await a.promise.catch(() => {});
    expect(a.status).toBe("rejected");
    expect(a.error).toBe(BUSY);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(h.batches.length).toBeGreaterThan(2);
    expect(h.batches.every((batch) => batch.join() === "a")).toBe(true);
    plans.length = 2; // two more busy answers, then the lock is free
    const b = h.write("b");
    await b.promise;
    expect(b.status).toBe("resolved");
    expect(h.committed).toEqual(["b"]);
  });

  it("close() commits what is pending at once, cancelling a pending retry; a busy database then fails the batch at once", async () => {
    const h = harness([{ throws: BUSY }, { throws: BUSY }]);
    const a = h.write("a");
    await nextTurn();
    expect(h.batches).toHaveLength(1);
    const b = h.write("b");
    h.commits.close();
    // Synchronously: the second attempt, busy again, fails the batch without a retry.
    expect(h.batches).toEqual([["a"], ["a", "b"]]);
    await Promise.allSettled([a.promise, b.promise]);
    expect([a.status, b.status]).toEqual(["rejected", "rejected"]);
    expect(a.error).toBe(BUSY);
    await sleep(20);
    expect(h.batches).toHaveLength(2);
  });

  it("close() commits pending writes synchronously", async () => {
    const h = harness();
    const a = h.write("a");
    const b = h.write("b");
    h.commits.close();
    expect(h.batches).toEqual([["a", "b"]]);
    await Promise.all([a.promise, b.promise]);
    expect(h.commits.size).toBe(0);
    await nextTurn();
    expect(h.batches).toHaveLength(1);
  });

  it("close(false) cancels a pending retry and commits nothing", async () => {
    const h = harness([{ throws: BUSY }]);
    const a = h.write("a");
    await nextTurn();
    h.commits.close(false);
    await sleep(20);
    expect(h.batches).toEqual([["a"]]);
    expect(a.status).toBe("pending");
    expect(h.commits.size).toBe(1);
  });

  it("a write after close() goes to a batch at the end of the turn, as before (the commit function decides: the store's throws once its connection is closed)", async () => {
    const closedError = new TypeError("The database connection is not open");
    const h = harness([undefined, { throws: closedError }]);
    h.commits.close();
    const a = h.write("a");
    await a.promise;
    const b = h.write("b");
    await b.promise.catch(() => {});
    expect([a.status, b.status, b.error]).toEqual(["resolved", "rejected", closedError]);
    expect(h.batches).toEqual([["a"], ["b"]]);
  });
});
