import { describe, expect, it } from "vitest";
import {
  errorCatalog,
  errorProfiles,
  grpcCodes,
  type ErrorProfile,
} from "../../../plugin/src/model/error-catalog.js";
import {
  A2AError,
  BAD_REQUEST_TYPE,
  ERROR_DOMAIN,
  ERROR_INFO_TYPE,
  GRPC_STATUS_NAMES,
  createErrorRegistry,
  isA2AError,
  toA2AError,
  toGrpcStatus,
  toHttpError,
  toJsonRpcError,
  type A2AErrorClass,
  type A2AErrorOptions,
  type A2AErrorSpec,
  type ErrorDetail,
  type ErrorRegistry,
} from "../../../runtime/src/errors/a2a-error.js";

/** What the generator emits per error: the spec as data plus a tiny subclass. */
function specOf(e: A2AErrorSpec): A2AErrorSpec {
  const { name, reason, jsonRpcCode, grpcCode, grpcStatus, httpStatus, message } = e;
  return Object.freeze({ name, reason, jsonRpcCode, grpcCode, grpcStatus, httpStatus, message });
}
function classOf(spec: A2AErrorSpec): A2AErrorClass {
  return class extends A2AError {
    static readonly spec = spec;
    constructor(message?: string, options?: A2AErrorOptions) {
      super(spec, message, options);
    }
  };
}
interface Generated {
  classes: Map<string, A2AErrorClass>;
  registry: ErrorRegistry;
}
const generated = new Map<ErrorProfile, Generated>(
  errorProfiles.map((p) => {
    const classes = new Map(errorCatalog(p).map((e) => [e.name, classOf(specOf(e))] as const));
    return [p, { classes, registry: createErrorRegistry([...classes.values()]) }];
  }),
);
function gen(profile: ErrorProfile, name: string): A2AErrorClass {
  const cls = generated.get(profile)!.classes.get(name);
  if (!cls) throw new Error(name);
  return cls;
}
const registry = generated.get("v1.0.1")!.registry;
const TaskNotFoundError = gen("v1.0.1", "TaskNotFoundError");
const InvalidParamsError = gen("v1.0.1", "InvalidParamsError");
const InternalError = gen("v1.0.1", "InternalError");

const cases = errorProfiles.flatMap((profile) =>
  errorCatalog(profile).map((e) => [profile, e.name, e] as const),
);

describe("the spec examples, literally", () => {
  const meta = { taskId: "nonexistent-task-id", timestamp: "2025-11-09T10:30:00.000Z" };

  it("§9.5 A2A-specific error response (TaskNotFound)", () => {
    const err = new TaskNotFoundError(undefined, { metadata: meta });
    const response = { jsonrpc: "2.0", id: 2, error: toJsonRpcError(err) };
    expect(JSON.parse(JSON.stringify(response))).toStrictEqual({
      jsonrpc: "2.0",
      id: 2,
      error: {
        code: -32001,
        message: "Task not found",
        data: [
          {
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            reason: "TASK_NOT_FOUND",
            domain: "a2a-protocol.org",
            metadata: { taskId: "nonexistent-task-id", timestamp: "2025-11-09T10:30:00.000Z" },
          },
        ],
      },
    });
  });

  it("§9.5 validation error (InvalidParams + BadRequest), after the ErrorInfo we always send", () => {
    const err = new InvalidParamsError(undefined, {
      fieldViolations: [{ field: "message.parts", description: "At least one part is required" }],
    });
    const { code, message, data } = toJsonRpcError(err);
    expect({ code, message }).toEqual({ code: -32602, message: "Invalid parameters" });
    expect(data).toStrictEqual([
      { "@type": ERROR_INFO_TYPE, reason: "INVALID_PARAMS", domain: ERROR_DOMAIN },
      {
        "@type": "type.googleapis.com/google.rpc.BadRequest",
        fieldViolations: [{ field: "message.parts", description: "At least one part is required" }],
      },
    ]);
  });

  it("§10.6 A2A-specific gRPC status (TaskNotFound)", () => {
    const err = new TaskNotFoundError("Task with ID 'task-123' not found", {
      metadata: { task_id: "task-123", timestamp: "2025-11-09T10:30:00Z" },
    });
    expect(toGrpcStatus(err)).toStrictEqual({
      code: 5, // NOT_FOUND
      message: "Task with ID 'task-123' not found",
      details: [
        {
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: "TASK_NOT_FOUND",
          domain: "a2a-protocol.org",
          metadata: { task_id: "task-123", timestamp: "2025-11-09T10:30:00Z" },
        },
      ],
    });
  });

  it("§11.6 HTTP error response (TaskNotFound)", () => {
    const err = new TaskNotFoundError("The specified task ID does not exist or is not accessible", {
      metadata: { taskId: "task-123", timestamp: "2025-11-09T10:30:00.000Z" },
    });
    const { status, body } = toHttpError(err);
    expect(status).toBe(404);
    expect(JSON.parse(JSON.stringify(body))).toStrictEqual({
      error: {
        code: 404,
        status: "NOT_FOUND",
        message: "The specified task ID does not exist or is not accessible",
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            reason: "TASK_NOT_FOUND",
            domain: "a2a-protocol.org",
            metadata: { taskId: "task-123", timestamp: "2025-11-09T10:30:00.000Z" },
          },
        ],
      },
    });
  });
});

