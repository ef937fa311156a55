/**
 * A JSON-RPC server echoes the id it received (issue #25, point 6): numeric ids a JS number cannot echo as
 * sent — beyond 2^53, fractions, exponents, beyond a double — come back byte for byte, on answers, errors
 * and stream events, from the generated server on a real socket; the scan that finds them in the request
 * text (runtime/src/jsonrpc/raw-id.ts) picks the top-level "id" only, the last of duplicates as JSON.parse
 * does, whatever the strings and nested values around it hold. Safe integers, strings and null are echoed
 * as before.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createA2AServiceJsonRpcServer } from "../../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { idJson, rawNumericId } from "../../../runtime/src/jsonrpc/raw-id.js";
import { TestAgent } from "../../support/test-agent.js";
import { listen, type Listening } from "../../support/servers.js";

const BIG = "123456789012345678901234567890";

describe("rawNumericId", () => {
  const bs = "\\";
  it("finds the top-level id whatever precedes it", () => {
    expect(rawNumericId(`{"id":${BIG}}`)).toBe(BIG);
    expect(rawNumericId(` {\n\t"jsonrpc" : "2.0" ,\r\n "id" :\t-${BIG}e-3 , "method":"x"}`)).toBe(
      `-${BIG}e-3`,
    );
    expect(
      rawNumericId(`{"params":{"id":1,"a":[{"id":2},"}]"]},"x":"${bs}"id${bs}":3","id":${BIG}}`),
    ).toBe(BIG);
    expect(rawNumericId(`{"a":"${bs}${bs}","id":${BIG}}`)).toBe(BIG); // an escaped backslash ends the string
    expect(rawNumericId(`{"a":"${bs}${bs}${bs}"","id":${BIG}}`)).toBe(BIG); // then an escaped quote inside it
  });

  it("keeps the last id of duplicates (as JSON.parse), and reads an escaped name", () => {
    expect(rawNumericId(`{"id":1,"id":${BIG}}`)).toBe(BIG);
    expect(rawNumericId(`{"id":${BIG},"id":"s"}`)).toBeUndefined();
    expect(rawNumericId(`{"${bs}u0069d":${BIG}}`)).toBe(BIG);
  });

  it("is undefined for anything else", () => {
    for (const text of [
      "[]",
      "1",
      "{}",
      `{"idx":${BIG}}`,
      `{"params":{"id":${BIG}}}`,
      `{"id":null}`,
      `{"id":[${BIG}]}`,
    ])
      expect(rawNumericId(text)).toBeUndefined();
  });

  it("idJson: the source text only for numbers JS would not echo as sent", () => {
    expect(idJson(Number(BIG), `{"id":${BIG}}`)).toBe(BIG);
    expect(idJson(0.5, `{"id":5e-1}`)).toBe("5e-1");
    expect(idJson(7, `{"id":7.0}`)).toBe("7"); // a safe integer: not scanned, echoed as the number it is
    expect(idJson("a", `{"id":"a"}`)).toBe('"a"');
    expect(idJson(null, `{"id":null}`)).toBe("null");
    expect(idJson(Number(BIG), `{"id":1}`)).toBe(JSON.stringify(Number(BIG))); // the text does not hold it: no guess
  });
});

describe("the generated JSON-RPC server echoes ids exactly", () => {
  let server: Listening;
  beforeAll(async () => {
    server = await listen(
      createA2AServiceJsonRpcServer(new TestAgent(), { logger: { error() {} } }).node,
    );
  });
  afterAll(() => server.close());

  const post = async (body: string) => {
    const res = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0" },
      body,
    });
    return res.text();
  };
  const send = (id: string, text = "hi") =>
    `{"jsonrpc":"2.0","id":${id},"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"${text}"}]}}}`;

  for (const id of [
    BIG,
    `-${BIG}`,
    "9007199254740993",
    "0.1000000000000000055511151231257827",
    "1.5e300",
    "1e400",
    "12.50",
  ]) {
    it(`id ${id}: a result`, async () => {
      expect(await post(send(id))).toMatch(
        new RegExp(`^\\{"jsonrpc":"2\\.0","id":${id.replace(/[.+-]/g, "\\$&")},"result":`),
      );
    });
  }

  it("an error answer, an envelope problem and an id after params", async () => {
    expect(await post(send(BIG, "fail"))).toMatch(
      new RegExp(`^\\{"jsonrpc":"2\\.0","id":${BIG},"error":\\{"code":-32001`),
    );
    expect(await post(`{"jsonrpc":"1.0","id":${BIG},"method":"SendMessage"}`)).toMatch(
      new RegExp(`^\\{"jsonrpc":"2\\.0","id":${BIG},"error":\\{"code":-32600`),
    );
    expect(
      await post(
        `{"jsonrpc":"2.0","method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}]}},"id":${BIG}}`,
      ),
    ).toContain(`"id":${BIG},"result"`);
  });

  it("stream events", async () => {
    const text = await post(
      `{"jsonrpc":"2.0","id":${BIG},"method":"SendStreamingMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}}}`,
    );
    const events = text.split("\n").filter((l) => l.startsWith("data: "));
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) expect(e).toContain(`{"jsonrpc":"2.0","id":${BIG},`);
  });

  it("safe integers, strings and null as before", async () => {
    expect(await post(send("42"))).toContain(`"id":42,`);
    expect(await post(send('"abc"'))).toContain(`"id":"abc",`);
    expect(await post(send("null"))).toContain(`"id":null,`);
  });
});
