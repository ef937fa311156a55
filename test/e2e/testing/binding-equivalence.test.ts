import { describe, expect, it } from "vitest";
import type { Transport } from "@protoc-gen-a2a/runtime";
import {
  BindingEquivalenceError,
  assertBindingEquivalence,
  describeDifference,
  equivalenceCell,
  formatEquivalenceReport,
  type EquivalenceReport,
  type Outcome,
} from "@protoc-gen-a2a/runtime/testing";
import {
  A2AServiceReferenceBindings,
  checkA2AServiceBindingEquivalence,
  type A2AServiceBindingFactory,
} from "../../../generated-example/gen/a2a_a2a_equivalence.js";
import {
  A2AServiceOperations,
  A2AServiceRequiredFields,
  A2AServiceTransportClient,
} from "../../../generated-example/gen/a2a_a2a_handler.js";
import {
  InternalError,
  TaskNotFoundError,
  errorSpecs,
} from "../../../generated-example/gen/a2a_a2a_errors.js";
import { fileOf, runPlugin } from "../../support/plugin-runner.js";

const statuses = (report: EquivalenceReport, binding: string) =>
  report.cells.filter((c) => c.binding === binding).map((c) => c.status);
const failing = (report: EquivalenceReport, binding: string) =>
  report.failures.filter((f) => f.binding === binding).map((f) => f.scenario);

/** The generated JSON-RPC binding, its client's transport replaced by `wrap(transport)`: a binding under test that is broken on purpose. */
function brokenJsonRpc(wrap: (transport: Transport) => Transport): A2AServiceBindingFactory {
  return async (handler, serverOptions) => {
    const inner = await A2AServiceReferenceBindings.JSONRPC(handler, serverOptions);
    const broken = (client: { transport: Transport }) =>
      new A2AServiceTransportClient(wrap(client.transport));
    return {
      client: broken(inner.client),
      clientWith: (options) => broken(inner.clientWith(options)),
      close: inner.close,
    };
  };
}

/** A client that maps TaskNotFoundError to InternalError, unary and streaming. */
const taskNotFoundAsInternal = (transport: Transport): Transport => {
  const map = (e: unknown) => (e instanceof TaskNotFoundError ? new InternalError() : e);
  return {
    async unary(operation, request, options) {
      try {
        return await transport.unary(operation, request, options);
      } catch (e) {
        throw map(e);
      }
    },
    async *stream(operation, request, options) {
      try {
        yield* transport.stream(operation, request, options);
      } catch (e) {
        throw map(e);
      }
    },
  };
};

/** The events of a stream but its last one (when it ends normally). */
async function* withoutLast<T>(events: AsyncIterable<T>): AsyncIterable<T> {
  let held: { event: T } | undefined;
  for await (const event of events) {
    if (held !== undefined) yield held.event;
    held = { event };
  }
}

/** A client whose streams drop their last event when they end normally. */
const dropLastEvent = (transport: Transport): Transport => ({
  unary: (operation, request, options) => transport.unary(operation, request, options),
  stream: (operation, request, options) =>
    withoutLast(transport.stream(operation, request, options)),
});