describe.each(cases)("%s %s", (profile, name, e) => {
  const Cls = gen(profile, name);
  const reg = generated.get(profile)!.registry;
  const extra: ErrorDetail = {
    "@type": "type.googleapis.com/google.rpc.RetryInfo",
    retryDelay: "1.500s",
  };
  const options: A2AErrorOptions = {
    metadata: { taskId: "task-123", note: "x" },
    fieldViolations: [{ field: "message.parts", description: "required" }],
    details: [extra],
  };
  const info = {
    "@type": ERROR_INFO_TYPE,
    reason: e.reason,
    domain: ERROR_DOMAIN,
    metadata: options.metadata,
  };
  const badRequest = { "@type": BAD_REQUEST_TYPE, fieldViolations: options.fieldViolations };

  it("is a typed Error with the spec's name, codes and default message", () => {
    const err = new Cls();
    expect(err).toBeInstanceOf(Error);
    expect(err).toBeInstanceOf(A2AError);
    expect(err).toBeInstanceOf(Cls);
    expect(isA2AError(err)).toBe(true);
    expect([
      err.name,
      err.message,
      err.reason,
      err.code,
      err.grpcCode,
      err.grpcStatus,
      err.httpStatus,
    ]).toEqual([
      e.name,
      e.message,
      e.reason,
      e.jsonRpcCode,
      e.grpcCode,
      e.grpcStatus,
      e.httpStatus,
    ]);
    expect(String(err)).toBe(`${e.name}: ${e.message}`);
    expect(err.metadata).toEqual({});
    expect(err.fieldViolations).toEqual([]);
    expect(err.details).toEqual([]);
  });

  it("maps to the three wire forms (no metadata → ErrorInfo without metadata)", () => {
    const err = new Cls();
    const bare = [{ "@type": ERROR_INFO_TYPE, reason: e.reason, domain: ERROR_DOMAIN }];
    expect(toJsonRpcError(err)).toStrictEqual({
      code: e.jsonRpcCode,
      message: e.message,
      data: bare,
    });
    expect(toGrpcStatus(err)).toStrictEqual({
      code: e.grpcCode,
      message: e.message,
      details: bare,
    });
    expect(toHttpError(err)).toStrictEqual({
      status: e.httpStatus,
      body: {
        error: { code: e.httpStatus, status: e.grpcStatus, message: e.message, details: bare },
      },
    });
  });

  it("maps to the three wire forms with metadata, violations and extra details", () => {
    const err = new Cls("custom message", options);
    const details = [info, badRequest, extra];
    expect(JSON.parse(JSON.stringify(toJsonRpcError(err)))).toStrictEqual({
      code: e.jsonRpcCode,
      message: "custom message",
      data: details,
    });
    expect(JSON.parse(JSON.stringify(toGrpcStatus(err)))).toStrictEqual({
      code: e.grpcCode,
      message: "custom message",
      details,
    });
    expect(JSON.parse(JSON.stringify(toHttpError(err)))).toStrictEqual({
      status: e.httpStatus,
      body: {
        error: { code: e.httpStatus, status: e.grpcStatus, message: "custom message", details },
      },
    });
  });

  const wires: readonly (readonly [string, (err: A2AError) => A2AError])[] = [
    ["JSON-RPC", (err) => reg.fromJsonRpcError(JSON.parse(JSON.stringify(toJsonRpcError(err))))],
    [
      "gRPC",
      (err) => {
        const s = JSON.parse(JSON.stringify(toGrpcStatus(err)));
        return reg.fromGrpcStatus(s.code, s.message, s.details);
      },
    ],
    [
      "HTTP",
      (err) => {
        const h = JSON.parse(JSON.stringify(toHttpError(err)));
        return reg.fromHttpError(h.status, h.body);
      },
    ],
  ];

  it.each(wires)("round-trips through %s", (_binding, roundTrip) => {
    for (const [message, opts] of [
      ["custom message", options],
      [undefined, undefined],
    ] as const) {
      const err = new Cls(message, opts);
      const back = roundTrip(err);
      expect(back).toBeInstanceOf(Cls);
      expect(back.spec).toBe(Cls.spec);
      expect([back.name, back.reason, back.message]).toEqual([
        e.name,
        e.reason,
        message ?? e.message,
      ]);
      expect(back.metadata).toStrictEqual(err.metadata);
      expect(back.fieldViolations).toStrictEqual(err.fieldViolations);
      expect(back.details).toStrictEqual(err.details);
    }
  });

  it.each(["JSON-RPC", "gRPC", "HTTP"] as const)(
    "without ErrorInfo, %s falls back by code only when unambiguous",
    (binding) => {
      const specs = reg.specs;
      const [decoded, sharing] =
        binding === "JSON-RPC"
          ? [
              reg.fromJsonRpcError({ code: e.jsonRpcCode, message: "m" }),
              specs.filter((s) => s.jsonRpcCode === e.jsonRpcCode),
            ]
          : binding === "gRPC"
            ? [
                reg.fromGrpcStatus(e.grpcCode, "m", []),
                specs.filter((s) => s.grpcCode === e.grpcCode),
              ]
            : [
                reg.fromHttpError(e.httpStatus, {
                  error: { code: e.httpStatus, status: e.grpcStatus, message: "m" },
                }),
                specs.filter((s) => s.httpStatus === e.httpStatus && s.grpcStatus === e.grpcStatus),
              ];
      expect(decoded.message).toBe("m");
      if (binding === "JSON-RPC") expect(sharing).toHaveLength(1); // JSON-RPC codes are unique
      if (sharing.length === 1) {
        expect(decoded).toBeInstanceOf(Cls);
      } else {
        expect(decoded.constructor).toBe(A2AError);
        expect([decoded.name, decoded.reason]).toEqual(["A2AError", "UNKNOWN"]);
        expect([decoded.grpcCode, decoded.grpcStatus]).toEqual([e.grpcCode, e.grpcStatus]);
        if (binding === "HTTP") expect(decoded.httpStatus).toBe(e.httpStatus);
      }
    },
  );
});

