import { describe, expect, it } from "vitest";
import {
  DEFAULT_ERROR_PROFILE,
  ERROR_DOMAIN,
  errorCatalog,
  errorProfiles,
  errorReason,
  grpcCodes,
  grpcHttpStatus,
  isErrorProfile,
  validateErrorCatalog,
  type ErrorCatalogEntry,
  type ErrorProfile,
  type GrpcStatusName,
} from "../../../plugin/src/model/error-catalog.js";
import { GRPC_CODES, SPEC_ERRORS } from "../../support/acts/spec-errors.js";

// [name, reason, JSON-RPC, gRPC, HTTP] — spec §5.4 at v1.0.1, from the hand-written table the ACTS runner judges the wire with.
type Row = readonly [string, string, number, GrpcStatusName, number];
const fromSpecTable = (source: (s: string) => boolean) =>
  SPEC_ERRORS.filter((e) => source(e.source)).map(
    (e) => [e.name, e.reason, e.jsonRpcCode, e.grpcStatus, e.httpStatus] as const,
  );
const A2A_V1_0_1: readonly Row[] = fromSpecTable((s) => s === "§5.4");
// §5.4 at v1.0.0 (CHECKLIST §5 "v1.0.0 differed" column applied).
const A2A_V1_0_0: readonly Row[] = [
  ["TaskNotFoundError", "TASK_NOT_FOUND", -32001, "NOT_FOUND", 404],
  ["TaskNotCancelableError", "TASK_NOT_CANCELABLE", -32002, "FAILED_PRECONDITION", 409],
  [
    "PushNotificationNotSupportedError",
    "PUSH_NOTIFICATION_NOT_SUPPORTED",
    -32003,
    "UNIMPLEMENTED",
    400,
  ],
  ["UnsupportedOperationError", "UNSUPPORTED_OPERATION", -32004, "UNIMPLEMENTED", 400],
  ["ContentTypeNotSupportedError", "CONTENT_TYPE_NOT_SUPPORTED", -32005, "INVALID_ARGUMENT", 415],
  ["InvalidAgentResponseError", "INVALID_AGENT_RESPONSE", -32006, "INTERNAL", 502],
  [
    "ExtendedAgentCardNotConfiguredError",
    "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
    -32007,
    "FAILED_PRECONDITION",
    400,
  ],
  [
    "ExtensionSupportRequiredError",
    "EXTENSION_SUPPORT_REQUIRED",
    -32008,
    "FAILED_PRECONDITION",
    400,
  ],
  ["VersionNotSupportedError", "VERSION_NOT_SUPPORTED", -32009, "UNIMPLEMENTED", 400],
];
// Standard messages (§9.5; §3.3.2 for the auth errors).
const MESSAGES: Readonly<Record<string, string>> = {
  JsonParseError: "Invalid JSON payload",
  InvalidRequestError: "Request payload validation error",
  MethodNotFoundError: "Method not found",
  InvalidParamsError: "Invalid parameters",
  InternalError: "Internal error",
  UnauthenticatedError: "Authentication required",
  PermissionDeniedError: "Permission denied",
};
const withMessage = (row: Row) => [...row, MESSAGES[row[0]]!] as const;
// §9.5 standard errors: [name, reason, code, gRPC, HTTP, standard message]; the same in both profiles.
const JSONRPC = fromSpecTable((s) => s.startsWith("§9.5")).map(withMessage);
// §3.3.2 auth errors.
const AUTH = fromSpecTable((s) => s.startsWith("§3.3.2")).map(withMessage);
const EXPECTED_A2A: Record<ErrorProfile, readonly Row[]> = {
  "v1.0.1": A2A_V1_0_1,
  "v1.0.0": A2A_V1_0_0,
};

// google/rpc/code.proto (the runner's hand-written copy).
const GOOGLE_RPC_CODE = Object.entries(GRPC_CODES) as [GrpcStatusName, number][];

function entry(profile: ErrorProfile, name: string): ErrorCatalogEntry {
  const found = errorCatalog(profile).find((e) => e.name === name);
  if (!found) throw new Error(`${name} missing from ${profile}`);
  return found;
}