describe("the binding-equivalence kit over the generated bindings", () => {
  it("JSON-RPC as reference, HTTP+JSON and gRPC as candidates: every scenario passes on every binding", async () => {
    const report = await checkA2AServiceBindingEquivalence({
      references: { JSONRPC: A2AServiceReferenceBindings.JSONRPC },
      candidates: {
        "HTTP+JSON": A2AServiceReferenceBindings["HTTP+JSON"],
        GRPC: A2AServiceReferenceBindings.GRPC,
      },
    });
    console.log(formatEquivalenceReport(report));
    expect(report.failures).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.bindings).toEqual([
      { name: "JSONRPC", role: "reference" },
      { name: "HTTP+JSON", role: "candidate" },
      { name: "GRPC", role: "candidate" },
    ]);
    expect(report.cells).toHaveLength(report.scenarios.length * 3);
    for (const binding of ["JSONRPC", "HTTP+JSON", "GRPC"])
      expect(new Set(statuses(report, binding))).toEqual(new Set(["pass"]));
    for (const cell of report.cells)
      expect(cell.outcome?.length ?? 0, `${cell.scenario} on ${cell.binding}`).toBeGreaterThan(0);

    // The scenarios cover every operation, every raisable error (unary and streaming) and every REQUIRED field of every request.
    const names = report.scenarios.map((s) => s.name);
    for (const op of Object.values(A2AServiceOperations))
      expect(
        names.some((n) => n.startsWith(op.name)),
        op.name,
      ).toBe(true);
    const raisable = Object.keys(errorSpecs).filter(
      (n) => !["JsonParseError", "InvalidRequestError", "MethodNotFoundError"].includes(n),
    );
    for (const name of raisable)
      expect(names).toEqual(
        expect.arrayContaining([`error mapping ${name}`, `error mapping ${name} (stream)`]),
      );
    expect(names).not.toContain("error mapping MethodNotFoundError");
    for (const op of Object.values(A2AServiceOperations)) {
      for (const rule of A2AServiceRequiredFields[op.input.typeName] ?? []) {
        if (rule.check !== undefined)
          expect(names, `${op.name}.${rule.json}`).toContain(
            `missing ${op.name}.${rule.json} → InvalidParamsError`,
          );
        if (rule.min !== undefined)
          expect(names).toContain(
            `out of range ${op.name}.${rule.json} = ${rule.min - 1} → InvalidParamsError`,
          );
      }
    }
    expect(names).toEqual(
      expect.arrayContaining([
        "missing SendMessage.message.parts[0].content → InvalidParamsError",
        "missing CreateTaskPushNotificationConfig.authentication.scheme → InvalidParamsError",
      ]),
    );
    expect(new Set(report.scenarios.map((s) => s.group))).toEqual(
      new Set(["operations", "streaming", "errors", "call context", "validation", "cancellation"]),
    );
  });

  it("all three as references: every pair of bindings has the same outcome in every scenario", async () => {
    const report = await checkA2AServiceBindingEquivalence();
    expect(report.failures).toEqual([]);
    expect(report.bindings.map((b) => `${b.name} ${b.role}`)).toEqual([
      "JSONRPC reference",
      "HTTP+JSON reference",
      "GRPC reference",
    ]);
    const outcome = (scenario: string, binding: string) =>
      equivalenceCell(report, scenario, binding)?.outcome as Outcome;
    for (const { name } of report.scenarios) {
      for (const [a, b] of [
        ["JSONRPC", "HTTP+JSON"],
        ["JSONRPC", "GRPC"],
        ["HTTP+JSON", "GRPC"],
      ] as const) {
        expect(
          describeDifference(outcome(name, a), outcome(name, b)),
          `${name}: ${a} vs ${b}`,
        ).toBeUndefined();
      }
    }
    expect(assertBindingEquivalence(report)).toBe(report);
  });

  it("a candidate that maps TaskNotFoundError to InternalError fails exactly where that error is expected, saying so", async () => {
    const report = await checkA2AServiceBindingEquivalence({
      references: { JSONRPC: A2AServiceReferenceBindings.JSONRPC },
      candidates: { broken: brokenJsonRpc(taskNotFoundAsInternal) },
    });
    expect(report.ok).toBe(false);
    expect(failing(report, "JSONRPC")).toEqual([]);
    expect(failing(report, "broken").sort()).toEqual(
      [
        "DeleteTaskPushNotificationConfig",
        "GetTask of an unknown task → TaskNotFoundError",
        "error mapping TaskNotFoundError",
        "error mapping TaskNotFoundError (stream)",
      ].sort(),
    );
    const messages = report.failures.map((f) => f.message);
    expect(messages).toContain(
      "error mapping TaskNotFoundError: expected TaskNotFoundError (reason TASK_NOT_FOUND), got InternalError (reason INTERNAL)",
    );
    expect(messages).toContain(
      "error mapping TaskNotFoundError (stream): expected TaskNotFoundError (reason TASK_NOT_FOUND), got InternalError (reason INTERNAL)",
    );
    expect(messages).toContain(
      "DeleteTaskPushNotificationConfig: GetTaskPushNotificationConfig after the delete: expected TaskNotFoundError (reason TASK_NOT_FOUND), got InternalError (reason INTERNAL)",
    );
    const table = formatEquivalenceReport(report);
    expect(table).toContain("| error mapping TaskNotFoundError | pass | FAIL |");
    expect(table).toContain("| error mapping TaskNotCancelableError | pass | pass |");
    expect(table).toContain(
      "- **broken**: error mapping TaskNotFoundError: expected TaskNotFoundError (reason TASK_NOT_FOUND), got InternalError (reason INTERNAL)",
    );
    expect(() => assertBindingEquivalence(report)).toThrow(BindingEquivalenceError);
    expect(() => assertBindingEquivalence(report)).toThrow(
      /4 binding-equivalence failures:[\s\S]*\| error mapping TaskNotFoundError \| pass \| FAIL \|/,
    );
  });

  it("a candidate that drops the last event of every stream fails the streaming scenarios, saying which event is missing", async () => {
    const report = await checkA2AServiceBindingEquivalence({
      references: { JSONRPC: A2AServiceReferenceBindings.JSONRPC },
      candidates: { broken: brokenJsonRpc(dropLastEvent) },
      scenarios: (s) => s.group === "streaming" || s.group === "operations",
    });
    expect(failing(report, "JSONRPC")).toEqual([]);
    expect(failing(report, "broken")).toEqual([
      "SendStreamingMessage",
      "SendStreamingMessage → Message",
      "SubscribeToTask: snapshot, then updates",
    ]);
    const messages = report.failures.map((f) => f.message);
    expect(messages).toContain(
      "SendStreamingMessage: expected 5 events (task, statusUpdate(WORKING), artifactUpdate, artifactUpdate, statusUpdate(COMPLETED)) then end, got 4 events (task, statusUpdate(WORKING), artifactUpdate, artifactUpdate) then end",
    );
    expect(messages).toContain(
      "SendStreamingMessage → Message: expected 1 event (message) then end, got 0 events then end",
    );
    expect(messages).toContain(
      "SubscribeToTask: snapshot, then updates: SubscribeToTask: expected 4 events (task, statusUpdate(WORKING), artifactUpdate, statusUpdate(COMPLETED)) then end, got 3 events (task, statusUpdate(WORKING), artifactUpdate) then end",
    );
  });

  it("a binding without clientWith is n/a where a scenario needs client options, and one that cannot start fails everywhere", async () => {
    const report = await checkA2AServiceBindingEquivalence({
      references: { JSONRPC: A2AServiceReferenceBindings.JSONRPC },
      candidates: {
        "no-options": async (handler, serverOptions) => {
          const { client, close } = await A2AServiceReferenceBindings.JSONRPC(
            handler,
            serverOptions,
          );
          return { client, close };
        },
        "no-server": async () => {
          throw new Error("port in use");
        },
      },
      scenarios: (s) => s.group === "call context",
    });
    const na = report.cells
      .filter((c) => c.status === "n/a")
      .map((c) => `${c.binding}: ${c.scenario}`);
    expect(na).toEqual([
      "no-options: tenant (client option)",
      "no-options: version 1.0.3 negotiates 1.0",
      "no-options: unsupported version 0.3 → VersionNotSupportedError",
    ]);
    expect(failing(report, "no-options")).toEqual([]);
    expect(new Set(statuses(report, "no-server"))).toEqual(new Set(["FAIL"]));
    expect(report.failures.find((f) => f.binding === "no-server")?.message).toBe(
      "tenant (client option): could not start no-server (default server options): port in use",
    );
    expect(formatEquivalenceReport(report)).toContain(
      "| tenant (client option) | pass | n/a | FAIL |",
    );
  });
});