describe("fallbacks and unknown errors", () => {
  it("JSON-RPC: no data, known code → typed error with the wire message", () => {
    const err = registry.fromJsonRpcError({ code: -32001, message: "gone" });
    expect(err).toBeInstanceOf(TaskNotFoundError);
    expect(err.message).toBe("gone");
  });

  it("JSON-RPC: legacy 0.3 object data without @type is dropped", () => {
    const err = registry.fromJsonRpcError({ code: -32602, message: "bad", data: { hint: "x" } });
    expect(err).toBeInstanceOf(InvalidParamsError);
    expect(err.details).toEqual([]);
  });

  it("JSON-RPC: a single typed object as data is accepted", () => {
    const err = registry.fromJsonRpcError({
      code: -32099,
      message: "no",
      data: {
        "@type": ERROR_INFO_TYPE,
        reason: "TASK_NOT_FOUND",
        domain: ERROR_DOMAIN,
        metadata: { taskId: "t" },
      },
    });
    expect(err).toBeInstanceOf(TaskNotFoundError); // the reason wins over the code
    expect(err.metadata).toEqual({ taskId: "t" });
  });

  it("JSON-RPC: unknown reason with known code → the code's error, foreign ErrorInfo kept in details", () => {
    const foreign = { "@type": ERROR_INFO_TYPE, reason: "INTERNAL_ERROR", domain: ERROR_DOMAIN };
    const err = registry.fromJsonRpcError({ code: -32603, message: "boom", data: [foreign] });
    expect(err).toBeInstanceOf(InternalError);
    expect(err.message).toBe("boom");
    expect(err.details).toEqual([foreign]);
    expect(err.metadata).toEqual({});
  });

  it("JSON-RPC: unknown reason and unknown code → generic error keeping both", () => {
    const err = registry.fromJsonRpcError({
      code: -32010,
      message: "generation mismatch",
      data: [
        {
          "@type": ERROR_INFO_TYPE,
          reason: "TASK_GENERATION_MISMATCH",
          domain: ERROR_DOMAIN,
          metadata: { g: "2" },
        },
      ],
    });
    expect(err.constructor).toBe(A2AError);
    expect([err.name, err.reason, err.code, err.message]).toEqual([
      "A2AError",
      "TASK_GENERATION_MISMATCH",
      -32010,
      "generation mismatch",
    ]);
    expect(err.metadata).toEqual({ g: "2" });
    expect(toJsonRpcError(err)).toEqual({
      code: -32010,
      message: "generation mismatch",
      data: [
        {
          "@type": ERROR_INFO_TYPE,
          reason: "TASK_GENERATION_MISMATCH",
          domain: ERROR_DOMAIN,
          metadata: { g: "2" },
        },
      ],
    });
  });

  it("an ErrorInfo from another domain is not an A2A reason", () => {
    const other = { "@type": ERROR_INFO_TYPE, reason: "TASK_NOT_FOUND", domain: "googleapis.com" };
    const err = registry.fromGrpcStatus(9, "precondition", [other]);
    expect(err.reason).toBe("UNKNOWN");
    expect(err.details).toEqual([other]);
  });

  it("an ErrorInfo without domain is accepted (ProtoJSON omits empty strings)", () => {
    const err = registry.fromGrpcStatus(9, "x", [
      { "@type": ERROR_INFO_TYPE, reason: "TASK_NOT_CANCELABLE" },
    ]);
    expect(err.name).toBe("TaskNotCancelableError");
  });

  it("BadRequest in proto field-name spelling and with omitted fields", () => {
    const err = registry.fromGrpcStatus(3, "bad", [
      {
        "@type": BAD_REQUEST_TYPE,
        field_violations: [{ field: "a" }, { description: "d" }, 7, { field: 1 }],
      },
      { "@type": BAD_REQUEST_TYPE, fieldViolations: [{ field: "second" }] },
    ]);
    expect(err.fieldViolations).toEqual([
      { field: "a", description: "" },
      { field: "", description: "d" },
    ]);
    expect(err.details).toEqual([
      { "@type": BAD_REQUEST_TYPE, fieldViolations: [{ field: "second" }] },
    ]);
  });

  it.each([
    [404, { error: { code: 404, status: "NOT_FOUND", message: "m" } }, "TaskNotFoundError"],
    [404, {}, "TaskNotFoundError"],
    [401, null, "UnauthenticatedError"],
    [403, "<html>Forbidden</html>", "PermissionDeniedError"],
    [501, { error: { status: "UNIMPLEMENTED" } }, "MethodNotFoundError"],
    [400, { error: { status: "INVALID_ARGUMENT", message: "m" } }, "A2AError"],
    [500, { error: { status: "INTERNAL" } }, "A2AError"],
    [409, { error: { status: "FAILED_PRECONDITION" } }, "A2AError"], // a v1.0.0 TaskNotCancelable seen by a v1.0.1 client
  ] as const)("HTTP %i %j without ErrorInfo → %s", (status, body, name) => {
    const err = registry.fromHttpError(status, body);
    expect(err.name).toBe(name);
    expect(err.httpStatus).toBe(status);
  });

  it("HTTP: the same 409 resolves under the v1.0.0 profile", () => {
    const err = generated
      .get("v1.0.0")!
      .registry.fromHttpError(409, { error: { status: "FAILED_PRECONDITION" } });
    expect(err.name).toBe("TaskNotCancelableError");
  });

  it.each([
    [
      {
        type: "https://a2a-protocol.org/errors/version-not-supported",
        title: "Version",
        status: 400,
        detail: "Use 1.0",
      },
      "Use 1.0",
    ],
    [
      {
        code: 9,
        message: "flat google.rpc.Status",
        details: [{ "@type": ERROR_INFO_TYPE, reason: "VERSION_NOT_SUPPORTED" }],
      },
      "flat google.rpc.Status",
    ],
  ])("HTTP: tolerates other body shapes %#", (body, message) => {
    const err = registry.fromHttpError(400, body);
    expect(err.message).toBe(message);
    expect(err.httpStatus).toBe(400);
  });

  it.each([
    [5, "TaskNotFoundError"],
    [16, "UnauthenticatedError"],
    [7, "PermissionDeniedError"],
    [12, "MethodNotFoundError"],
    [9, "A2AError"],
    [13, "A2AError"],
    [14, "A2AError"],
  ])("gRPC code %i without ErrorInfo → %s", (code, name) => {
    expect(registry.fromGrpcStatus(code, "", []).name).toBe(name);
  });

  it("gRPC UNAVAILABLE keeps its code and HTTP mapping in the synthesized spec", () => {
    const err = registry.fromGrpcStatus(14, "try later", []);
    expect([err.grpcCode, err.grpcStatus, err.httpStatus, err.code, err.message]).toEqual([
      14,
      "UNAVAILABLE",
      503,
      -32603,
      "try later",
    ]);
  });

  it("byReason and specs", () => {
    expect(registry.byReason("TASK_NOT_FOUND")).toBe(TaskNotFoundError.spec);
    expect(registry.byReason("NOPE")).toBeUndefined();
    expect(registry.specs).toHaveLength(16);
  });
});

