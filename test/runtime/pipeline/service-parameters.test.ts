import { describe, expect, it } from "vitest";
import {
  formatExtensions,
  negotiateVersion,
  normalizeVersion,
  parseExtensions,
} from "../../../runtime/src/pipeline/service-parameters.js";
import {
  ServiceParameters,
  createCallContext,
} from "../../../runtime/src/pipeline/call-context.js";

describe("normalizeVersion (spec §3.6: Major.Minor, patch ignored, empty = 0.3)", () => {
  it.each([
    [undefined, "0.3"],
    ["", "0.3"],
    ["  ", "0.3"],
    ["1.0", "1.0"],
    [" 1.0 ", "1.0"],
    ["1.0.3", "1.0"],
    ["0.3", "0.3"],
    ["2.11", "2.11"],
    ["1", undefined],
    ["1.", undefined],
    ["v1.0", undefined],
    ["1.0.0.0", undefined],
    ["01.0", undefined],
    ["1.0-beta", undefined],
    ["1,0", undefined],
  ])("%j → %j", (input, want) => {
    expect(normalizeVersion(input)).toBe(want);
  });
});

describe("negotiateVersion", () => {
  it.each([
    ["1.0", ["1.0"], { ok: true, version: "1.0" }],
    ["1.0.7", ["1.0"], { ok: true, version: "1.0" }],
    [undefined, ["0.3", "1.0"], { ok: true, version: "0.3" }],
    [undefined, ["1.0"], { ok: false, requested: "", supported: ["1.0"] }],
    ["1.1", ["1.0"], { ok: false, requested: "1.1", supported: ["1.0"] }],
    ["garbage", ["1.0"], { ok: false, requested: "garbage", supported: ["1.0"] }],
  ])("%j against %j", (requested, supported, want) => {
    expect(negotiateVersion(requested, supported)).toEqual(want);
  });
});

describe("parseExtensions (A2A-Extensions: comma-separated, trimmed, case-sensitive)", () => {
  it.each([
    [undefined, []],
    ["", []],
    ["https://a.example/ext/v1", ["https://a.example/ext/v1"]],
    [" https://a/x , https://b/y ,, ", ["https://a/x", "https://b/y"]],
    ["https://a/X,https://a/x,https://a/X", ["https://a/X", "https://a/x"]],
    [
      ["https://a/x, https://b/y", "https://c/z"],
      ["https://a/x", "https://b/y", "https://c/z"],
    ],
  ])("%j → %j", (input, want) => {
    expect(parseExtensions(input)).toEqual(want);
  });

  it("formats activated extensions for the response header", () => {
    expect(formatExtensions(new Set(["https://a/x", "https://b/y"]))).toBe(
      "https://a/x, https://b/y",
    );
    expect(formatExtensions([])).toBe("");
  });
});

describe("ServiceParameters and CallContext", () => {
  it("looks keys up case-insensitively and keeps values as sent", () => {
    const p = new ServiceParameters([
      ["A2A-Version", "1.0"],
      ["a2a-extensions", "https://a/X"],
      ["A2A-EXTENSIONS", "https://b/y"],
    ]);
    expect(p.get("a2a-version")).toBe("1.0");
    expect(p.get("A2A-Extensions")).toBe("https://a/X, https://b/y");
    expect(p.has("A2A-VERSION")).toBe(true);
    expect(p.get("missing")).toBeUndefined();
  });

  it("creates a context with defaults and its own activated-extensions set", () => {
    const a = createCallContext({ operation: "GetTask", binding: "JSONRPC" });
    const b = createCallContext({
      operation: "GetTask",
      binding: "GRPC",
      principal: { sub: "u" },
      tenant: "acme",
    });
    a.activatedExtensions.add("https://a/x");
    expect(b.activatedExtensions.size).toBe(0);
    expect(a.requestedVersion).toBe("1.0");
    expect(a.tenant).toBe("");
    expect(a.signal.aborted).toBe(false);
    expect(b.principal).toEqual({ sub: "u" });
    expect(b.tenant).toBe("acme");
  });
});
