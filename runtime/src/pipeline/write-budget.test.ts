// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import { afterEach, describe, expect, it, vi } from "vitest";
import { WriteBudget } from "./write-budget.js";

/** A fake writer: what it holds, and whether the budget destroyed it. */
function writer(budget: WriteBudget, options?: { timeoutMs?: number; measured?: boolean }) {
  const state = { held: 0, destroyed: 0 };
  const pending = budget.watch(
    () => {
      state.destroyed++;
    },
    {
      timeoutMs: options?.timeoutMs,
      measure: options?.measured === true ? () => state.held : undefined,
    },
  );
  return {
    state,
    hold(bytes: number, progressed = false) {
      state.held = bytes;
      pending.update(bytes, progressed);
    },
    close: () => pending.close(),
  };
}

describe("WriteBudget", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("counts what its writers hold, exactly, and forgets a closed writer", () => {
    const budget = new WriteBudget(1000);
    const a = writer(budget);
    const b = writer(budget);
    a.hold(300);
    b.hold(200);
    expect(budget.stats).toEqual({ bytes: 500, responses: 2 });
    a.hold(100, true);
    expect(budget.stats.bytes).toBe(300);
    a.close();
    a.close(); // twice is harmless
    expect(budget.stats).toEqual({ bytes: 200, responses: 1 });
    b.close();
    expect(budget.stats).toEqual({ bytes: 0, responses: 0 });
  });

  it("over the budget, destroys the writer that has waited longest, never the one writing, until the rest fit", () => {
    vi.useFakeTimers();
    const budget = new WriteBudget(1200);
    const oldest = writer(budget);
    oldest.hold(400);
    vi.advanceTimersByTime(10);
    const middle = writer(budget);
    middle.hold(400);
    vi.advanceTimersByTime(10);
    const younger = writer(budget);
    younger.hold(100);
    vi.advanceTimersByTime(10);
    oldest.hold(400, true); // its peer read: it waits since now, the youngest wait of all
    const current = writer(budget);
    current.hold(650); // 1550: the one that waited longest (middle) goes, then 1150 fits
    expect([oldest, middle, younger, current].map((w) => w.state.destroyed)).toEqual([0, 1, 0, 0]);
    expect(budget.stats).toEqual({ bytes: 1150, responses: 3 });
    current.hold(1000); // 1500: younger (waiting since 20), then oldest (since 30), never current
    expect([oldest, middle, younger, current].map((w) => w.state.destroyed)).toEqual([1, 1, 1, 0]);
    expect(budget.stats).toEqual({ bytes: 1000, responses: 1 });
  });

  it("lets one answer alone exceed the budget (the answer's own limits bound it)", () => {
    const budget = new WriteBudget(100);
    const only = writer(budget);
    only.hold(5000);
    expect(only.state.destroyed).toBe(0);
    expect(budget.stats.bytes).toBe(5000);
  });

  it("measures again before destroying: a writer whose peer took bytes meanwhile is not the one to go", () => {
    vi.useFakeTimers();
    const budget = new WriteBudget(1000);
    const draining = writer(budget, { measured: true });
    draining.hold(600);
    vi.advanceTimersByTime(10);
    const stuck = writer(budget, { measured: true });
    stuck.hold(300);
    vi.advanceTimersByTime(10);
    draining.state.held = 50; // flushed without a report: only measure() sees it
    writer(budget).hold(500); // 600 + 300 + 500 over; measured: 50 + 300 + 500 = 850 fits
    expect(draining.state.destroyed).toBe(0);
    expect(stuck.state.destroyed).toBe(0);
    expect(budget.stats.bytes).toBe(850);
  });

  it("one budget bounds several listeners together", () => {
    const shared = new WriteBudget(1000);
    const http = writer(shared);
    const grpc = writer(shared);
    const ws = writer(shared);
    http.hold(400);
    grpc.hold(400);
    ws.hold(400);
    expect(http.state.destroyed).toBe(1);
    expect(shared.stats.bytes).toBe(800);
  });

  it("destroys a writer that made no progress for its own timeout; progress or holding nothing keeps it", () => {
    vi.useFakeTimers();
    const budget = new WriteBudget(0);
    const stalled = writer(budget, { timeoutMs: 1000 });
    const reading = writer(budget, { timeoutMs: 1000 });
    const empty = writer(budget, { timeoutMs: 1000 });
    const untimed = writer(budget);
    stalled.hold(10);
    reading.hold(10);
    untimed.hold(10);
    empty.hold(0);
    for (let i = 0; i < 4; i++) {
      vi.advanceTimersByTime(400);
      reading.hold(10, true);
    }
    expect(stalled.state.destroyed).toBe(1);
    expect(reading.state.destroyed).toBe(0);
    expect(empty.state.destroyed).toBe(0);
    expect(untimed.state.destroyed).toBe(0);
    // A writer with a shorter timeout, watched later, is checked at its own pace.
    const quick = writer(budget, { timeoutMs: 40 });
    quick.hold(1);
    vi.advanceTimersByTime(60);
    expect(quick.state.destroyed).toBe(1);
  });

  it("refuses a negative or non-numeric size or timeout", () => {
    expect(() => new WriteBudget(-1)).toThrow(RangeError);
    expect(() => new WriteBudget(Number.NaN)).toThrow(RangeError);
    expect(() => new WriteBudget(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => new WriteBudget(0).watch(() => {}, { timeoutMs: -5 })).toThrow(RangeError);
  });
});