describe("junk never throws and yields a sane generic A2AError", () => {
  const junk: readonly unknown[] = [
    null,
    undefined,
    "error",
    42,
    true,
    [],
    [1, 2],
    {},
    { code: "x", message: 5 },
    { code: -32001.5, message: null, data: "nope" },
    { code: Number.NaN },
    { data: [null, 1, "s", [], { "@type": 3 }, { reason: "TASK_NOT_FOUND" }] },
    { data: [{ "@type": ERROR_INFO_TYPE }] },
    { data: [{ "@type": ERROR_INFO_TYPE, reason: 7 }] },
    {
      data: [
        {
          "@type": ERROR_INFO_TYPE,
          reason: "TASK_NOT_FOUND",
          metadata: { a: 1, b: "ok", __proto__: "p" },
        },
      ],
    },
    { data: [{ "@type": BAD_REQUEST_TYPE, fieldViolations: "all of them" }] },
    { error: { code: 404 } },
    Object.create(null),
  ];

  function sane(err: A2AError): void {
    expect(err).toBeInstanceOf(A2AError);
    expect(typeof err.message).toBe("string");
    expect(err.message.length).toBeGreaterThan(0);
    expect(Number.isInteger(err.code)).toBe(true);
    expect(err.grpcCode >= 1 && err.grpcCode <= 16).toBe(true);
    expect(GRPC_STATUS_NAMES[err.grpcCode]).toBe(err.grpcStatus);
    expect(err.httpStatus >= 400 && err.httpStatus <= 599).toBe(true);
    for (const v of Object.values(err.metadata)) expect(typeof v).toBe("string");
    for (const d of err.details) expect(typeof d["@type"]).toBe("string");
    // and it can be sent on again
    expect(() =>
      JSON.stringify([toJsonRpcError(err), toGrpcStatus(err), toHttpError(err)]),
    ).not.toThrow();
  }

  it.each(junk.map((j) => [j] as const))("fromJsonRpcError(%j)", (input) => {
    sane(registry.fromJsonRpcError(input));
  });
  it.each(junk.map((j) => [j] as const))("fromHttpError(status, %j)", (input) => {
    for (const status of [404, 200, 0, Number.NaN, 777, "500" as unknown as number]) {
      sane(registry.fromHttpError(status, input));
    }
  });
  it.each(junk.map((j) => [j] as const))("fromGrpcStatus(code, message, %j)", (input) => {
    for (const code of [0, 5, -1, 99, 2.5, Number.NaN, "5" as unknown as number]) {
      sane(registry.fromGrpcStatus(code, input as string, input as ErrorDetail[]));
    }
  });

  it("specific junk outcomes", () => {
    expect(registry.fromJsonRpcError(null).reason).toBe("UNKNOWN");
    expect(registry.fromJsonRpcError(null).code).toBe(-32603);
    expect(registry.fromJsonRpcError({ code: -32001.5 }).reason).toBe("UNKNOWN");
    // ErrorInfo without reason → falls back by code
    expect(
      registry.fromJsonRpcError({ code: -32002, data: [{ "@type": ERROR_INFO_TYPE }] }).name,
    ).toBe("TaskNotCancelableError");
    // non-string metadata values are dropped, __proto__ stays a plain key
    const err = registry.fromJsonRpcError({
      code: -32001,
      data: [
        JSON.parse(
          '{"@type":"' +
            ERROR_INFO_TYPE +
            '","reason":"TASK_NOT_FOUND","metadata":{"a":1,"b":"ok","__proto__":"p"}}',
        ),
      ],
    });
    expect(err.name).toBe("TaskNotFoundError");
    expect(Object.keys(err.metadata).sort()).toEqual(["__proto__", "b"]);
    expect(Object.getPrototypeOf(err.metadata)).toBe(Object.prototype);
    // unknown gRPC code 99 → UNKNOWN
    expect(registry.fromGrpcStatus(99, "x", []).grpcStatus).toBe("UNKNOWN");
    // a non-error HTTP status falls back to body code, then 500
    expect(registry.fromHttpError(200, { error: { code: 404 } }).name).toBe("TaskNotFoundError");
    expect(registry.fromHttpError(200, null).httpStatus).toBe(500);
  });

  it("a throwing factory still yields the right spec", () => {
    const spec = TaskNotFoundError.spec;
    const reg = createErrorRegistry([
      {
        spec,
        create: () => {
          throw new Error("factory bug");
        },
      },
    ]);
    const err = reg.fromJsonRpcError({ code: -32001, message: "m" });
    expect(err.spec).toBe(spec);
    expect(err.message).toBe("m");
  });
});