describe("profiles", () => {
  it("lists v1.0.1 first (the default) and v1.0.0", () => {
    expect(errorProfiles).toEqual(["v1.0.1", "v1.0.0"]);
    expect(DEFAULT_ERROR_PROFILE).toBe(errorProfiles[0]);
    expect(errorCatalog()).toBe(errorCatalog("v1.0.1"));
  });
  it.each([
    ["v1.0.1", true],
    ["v1.0.0", true],
    ["v1.0", false],
    ["1.0.1", false],
    [undefined, false],
    [101, false],
  ])("isErrorProfile(%j) = %s", (value, ok) => {
    expect(isErrorProfile(value)).toBe(ok);
  });
  it("rejects an unknown profile", () => {
    expect(() => errorCatalog("v0.3" as ErrorProfile)).toThrow(/unknown error profile/);
  });
  it("ERROR_DOMAIN is a2a-protocol.org", () => {
    expect(ERROR_DOMAIN).toBe("a2a-protocol.org");
  });
});

describe.each(errorProfiles)("catalog %s", (profile) => {
  const catalog = errorCatalog(profile);

  it("has the nine A2A errors (in §5.4 order), then five JSON-RPC and two auth errors", () => {
    expect(catalog.map((e) => e.name)).toEqual([
      ...EXPECTED_A2A[profile].map((r) => r[0]),
      ...JSONRPC.map((r) => r[0]),
      ...AUTH.map((r) => r[0]),
    ]);
    expect(catalog.filter((e) => e.category === "a2a")).toHaveLength(9);
    expect(catalog.filter((e) => e.category === "jsonrpc")).toHaveLength(5);
    expect(catalog.filter((e) => e.category === "auth")).toHaveLength(2);
  });

  it.each(EXPECTED_A2A[profile])(
    "%s → reason %s, JSON-RPC %i, gRPC %s, HTTP %i",
    (name, reason, rpc, grpc, http) => {
      const e = entry(profile, name);
      expect([e.reason, e.jsonRpcCode, e.grpcStatus, e.httpStatus, e.category]).toEqual([
        reason,
        rpc,
        grpc,
        http,
        "a2a",
      ]);
      expect(e.grpcCode).toBe(grpcCodes[grpc]);
    },
  );

  it.each(JSONRPC)(
    "%s → reason %s, JSON-RPC %i, gRPC %s, HTTP %i, %j",
    (name, reason, rpc, grpc, http, message) => {
      const e = entry(profile, name);
      expect([e.reason, e.jsonRpcCode, e.grpcStatus, e.httpStatus, e.message, e.category]).toEqual([
        reason,
        rpc,
        grpc,
        http,
        message,
        "jsonrpc",
      ]);
    },
  );

  it.each(AUTH)(
    "%s → reason %s, JSON-RPC %i, gRPC %s, HTTP %i, %j",
    (name, reason, rpc, grpc, http, message) => {
      const e = entry(profile, name);
      expect([e.reason, e.jsonRpcCode, e.grpcStatus, e.httpStatus, e.message, e.category]).toEqual([
        reason,
        rpc,
        grpc,
        http,
        message,
        "auth",
      ]);
    },
  );

  it("has unique names, reasons and JSON-RPC codes", () => {
    for (const key of ["name", "reason", "jsonRpcCode"] as const) {
      expect(new Set(catalog.map((e) => e[key])).size, key).toBe(catalog.length);
    }
  });

  it("derives every reason from the name and matches grpcCode to the google.rpc.Code table", () => {
    for (const e of catalog) {
      expect(e.reason, e.name).toBe(errorReason(e.name));
      expect(e.grpcCode, e.name).toBe(GOOGLE_RPC_CODE.find(([n]) => n === e.grpcStatus)?.[1]);
    }
  });

  it("uses A2A codes -32001…-32099 and standard codes for the JSON-RPC errors", () => {
    for (const e of catalog) {
      if (e.category === "jsonrpc") expect(e.jsonRpcCode).toBeLessThanOrEqual(-32600);
      else expect(e.jsonRpcCode >= -32099 && e.jsonRpcCode <= -32001, e.name).toBe(true);
    }
  });

  it("has a message and a description on every entry", () => {
    for (const e of catalog) {
      expect(e.message.length, e.name).toBeGreaterThan(0);
      expect(e.description.length, e.name).toBeGreaterThan(20);
    }
  });

  it("is frozen and passes its own validation", () => {
    expect(Object.isFrozen(catalog)).toBe(true);
    expect(Object.isFrozen(catalog[0])).toBe(true);
    expect(validateErrorCatalog(catalog)).toEqual([]);
  });
});

