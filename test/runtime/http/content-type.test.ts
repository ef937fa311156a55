import { describe, expect, it } from "vitest";
import { isJsonMediaType, parseMediaType } from "../../../runtime/src/http/content-type.js";

describe("parseMediaType", () => {
  const valid: [header: string, type: string, params: Record<string, string>][] = [
    ["application/json", "application/json", {}],
    ["Application/JSON", "application/json", {}],
    ["  application/json  ", "application/json", {}],
    ["application/json;charset=utf-8", "application/json", { charset: "utf-8" }],
    ["application/json; charset=UTF-8", "application/json", { charset: "UTF-8" }],
    ["application/json ; CHARSET=utf-8", "application/json", { charset: "utf-8" }],
    ["application/json;\tcharset=utf-8", "application/json", { charset: "utf-8" }],
    ['application/json; charset="utf-8"', "application/json", { charset: "utf-8" }],
    ['text/plain; a="x\\"y\\\\z"; b=1', "text/plain", { a: 'x"y\\z', b: "1" }],
    ['text/plain; a="; b=2"', "text/plain", { a: "; b=2" }],
    ['text/plain; a=""', "text/plain", { a: "" }],
    ["application/a2a+json; profile=v1", "application/a2a+json", { profile: "v1" }],
    ["application/json;", "application/json", {}],
    ["application/json;;charset=utf-8; ", "application/json", { charset: "utf-8" }],
    ["application/vnd.x-y.z_1!#$%&'*^`|~", "application/vnd.x-y.z_1!#$%&'*^`|~", {}],
  ];
  it.each(valid)("%j", (header, type, params) => {
    const m = parseMediaType(header);
    expect(m?.type).toBe(type);
    expect({ ...m?.params }).toEqual(params);
  });

  const invalid: (string | undefined)[] = [
    undefined,
    "",
    "   ",
    "application",
    "application/",
    "/json",
    "application /json",
    "application/ json",
    "application/json charset=utf-8",
    "application/json; charset",
    "application/json; charset=",
    "application/json; charset =utf-8",
    "application/json; charset= utf-8",
    'application/json; charset="utf-8',
    'application/json; charset="utf-8"x',
    "application/json; charset=utf 8",
    "application/json, text/plain",
    "application/json; a=1; A=2",
    'application/json; a="\u0001"',
    "appl\u00e9cation/json",
    "application/json; a=\u00e9",
  ];
  it.each(invalid)("rejects %j", (header) => {
    expect(parseMediaType(header)).toBeUndefined();
  });

  it("returns a null-prototype params object", () => {
    const m = parseMediaType("a/b; __proto__=x; constructor=y");
    // biome-ignore lint/suspicious/noProto: the test is that a parameter named __proto__ is a plain key
    expect(m?.params["__proto__"]).toBe("x");
    expect(m?.params["constructor"]).toBe("y");
    expect(Object.getPrototypeOf(m?.params)).toBeNull();
    expect(parseMediaType("a/b")?.params["toString"]).toBeUndefined();
  });
});

describe("isJsonMediaType", () => {
  const json = ["application/json"] as const;
  const a2a = ["application/json", "application/a2a+json"] as const;
  const cases: [header: string | undefined, accepted: readonly string[], expected: boolean][] = [
    ["application/json", json, true],
    ["APPLICATION/Json", json, true],
    ["application/json; charset=utf-8", json, true],
    ["application/json; charset=UTF-8", json, true],
    ['application/json; charset="utf-8"', json, true],
    ["application/json; charset=utf-16", json, false],
    ["application/json; charset=iso-8859-1", json, false],
    ["application/json; charset=utf8", json, false],
    ["application/json; foo=bar", json, true],
    ["application/a2a+json", json, false],
    ["application/a2a+json", a2a, true],
    ["application/A2A+JSON; charset=utf-8", a2a, true],
    ["text/json", a2a, false],
    ["application/jsonx", json, false],
    ["text/plain", json, false],
    [undefined, json, false],
    ["", json, false],
    ["application/json; charset", json, false],
    ["application/json, application/json", json, false],
    ["application/json", ["Application/JSON"], true],
    ["application/json", [], false],
  ];
  it.each(cases)("%j in %j → %s", (header, accepted, expected) => {
    expect(isJsonMediaType(header, accepted)).toBe(expected);
  });
});