describe("the generated binder", () => {
  it("lists the emitted bindings only as references, and is emitted for A2A-shaped services only", () => {
    const all = fileOf(runPlugin("a2a"), "a2a_a2a_equivalence.ts");
    expect(
      [...all.matchAll(/^ {2}("?[A-Z+]+"?): async \(handler, serverOptions\) => \{$/gm)].map(
        (m) => m[1],
      ),
    ).toEqual(["JSONRPC", '"HTTP+JSON"', "GRPC"]);
    expect(all).toContain(
      "export function checkA2AServiceBindingEquivalence(options?: A2AServiceEquivalenceOptions): Promise<EquivalenceReport>",
    );
    const jsonRpcOnly = fileOf(runPlugin("a2a", "bindings=jsonrpc"), "a2a_a2a_equivalence.ts");
    expect(jsonRpcOnly).toContain("JSONRPC: async (handler, serverOptions) => {");
    expect(jsonRpcOnly).not.toMatch(/Rest|Grpc|grpc|HTTP\+JSON/);
    const grpcOnly = fileOf(runPlugin("a2a", "bindings=grpc"), "a2a_a2a_equivalence.ts");
    expect(grpcOnly).toContain("GRPC: async (handler, serverOptions) => {");
    expect(grpcOnly).not.toMatch(/listenHttp|JsonRpc|Rest/);
    expect(grpcOnly).not.toMatch(/from "node:/);
    expect([...runPlugin("library").files.keys()].filter((n) => n.includes("equivalence"))).toEqual(
      [],
    );
  });

  it("raises every error of the catalog but the JSON-RPC envelope errors", () => {
    const source = fileOf(runPlugin("a2a"), "a2a_a2a_equivalence.ts");
    const raisable = JSON.parse(/raisableErrors: (\[.*\]),/.exec(source)?.[1] ?? "[]") as string[];
    expect(raisable).toEqual(
      Object.keys(errorSpecs).filter(
        (n) => !["JsonParseError", "InvalidRequestError", "MethodNotFoundError"].includes(n),
      ),
    );
  });
});