describe("v1.0.1 follows google/rpc/code.proto's HTTP mapping (the point of A2A #1627)", () => {
  it.each(errorCatalog("v1.0.1").map((e) => [e.name, e.grpcStatus, e.httpStatus] as const))(
    "%s: %s → %i",
    (_name, grpc, http) => {
      expect(grpcHttpStatus[grpc]).toBe(http);
    },
  );
  it("v1.0.0 does not (409, 415, 502)", () => {
    const off = errorCatalog("v1.0.0").filter((e) => grpcHttpStatus[e.grpcStatus] !== e.httpStatus);
    expect(off.map((e) => e.name)).toEqual([
      "TaskNotCancelableError",
      "PushNotificationNotSupportedError",
      "UnsupportedOperationError",
      "ContentTypeNotSupportedError",
      "InvalidAgentResponseError",
      "VersionNotSupportedError",
    ]);
  });
});

describe("grpcCodes", () => {
  it("is the full google.rpc.Code table", () => {
    expect(Object.entries(grpcCodes)).toEqual(GOOGLE_RPC_CODE);
  });
});

describe("errorReason", () => {
  it.each([
    ["TaskNotFoundError", "TASK_NOT_FOUND"],
    ["TaskNotCancelableError", "TASK_NOT_CANCELABLE"],
    ["ExtendedAgentCardNotConfiguredError", "EXTENDED_AGENT_CARD_NOT_CONFIGURED"],
    ["VersionNotSupportedError", "VERSION_NOT_SUPPORTED"],
    ["JsonParseError", "JSON_PARSE"],
    ["JSONParseError", "JSON_PARSE"],
    ["InternalError", "INTERNAL"],
    ["HTTP2Error", "HTTP2"],
  ])("%s → %s", (name, reason) => {
    expect(errorReason(name)).toBe(reason);
  });
  it.each(["Error", "taskNotFoundError", "TaskNotFound", "Task_NotFoundError", ""])(
    "rejects %j",
    (name) => {
      expect(() => errorReason(name)).toThrow();
    },
  );
});

describe("validateErrorCatalog", () => {
  const good = errorCatalog("v1.0.1");
  const first = good[0]!;
  it.each([
    ["duplicate name", [...good, { ...first }], /duplicate name TaskNotFoundError/],
    [
      "duplicate reason",
      [...good, { ...first, name: "OtherError", jsonRpcCode: -32050, reason: "TASK_NOT_FOUND" }],
      /duplicate reason/,
    ],
    [
      "duplicate code",
      [...good, { ...first, name: "OtherError", reason: "OTHER" }],
      /duplicate JSON-RPC code -32001/,
    ],
    [
      "hand-typed reason",
      [{ ...first, reason: "TASKNOTFOUND" }],
      /reason TASKNOTFOUND should be TASK_NOT_FOUND/,
    ],
    ["grpcCode mismatch", [{ ...first, grpcCode: 3 }], /does not match NOT_FOUND/],
    [
      "unknown gRPC status",
      [{ ...first, grpcStatus: "MISSING" as GrpcStatusName }],
      /unknown gRPC status/,
    ],
    ["2xx HTTP", [{ ...first, httpStatus: 200 }], /not 4xx\/5xx/],
    ["A2A code out of range", [{ ...first, jsonRpcCode: -32100 }], /outside the range/],
    ["standard code on an A2A error", [{ ...first, jsonRpcCode: -32603 }], /outside the range/],
    ["empty message", [{ ...first, message: " " }], /empty message/],
  ] as const)("reports %s", (_what, entries, problem) => {
    const problems = validateErrorCatalog(entries as readonly ErrorCatalogEntry[]);
    expect(
      problems.some((p) => problem.test(p)),
      problems.join("; "),
    ).toBe(true);
  });
});