describe("A2AError", () => {
  it("copies and freezes metadata, details and violations; drops non-string metadata", () => {
    const metadata: Record<string, string> = { a: "1" };
    (metadata as Record<string, unknown>)["n"] = 2;
    const details = [{ "@type": "t" }];
    const err = new TaskNotFoundError(undefined, { metadata, details });
    metadata["a"] = "changed";
    details.push({ "@type": "u" });
    expect(err.metadata).toEqual({ a: "1" });
    expect(err.details).toEqual([{ "@type": "t" }]);
    expect(Object.isFrozen(err.metadata)).toBe(true);
    expect(Object.isFrozen(err.details)).toBe(true);
    expect(Object.isFrozen(err.fieldViolations)).toBe(true);
  });

  it("keeps the cause locally and never on the wire", () => {
    const cause = new Error("db password is hunter2");
    const err = new InternalError(undefined, { cause });
    expect(err.cause).toBe(cause);
    const wire = JSON.stringify([toJsonRpcError(err), toGrpcStatus(err), toHttpError(err), err]);
    expect(wire).not.toContain("hunter2");
    expect("cause" in new InternalError()).toBe(false);
  });

  it("name is not an enumerable own property", () => {
    const err = new TaskNotFoundError();
    expect(Object.keys(err)).not.toContain("name");
    expect(err.name).toBe("TaskNotFoundError");
    expect(err.stack).toContain("TaskNotFoundError");
  });

  it("isA2AError recognizes another runtime copy by brand", () => {
    const foreign = { [Symbol.for("a2a-protocol.org/A2AError")]: true };
    expect(isA2AError(foreign)).toBe(true);
    expect(isA2AError(new Error("x"))).toBe(false);
    expect(isA2AError(null)).toBe(false);
  });

  it("GRPC_STATUS_NAMES matches the catalog's google.rpc.Code table", () => {
    expect(GRPC_STATUS_NAMES).toEqual(Object.keys(grpcCodes));
    expect(GRPC_STATUS_NAMES.map((n) => grpcCodes[n as keyof typeof grpcCodes])).toEqual([
      ...Array(17).keys(),
    ]);
  });
});

