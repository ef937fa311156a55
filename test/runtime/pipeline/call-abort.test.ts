/**
 * The call context's lazy cancellation (runtime/src/pipeline/call-abort.ts): HTTP bindings hand the context a
 * source whose AbortSignal is made only when a handler reads `context.signal`; the runtime's own
 * waiters watch through `onAbort`. Checked here through establishContext with a fake request; end to
 * end, test/e2e/http/abandoned-calls.test.ts and test/e2e/task/backpressure.test.ts cover clients that go away.
 */
import { describe, expect, it } from "vitest";
import { ServiceParameters } from "../../../runtime/src/pipeline/call-context.js";
import {
  CALL_CANCELLATION,
  LazyCallCancellation,
  isCallAborted,
  watchCallAbort,
  withTenant,
  type CallCancellation,
} from "../../../runtime/src/pipeline/call-abort.js";
import {
  establishContext,
  resolveServerOptions,
} from "../../../runtime/src/pipeline/server-pipeline.js";
import { errorSpecs } from "../../../generated-example/gen/a2a_a2a_errors.js";

/** A request-like cancellation source that counts how often its signal was made. */
function fakeSource() {
  let made = 0;
  let aborted = false;
  let controller: AbortController | undefined;
  const listeners: (() => void)[] = [];
  const source: CallCancellation & { abort(): void; readonly made: number } = {
    get signal() {
      if (controller === undefined) {
        made++;
        controller = new AbortController();
        if (aborted) controller.abort();
      }
      return controller.signal;
    },
    get aborted() {
      return aborted;
    },
    onAbort(listener) {
      if (aborted) {
        listener();
        return () => {};
      }
      listeners.push(listener);
      return () => listeners.splice(listeners.indexOf(listener), 1);
    },
    abort() {
      aborted = true;
      controller?.abort();
      for (const l of listeners.splice(0)) l();
    },
    get made() {
      return made;
    },
  };
  return source;
}

const settings = resolveServerOptions({ versionWhenMissing: "1.0" }, errorSpecs);
const context = (signal: CallCancellation | AbortSignal) =>
  establishContext(settings, {
    binding: "JSONRPC",
    operation: "SendMessage",
    serviceParameters: new ServiceParameters(),
    tenant: "",
    signal,
  });

describe("lazy call cancellation", () => {
  it("makes no AbortSignal until a handler reads context.signal, and the same one after", async () => {
    const source = fakeSource();
    const ctx = await context(source);
    expect(source.made).toBe(0);
    expect(isCallAborted(ctx)).toBe(false);
    const unwatch = watchCallAbort(ctx)(() => {});
    unwatch();
    expect(source.made).toBe(0);
    const signal = ctx.signal;
    expect(source.made).toBe(1);
    expect(ctx.signal).toBe(signal);
    expect((ctx as unknown as Record<symbol, unknown>)[CALL_CANCELLATION]).toBe(source);
  });

  it("watchCallAbort fires once on abort (and at once when already aborted); unwatching stops it", async () => {
    const source = fakeSource();
    const ctx = await context(source);
    let fired = 0;
    let stopped = 0;
    watchCallAbort(ctx)(() => fired++);
    const unwatch = watchCallAbort(ctx)(() => stopped++);
    unwatch();
    source.abort();
    expect([fired, stopped]).toEqual([1, 0]);
    expect(isCallAborted(ctx)).toBe(true);
    watchCallAbort(ctx)(() => fired++);
    expect(fired).toBe(2);
    expect(ctx.signal.aborted).toBe(true);
  });

  it("works the same over a plain AbortSignal (gRPC, direct calls)", async () => {
    const controller = new AbortController();
    const ctx = await context(controller.signal);
    expect(ctx.signal).toBe(controller.signal);
    let fired = 0;
    watchCallAbort(ctx)(() => fired++);
    expect(isCallAborted(ctx)).toBe(false);
    controller.abort();
    expect(fired).toBe(1);
    expect(isCallAborted(ctx)).toBe(true);
  });

  it("withTenant changes the tenant only and keeps the signal lazy", async () => {
    const source = fakeSource();
    const ctx = await context(source);
    const other = withTenant(ctx, "acme");
    expect(other.tenant).toBe("acme");
    expect(ctx.tenant).toBe("");
    expect(other.operation).toBe("SendMessage");
    expect(other.activatedExtensions).toBe(ctx.activatedExtensions);
    expect(source.made).toBe(0);
    expect(other.signal).toBe(ctx.signal);
    expect(source.made).toBe(1);
    // A spread (what user code may do) still carries a working signal.
    expect({ ...other }.signal).toBe(ctx.signal);
  });
});

describe("ServiceParameters.fromHeaders", () => {
  it("reads headers on demand, case-insensitively, and lists them once asked", () => {
    let listed = 0;
    const headers: Record<string, string> = { "a2a-version": "1.0", authorization: "Bearer x" };
    const parameters = ServiceParameters.fromHeaders({
      header: (name) => headers[name.toLowerCase()],
      headers: () => {
        listed++;
        return Object.entries(headers);
      },
    });
    expect(parameters.get("A2A-Version")).toBe("1.0");
    expect(parameters.has("authorization")).toBe(true);
    expect(parameters.has("a2a-extensions")).toBe(false);
    expect(listed).toBe(0);
    expect([...parameters.entries()]).toEqual([
      ["a2a-version", "1.0"],
      ["authorization", "Bearer x"],
    ]);
    expect([...parameters.entries()]).toHaveLength(2);
    expect(listed).toBe(1);
  });
});

describe("LazyCallCancellation", () => {
  it("makes no signal until one is read, wakes onAbort listeners once, and the first abort wins", () => {
    const c = new LazyCallCancellation<string>();
    const seen: string[] = [];
    const stop = c.onAbort(() => seen.push("a"));
    c.onAbort(() => seen.push("b"));
    stop(); // "a" no longer listens
    expect(c.aborted).toBe(false);
    expect(c.abort("first")).toBe(true);
    expect(c.abort("second")).toBe(false);
    expect(seen).toEqual(["b"]);
    expect(c.reason).toBe("first");
    // A signal read after the abort is aborted already, with the first reason.
    expect(c.signal.aborted).toBe(true);
    expect(c.signal.reason).toBe("first");
    // A listener added after the abort is called at once.
    c.onAbort(() => seen.push("late"));
    expect(seen).toEqual(["b", "late"]);
  });

  it("aborts a signal read before the abort", () => {
    const c = new LazyCallCancellation<Error>();
    const signal = c.signal;
    expect(signal.aborted).toBe(false);
    const reason = new Error("gone");
    c.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
  });
});