describe("createErrorRegistry", () => {
  it("rejects duplicate reasons and JSON-RPC codes", () => {
    const spec = TaskNotFoundError.spec;
    expect(() =>
      createErrorRegistry([TaskNotFoundError, classOf({ ...spec, jsonRpcCode: -32050 })]),
    ).toThrow(/duplicate A2A error reason TASK_NOT_FOUND/);
    expect(() =>
      createErrorRegistry([TaskNotFoundError, classOf({ ...spec, reason: "OTHER" })]),
    ).toThrow(/duplicate JSON-RPC error code -32001/);
  });

  it("accepts explicit {spec, create} entries", () => {
    const reg = createErrorRegistry([
      { spec: TaskNotFoundError.spec, create: (m, o) => new TaskNotFoundError(m, o) },
    ]);
    expect(reg.fromGrpcStatus(5, "x", [])).toBeInstanceOf(TaskNotFoundError);
  });
});

describe("toA2AError", () => {
  const internal = (cause: unknown): A2AError => new InternalError(undefined, { cause });

  it("passes A2AErrors through unchanged", () => {
    const err = new TaskNotFoundError("specific");
    expect(toA2AError(err, internal)).toBe(err);
  });

  it.each([
    new Error("SELECT * FROM secrets failed at /srv/app/db.ts:42"),
    new TypeError("secret type error"),
    "secret string",
    { message: "secret object", code: -32001, name: "TaskNotFoundError" },
    null,
    undefined,
    42,
  ])("turns %j into InternalError without leaking it", (thrown) => {
    const err = toA2AError(thrown, internal);
    expect(err).toBeInstanceOf(InternalError);
    expect(err.message).toBe("Internal error");
    expect(err.cause).toBe(thrown);
    const wire = JSON.stringify([toJsonRpcError(err), toGrpcStatus(err), toHttpError(err)]);
    expect(wire).not.toMatch(/secret|SELECT|db\.ts/);
    expect(toJsonRpcError(err)).toStrictEqual({
      code: -32603,
      message: "Internal error",
      data: [{ "@type": ERROR_INFO_TYPE, reason: "INTERNAL", domain: ERROR_DOMAIN }],
    });
  });
});
