/**
 * Agent Card signatures (A2A v1.0 §8.4): the RFC 8785 canonicalizer on the RFC's own vectors, the
 * canonical form against @a2a-js/sdk 1.3.0's, sign/verify round trips with @a2a-js/sdk 1.3.0's
 * signer and verifier and a reproduced a2a-python (≤ 1.1) signature, every refusal reason, keys
 * from JWKs and from a JWKS URL on a real node:http server (127.0.0.1), and
 * `serveAgentCard({ sign })` + `connectA2AService(url, { verifyCard })` end to end.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { create, fromJson, toJson, type JsonObject } from "@bufbuild/protobuf";
import * as jose from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  canonicalizeAgentCard as sdkCanonicalize,
  generateAgentCardSignature,
  verifyAgentCardSignature,
  type AgentCard as SdkAgentCard,
} from "@a2a-js/sdk";
import { AgentCardSchema, type AgentCard } from "../../../generated-example/gen/a2a_pb.js";
import {
  AgentConnectError,
  connectA2AService,
} from "../../../generated-example/gen/a2a_a2a_agent_client.js";
import { createA2AServiceJsonRpcServer } from "../../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import {
  AgentCardSignatureError,
  buildSupportedInterfaces,
  canonicalizeAgentCard,
  composeHandlers,
  serveAgentCard,
  serveNode,
  signAgentCard,
  verifyAgentCard,
  type AgentCardJwk,
  type AgentCardSignatureReason,
} from "@protoc-gen-a2a/runtime/http";
import { verifyAgentCard as verifyFromClientEntry } from "@protoc-gen-a2a/runtime/client";
import {
  pythonFloatRepr,
  pythonLegacyJson,
  rfc8785,
} from "../../../runtime/src/card-signature/index.js";
import {
  createA2ATaskHandler,
  sendRequest,
  textOf,
  type A2AExecutor,
} from "../../support/task-runtime-binding.js";
import { listen, type Listening } from "../../support/servers.js";

// ---------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------

interface KeyPair {
  readonly alg: string;
  readonly privateJwk: AgentCardJwk;
  readonly publicJwk: AgentCardJwk;
  readonly privateKey: jose.CryptoKey;
  readonly publicKey: jose.CryptoKey;
}

async function keyPair(
  alg: string,
  kid: string,
  options?: Parameters<typeof jose.generateKeyPair>[1],
): Promise<KeyPair> {
  const { privateKey, publicKey } = await jose.generateKeyPair(alg, {
    extractable: true,
    ...options,
  });
  return {
    alg,
    privateJwk: { ...(await jose.exportJWK(privateKey)), kid } as AgentCardJwk,
    publicJwk: { ...(await jose.exportJWK(publicKey)), kid, alg } as AgentCardJwk,
    privateKey,
    publicKey,
  };
}

/** A card as the runtime serves it (ProtoJSON), with what the canonical form must handle: non-ASCII, numbers in Struct params, an explicit optional false, a oneof security scheme. */
function sampleCard(base = "https://agent.example.com"): JsonObject {
  const card = fromJson(AgentCardSchema, {
    name: "Café Agent ☕",
    description: "Répond en français — und auf Deutsch 😀",
    version: "1.0.0",
    supportedInterfaces: buildSupportedInterfaces({
      baseUrl: base,
      jsonRpcPath: "/a2a/jsonrpc",
    }) as unknown as JsonObject[],
    provider: { organization: "Example Org", url: "https://example.com" },
    capabilities: {
      streaming: false,
      pushNotifications: true,
      extensions: [
        {
          uri: "https://example.com/ext/v1",
          description: "an extension",
          required: false,
          params: { n: 1, x: 0.000001, big: 1e21, s: "ñ", nested: { empty: "", list: [] } },
        },
      ],
    },
    securitySchemes: {
      bearer: { httpAuthSecurityScheme: { scheme: "Bearer", bearerFormat: "JWT" } },
    },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain", "application/json"],
    skills: [
      {
        id: "echo",
        name: "Écho",
        description: "echoes",
        tags: ["echo", "überall"],
        examples: ["hola señor"],
      },
    ],
  });
  return toJson(AgentCardSchema, card) as JsonObject;
}

async function refusal(promise: Promise<unknown>): Promise<AgentCardSignatureError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof AgentCardSignatureError) return e;
    throw e;
  }
  throw new Error("expected an AgentCardSignatureError");
}

async function expectRefused(
  promise: Promise<unknown>,
  reason: AgentCardSignatureReason,
  message?: RegExp,
): Promise<AgentCardSignatureError> {
  const e = await refusal(promise);
  expect(e.reason, e.message).toBe(reason);
  if (message !== undefined) expect(e.message).toMatch(message);
  return e;
}

const b64 = (s: string): string => jose.base64url.encode(s);
const signaturesOf = (card: JsonObject): JsonObject[] => card["signatures"] as JsonObject[];

let es256: KeyPair;
let es256b: KeyPair;
let ed25519: KeyPair;
let rs256: KeyPair;
beforeAll(async () => {
  [es256, es256b, ed25519, rs256] = await Promise.all([
    keyPair("ES256", "es-1"),
    keyPair("ES256", "es-2"),
    keyPair("EdDSA", "ed-1", { crv: "Ed25519" }),
    keyPair("RS256", "rs-1"),
  ]);
});

describe("optional peers", () => {
  it("jose and canonicalize are only imported dynamically (the entries load without them)", () => {
    const source = readFileSync(
      new URL("../../../runtime/src/card-signature/index.ts", import.meta.url),
      "utf8",
    );
    expect(source).not.toMatch(/^import[^;]*from\s+"(jose|canonicalize)"/m);
    expect(source).toMatch(/import\("jose"\)/);
    expect(source).toMatch(/import\("canonicalize"\)/);
    const pkg = JSON.parse(
      readFileSync(new URL("../../../runtime/package.json", import.meta.url), "utf8"),
    ) as {
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
    };
    for (const name of ["jose", "canonicalize"]) {
      expect(pkg.peerDependencies[name]).toBeDefined();
      expect(pkg.peerDependenciesMeta[name]?.optional).toBe(true);
    }
  });
});

// ---------------------------------------------------------------------------------------
// RFC 8785
// ---------------------------------------------------------------------------------------

describe("RFC 8785 (the canonicalize package) on the RFC's own examples", () => {
  it("§3.2.2 sample: literals, numbers and string escaping", async () => {
    const input = JSON.parse(String.raw`{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
      "literals": [null, true, false]
    }`);
    expect(await rfc8785(input)).toBe(
      String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
    );
  });

  it("§3.2.3 sorting: by UTF-16 code units (the emoji's surrogate sorts before U+FB33)", async () => {
    const input = JSON.parse(String.raw`{
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face",
      "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis"
    }`);
    const out = await rfc8785(input);
    expect(out).toBe(
      `{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}`,
    );
    // …where a code-point sort (Python's sort_keys) would put U+FB33 before the emoji.
    expect(pythonLegacyJson(input)).toMatch(/"\\ufb33":.*"\\ud83d\\ude00":/);
  });

  it("Appendix B: the IEEE 754 number serialization table", async () => {
    const table: [string, string][] = [
      ["0000000000000000", "0"],
      ["8000000000000000", "0"],
      ["0000000000000001", "5e-324"],
      ["8000000000000001", "-5e-324"],
      ["7fefffffffffffff", "1.7976931348623157e+308"],
      ["ffefffffffffffff", "-1.7976931348623157e+308"],
      ["4340000000000000", "9007199254740992"],
      ["c340000000000000", "-9007199254740992"],
      ["4430000000000000", "295147905179352830000"],
      ["44b52d02c7e14af5", "9.999999999999997e+22"],
      ["44b52d02c7e14af6", "1e+23"],
      ["44b52d02c7e14af7", "1.0000000000000001e+23"],
      ["444b1ae4d6e2ef4e", "999999999999999700000"],
      ["444b1ae4d6e2ef4f", "999999999999999900000"],
      ["444b1ae4d6e2ef50", "1e+21"],
      ["3eb0c6f7a0b5ed8c", "9.999999999999997e-7"],
      ["3eb0c6f7a0b5ed8d", "0.000001"],
      ["41b3de4355555553", "333333333.3333332"],
      ["41b3de4355555554", "333333333.33333325"],
      ["41b3de4355555555", "333333333.3333333"],
      ["41b3de4355555556", "333333333.3333334"],
      ["41b3de4355555557", "333333333.33333343"],
      ["becbf647612f3696", "-0.0000033333333333333333"],
      ["43143ff3c1cb0959", "1424953923781206.2"],
    ];
    for (const [hex, expected] of table) {
      const n = new DataView(Uint8Array.from(Buffer.from(hex, "hex")).buffer).getFloat64(0);
      expect(await rfc8785(n), hex).toBe(expected);
    }
    await expect(rfc8785(Number.NaN)).rejects.toThrow();
    await expect(rfc8785(Number.POSITIVE_INFINITY)).rejects.toThrow();
  });

  it("Appendix E: the complex example (nested objects, empty objects, key order)", async () => {
    const input = JSON.parse(`{
      "1": {"f": {"f": "hi","F": 5} ,"\\n": 56.0},
      "10": { },
      "": "empty",
      "a": { },
      "111": [ {"e": "yes","E": "no" } ],
      "A": { }
    }`);
    expect(await rfc8785(input)).toBe(
      `{"":"empty","1":{"\\n":56,"f":{"F":5,"f":"hi"}},"10":{},"111":[{"E":"no","e":"yes"}],"A":{},"a":{}}`,
    );
  });
});

// ---------------------------------------------------------------------------------------
// The canonical form of a card
// ---------------------------------------------------------------------------------------

describe("the canonical form of a card", () => {
  it("the §8.4.1 fragment: empty values removed, explicit optional false kept — as both SDKs do (not the section's worked result)", async () => {
    const fragment = {
      name: "Example Agent",
      description: "",
      capabilities: { streaming: false, pushNotifications: false, extensions: [] },
      skills: [],
    };
    const ours = await canonicalizeAgentCard(fragment);
    expect(ours).toBe(
      `{"capabilities":{"pushNotifications":false,"streaming":false},"name":"Example Agent"}`,
    );
    expect(ours).toBe(sdkCanonicalize(fragment as unknown as SdkAgentCard));
    expect(await canonicalizeAgentCard(fragment, { schema: AgentCardSchema })).toBe(ours);
  });

  it("with the AgentCardSchema, byte-identical to @a2a-js/sdk 1.3.0's canonicalizeAgentCard (non-ASCII, Struct numbers, oneofs, defaults, unknown fields, snake_case)", async () => {
    const card = {
      ...sampleCard(),
      futureField: { ignored: true },
      documentation_url: "https://example.com/docs",
      signatures: [{ protected: "x", signature: "y" }],
    } as JsonObject;
    (card["capabilities"] as JsonObject)["extensions"] = [
      {
        uri: "https://example.com/ext/v1",
        required: false,
        params: { n: 1, x: 0.000001, big: 1e21, s: "ñ", nested: { empty: "", list: [] } },
      },
    ];
    const ours = await canonicalizeAgentCard(card, { schema: AgentCardSchema });
    expect(ours).toBe(sdkCanonicalize(card as unknown as SdkAgentCard));
    expect(ours).not.toContain("futureField");
    expect(ours).not.toContain("signatures");
    expect(ours).not.toContain('"required"');
    expect(ours).toContain('"documentationUrl":"https://example.com/docs"');
    expect(ours).toContain('"name":"Café Agent ☕"');
    expect(ours).toContain('"params":{"big":1e+21,"n":1,"s":"ñ","x":0.000001}');
    // Without the schema the JSON is taken as it is: the unknown field is signed too.
    expect(await canonicalizeAgentCard(card)).toContain("futureField");
  });

  it("Python's repr of Struct numbers (the python-legacy form)", () => {
    const cases: [number, string][] = [
      [1, "1.0"],
      [0, "0.0"],
      [-0, "-0.0"],
      [-2.5, "-2.5"],
      [0.0001, "0.0001"],
      [0.00001, "1e-05"],
      [0.000001, "1e-06"],
      [1e15, "1000000000000000.0"],
      [1e16, "1e+16"],
      [1e21, "1e+21"],
      [123456789.123, "123456789.123"],
      [1.5e300, "1.5e+300"],
      [5e-324, "5e-324"],
    ];
    for (const [n, repr] of cases) expect(pythonFloatRepr(n), String(n)).toBe(repr);
  });
});

// ---------------------------------------------------------------------------------------
// Round trips
// ---------------------------------------------------------------------------------------

describe("sign and verify", () => {
  it.each(["ES256", "EdDSA", "RS256"])(
    "%s: we sign (private JWK) → we verify (public JWK); the header is {alg, typ: JOSE, kid[, jku]}",
    async (alg) => {
      const pair = alg === "ES256" ? es256 : alg === "EdDSA" ? ed25519 : rs256;
      const card = sampleCard();
      const signed = await signAgentCard(card, {
        key: pair.privateJwk,
        jku: "https://agent.example.com/jwks.json",
      });
      expect(card["signatures"]).toBeUndefined(); // not modified
      const [entry] = signaturesOf(signed);
      expect(Object.keys(entry!).sort()).toEqual(["protected", "signature"]);
      expect(jose.decodeProtectedHeader(entry as unknown as jose.FlattenedJWSInput)).toEqual({
        alg,
        typ: "JOSE",
        kid: pair.privateJwk.kid,
        jku: "https://agent.example.com/jwks.json",
      });
      const result = await verifyAgentCard(signed, { keys: pair.publicJwk });
      expect(result).toEqual({
        signatureCount: 1,
        verified: [
          expect.objectContaining({
            index: 0,
            alg,
            kid: pair.privateJwk.kid,
            form: "canonical",
            key: { source: "jwk", index: 0, kid: pair.privateJwk.kid },
          }),
        ],
      });
      // a JWK Set object works the same
      expect(
        (await verifyAgentCard(signed, { keys: { keys: [es256b.publicJwk, pair.publicJwk] } }))
          .verified[0]!.key,
      ).toEqual({ source: "jwk", index: 1, kid: pair.privateJwk.kid });
      // the client entry exports the same verifier
      expect(
        (await verifyFromClientEntry(signed, { keys: [pair.publicJwk], schema: AgentCardSchema }))
          .verified[0]!.index,
      ).toBe(0);
    },
  );

  it("a CryptoKey or KeyObject signs too; the default kid is the RFC 7638 thumbprint; an unprotected header is carried", async () => {
    const signed = await signAgentCard(sampleCard(), {
      key: es256.privateKey,
      header: { note: "unprotected" },
    });
    const [entry] = signaturesOf(signed);
    const thumbprint = await jose.calculateJwkThumbprint(es256.publicJwk as jose.JWK);
    expect(jose.decodeProtectedHeader(entry as unknown as jose.FlattenedJWSInput)).toEqual({
      alg: "ES256",
      typ: "JOSE",
      kid: thumbprint,
    });
    expect(entry!["header"]).toEqual({ note: "unprotected" });
    const { kid: _kid, ...anonymous } = es256.publicJwk;
    expect(
      (await verifyAgentCard(signed, { keys: anonymous as AgentCardJwk })).verified[0]!.kid,
    ).toBe(thumbprint);
    const { createPrivateKey } = await import("node:crypto");
    const keyObject = createPrivateKey({ key: ed25519.privateJwk as never, format: "jwk" });
    const signedByKeyObject = await signAgentCard(sampleCard(), { key: keyObject, kid: "ed-1" });
    expect(
      (await verifyAgentCard(signedByKeyObject, { keys: ed25519.publicJwk })).verified[0]!.alg,
    ).toBe("EdDSA");
  });

  it("several signatures (key rotation): each verifies; require 'all' needs every one, 'any' the first good one", async () => {
    const twice = await signAgentCard(
      await signAgentCard(sampleCard(), { key: es256.privateJwk }),
      { key: rs256.privateJwk },
    );
    expect(signaturesOf(twice)).toHaveLength(2);
    const all = await verifyAgentCard(twice, {
      keys: [es256.publicJwk, rs256.publicJwk],
      require: "all",
    });
    expect(all.verified.map((v) => [v.index, v.key.index])).toEqual([
      [0, 0],
      [1, 1],
    ]);
    // only the RSA key known: "any" passes on signatures[1], "all" fails on signatures[0]
    expect(
      (await verifyAgentCard(twice, { keys: [rs256.publicJwk] })).verified.map((v) => v.index),
    ).toEqual([1]);
    const e = await expectRefused(
      verifyAgentCard(twice, { keys: [rs256.publicJwk], require: "all" }),
      "unknown-key",
      /1 of 2 agent card signature/,
    );
    expect(e.failures).toEqual([
      expect.objectContaining({ index: 0, reason: "unknown-key", kid: "es-1", alg: "ES256" }),
    ]);
  });

  it("we sign → @a2a-js/sdk 1.3.0's verifyAgentCardSignature accepts (and refuses a tampered copy)", async () => {
    const signed = await signAgentCard(sampleCard(), {
      key: es256.privateJwk,
      schema: AgentCardSchema,
      jku: "https://agent.example.com/jwks.json",
    });
    const asked: [string, string | undefined][] = [];
    const verifier = verifyAgentCardSignature(async (kid, jku) => {
      asked.push([kid, jku]);
      return es256.publicKey;
    });
    await verifier(signed as unknown as SdkAgentCard);
    expect(asked).toEqual([["es-1", "https://agent.example.com/jwks.json"]]);
    await expect(
      verifier({ ...signed, name: "Evil Agent" } as unknown as SdkAgentCard),
    ).rejects.toThrow(/No valid signatures/);
    // and with an Ed25519 key
    const signedEd = await signAgentCard(sampleCard(), {
      key: ed25519.privateJwk,
      schema: AgentCardSchema,
    });
    await verifyAgentCardSignature(async () => ed25519.publicJwk as jose.JWK)(
      signedEd as unknown as SdkAgentCard,
    );
  });

  it("@a2a-js/sdk 1.3.0's generateAgentCardSignature signs → we verify (with and without the schema)", async () => {
    const card = sampleCard();
    const signer = generateAgentCardSignature(
      es256.privateKey,
      { alg: "ES256", kid: "es-1", typ: "JOSE" },
      { issuer: "a2a-js" },
    );
    const signed = (await signer(card as unknown as SdkAgentCard)) as unknown as JsonObject;
    expect(signaturesOf(signed)[0]!["header"]).toEqual({ issuer: "a2a-js" });
    expect(
      (await verifyAgentCard(signed, { keys: es256.publicJwk, schema: AgentCardSchema }))
        .verified[0],
    ).toMatchObject({ form: "canonical", kid: "es-1" });
    // the runtime's ProtoJSON card is already normalized: the schema is not needed
    expect((await verifyAgentCard(signed, { keys: es256.publicJwk })).verified[0]!.form).toBe(
      "canonical",
    );
    await expectRefused(
      verifyAgentCard(
        { ...signed, description: "changed" },
        { keys: es256.publicJwk, schema: AgentCardSchema },
      ),
      "bad-signature",
    );
  });

  it("a card a2a-js signed carrying an explicit default and an unknown field verifies with the schema (its normalization)", async () => {
    const card = { ...sampleCard(), extra: "not in the schema" } as JsonObject;
    (card["capabilities"] as JsonObject)["extensions"] = [
      { uri: "https://example.com/ext/v1", required: false },
    ];
    const signed = (await generateAgentCardSignature(es256.privateKey, {
      alg: "ES256",
      kid: "es-1",
      typ: "JOSE",
    })(card as unknown as SdkAgentCard)) as unknown as JsonObject;
    expect(
      (await verifyAgentCard(signed, { keys: es256.publicJwk, schema: AgentCardSchema }))
        .verified[0]!.form,
    ).toBe("canonical");
    await expectRefused(
      verifyAgentCard(signed, { keys: es256.publicJwk, legacyForms: false }),
      "bad-signature",
    );
  });

  it("a2a-python ≤ 1.1 (PyJWT jwt.encode over json.dumps(sort_keys=True), ensure_ascii) → we verify as 'python-legacy'", async () => {
    // What a2a-python's _canonicalize_agent_card returns for this card, written out by hand:
    // MessageToDict (camelCase, defaults omitted, Struct numbers as floats), _clean_empty, then
    // json.dumps(separators=(',', ':'), sort_keys=True): \uXXXX escapes, code-point key order, 1 → 1.0.
    const card: JsonObject = {
      name: "Café",
      description: "naïve 😀",
      version: "1.0.0",
      supportedInterfaces: [
        {
          url: "https://agent.example.com/a2a/jsonrpc",
          protocolBinding: "JSONRPC",
          protocolVersion: "1.0",
        },
      ],
      capabilities: {
        streaming: true,
        extensions: [
          {
            uri: "urn:x",
            params: { n: 1, "\uff01": "fullwidth", "\ud83d\ude00": "emoji", small: 0.000001 },
          },
        ],
      },
      defaultInputModes: ["text/plain"],
      defaultOutputModes: ["text/plain"],
      skills: [{ id: "s", name: "S", description: "d", tags: ["t"] }],
    };
    const python =
      '{"capabilities":{"extensions":[{"params":{"n":1.0,"small":1e-06,"\\uff01":"fullwidth","\\ud83d\\ude00":"emoji"},"uri":"urn:x"}],"streaming":true},' +
      '"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"description":"na\\u00efve \\ud83d\\ude00","name":"Caf\\u00e9",' +
      '"skills":[{"description":"d","id":"s","name":"S","tags":["t"]}],' +
      '"supportedInterfaces":[{"protocolBinding":"JSONRPC","protocolVersion":"1.0","url":"https://agent.example.com/a2a/jsonrpc"}],"version":"1.0.0"}';
    expect(pythonLegacyJson(card)).toBe(python);
    expect(await canonicalizeAgentCard(card)).not.toBe(python);
    // PyJWT: header {"typ": "JWT", "alg": …} updated with a2a's protected header, serialized with sorted keys; compact JWS.
    const protectedHeader = { alg: "ES256", kid: "py-key", typ: "JOSE" };
    const compact = await new jose.CompactSign(new TextEncoder().encode(python))
      .setProtectedHeader(protectedHeader)
      .sign(es256.privateKey);
    const [protectedB64, , signature] = compact.split(".");
    expect(jose.base64url.decode(protectedB64!)).toEqual(
      new TextEncoder().encode('{"alg":"ES256","kid":"py-key","typ":"JOSE"}'),
    );
    const signed = { ...card, signatures: [{ protected: protectedB64!, signature: signature! }] };
    const key = { ...es256.publicJwk, kid: "py-key" };
    expect(
      (await verifyAgentCard(signed, { keys: key, schema: AgentCardSchema })).verified[0]!.form,
    ).toBe("python-legacy");
    await expectRefused(
      verifyAgentCard(signed, { keys: key, legacyForms: false }),
      "bad-signature",
    );
    await expectRefused(
      verifyAgentCard({ ...signed, name: "Cafe" }, { keys: key }),
      "bad-signature",
    );
  });

  it("PyJWT's null header parameters (kid/jku given as None) read as absent", async () => {
    const card: JsonObject = { name: "Plain", description: "ascii", version: "1" };
    const payload = new TextEncoder().encode(pythonLegacyJson(card));
    const jws = await new jose.FlattenedSign(payload)
      .setProtectedHeader({
        alg: "ES256",
        jku: null,
        kid: null,
        typ: "JWT",
      } as unknown as jose.JWSHeaderParameters)
      .sign(es256.privateKey);
    const result = await verifyAgentCard(
      { ...card, signatures: [{ protected: jws.protected!, signature: jws.signature }] },
      { keys: es256.publicJwk },
    );
    expect(result.verified[0]).toMatchObject({
      kid: undefined,
      protectedHeader: { alg: "ES256", typ: "JWT" },
    });
  });

  it("an ASCII-only card a2a-python signed with typ JWT (PyJWT's default) is the canonical form", async () => {
    const card: JsonObject = {
      name: "Plain",
      description: "ascii",
      version: "1",
      capabilities: { streaming: false },
      skills: [{ id: "a", name: "A", description: "a", tags: ["a"] }],
    };
    const payload = pythonLegacyJson(card);
    expect(payload).toBe(await canonicalizeAgentCard(card));
    const compact = await new jose.CompactSign(new TextEncoder().encode(payload))
      .setProtectedHeader({ alg: "ES256", kid: "py-key", typ: "JWT" })
      .sign(es256.privateKey);
    const [p, , s] = compact.split(".");
    const result = await verifyAgentCard(
      { ...card, signatures: [{ protected: p!, signature: s! }] },
      { keys: { ...es256.publicJwk, kid: "py-key" } },
    );
    expect(result.verified[0]).toMatchObject({
      form: "canonical",
      kid: "py-key",
      protectedHeader: { typ: "JWT" },
    });
  });
});

// ---------------------------------------------------------------------------------------
// Refusals
// ---------------------------------------------------------------------------------------

describe("refusals, each with its reason", () => {
  let signed: JsonObject;
  beforeAll(async () => {
    signed = await signAgentCard(sampleCard(), { key: es256.privateJwk });
  });

  it("tampered: any field changed after signing → bad-signature", async () => {
    const changes: ((c: JsonObject) => void)[] = [
      (c) => (c["name"] = "Evil Agent"),
      (c) =>
        ((c["supportedInterfaces"] as JsonObject[])[0]!["url"] =
          "https://evil.example.com/a2a/jsonrpc"),
      (c) => ((c["capabilities"] as JsonObject)["streaming"] = true),
      (c) => (c["iconUrl"] = "https://evil.example.com/icon.png"),
      (c) =>
        (c["skills"] as JsonObject[]).push({ id: "x", name: "X", description: "x", tags: ["x"] }),
      (c) =>
        (((c["capabilities"] as JsonObject)["extensions"] as JsonObject[])[0]!["params"] = {
          n: 2,
        }),
    ];
    for (const change of changes) {
      const copy = structuredClone(signed);
      change(copy);
      const e = await expectRefused(
        verifyAgentCard(copy, { keys: es256.publicJwk }),
        "bad-signature",
        /does not match the card/,
      );
      expect(e.failures).toEqual([
        expect.objectContaining({ index: 0, reason: "bad-signature", kid: "es-1" }),
      ]);
    }
  });

  it("wrong key → bad-signature; unknown kid → unknown-key; a key of another type → unknown-key", async () => {
    await expectRefused(
      verifyAgentCard(signed, { keys: { ...es256b.publicJwk, kid: "es-1" } }),
      "bad-signature",
    );
    await expectRefused(
      verifyAgentCard(signed, { keys: es256b.publicJwk }),
      "unknown-key",
      /kid "es-1"/,
    );
    await expectRefused(
      verifyAgentCard(signed, { keys: [es256b.publicJwk, rs256.publicJwk] }),
      "unknown-key",
    );
    const { kid: _k, alg: _a, ...rsaAnonymous } = rs256.publicJwk;
    await expectRefused(
      verifyAgentCard(signed, { keys: rsaAnonymous as AgentCardJwk }),
      "unknown-key",
    );
    await expectRefused(verifyAgentCard(signed, { keys: () => rs256.publicKey }), "unknown-key");
    await expectRefused(
      verifyAgentCard(signed, {
        keys: () => {
          throw new Error("not in my trust store");
        },
      }),
      "unknown-key",
      /not in my trust store/,
    );
  });

  it('alg "none" → disallowed-algorithm', async () => {
    const protectedB64 = b64(JSON.stringify({ alg: "none", typ: "JOSE", kid: "es-1" }));
    await expectRefused(
      verifyAgentCard(
        { ...signed, signatures: [{ protected: protectedB64, signature: "" }] },
        { keys: es256.publicJwk },
      ),
      "disallowed-algorithm",
      /"none"/,
    );
    await expectRefused(
      verifyAgentCard(
        { ...signed, signatures: [{ protected: protectedB64, signature: "" }] },
        { keys: es256.publicJwk, algorithms: ["none", "ES256"] },
      ),
      "disallowed-algorithm",
    );
  });

  it("HS256 keyed with the public key (algorithm confusion) → disallowed-algorithm, even when listed in algorithms", async () => {
    const payload = new TextEncoder().encode(await canonicalizeAgentCard(signed));
    const secret = new TextEncoder().encode(JSON.stringify(es256.publicJwk));
    const forged = await new jose.FlattenedSign(payload)
      .setProtectedHeader({ alg: "HS256", typ: "JOSE", kid: "es-1" })
      .sign(secret);
    const card = {
      ...signed,
      signatures: [{ protected: forged.protected!, signature: forged.signature }],
    };
    await expectRefused(
      verifyAgentCard(card, { keys: es256.publicJwk }),
      "disallowed-algorithm",
      /HS256/,
    );
    await expectRefused(
      verifyAgentCard(card, { keys: es256.publicJwk, algorithms: ["HS256"] }),
      "disallowed-algorithm",
    );
    // an algorithm left out of `algorithms` too
    await expectRefused(
      verifyAgentCard(signed, { keys: es256.publicJwk, algorithms: ["RS256"] }),
      "disallowed-algorithm",
    );
  });

  it("malformed protected header or entry → malformed", async () => {
    const sig = signaturesOf(signed)[0]!["signature"] as string;
    const entries: JsonObject[] = [
      { protected: "!!not base64!!", signature: sig },
      { protected: b64("not json"), signature: sig },
      { protected: b64("[1,2]"), signature: sig },
      { protected: b64(JSON.stringify({ typ: "JOSE", kid: "es-1" })), signature: sig },
      { protected: b64(JSON.stringify({ alg: "ES256", kid: 7 })), signature: sig },
      {
        protected: b64(JSON.stringify({ alg: "ES256", kid: "es-1", crit: ["exp"], exp: 1 })),
        signature: sig,
      },
      { protected: signaturesOf(signed)[0]!["protected"] as string, signature: 5 },
      { protected: signaturesOf(signed)[0]!["protected"] as string, signature: sig, header: "x" },
      {
        protected: signaturesOf(signed)[0]!["protected"] as string,
        signature: sig,
        header: { kid: "es-1" },
      }, // parameter in both headers
    ];
    for (const entry of entries)
      await expectRefused(
        verifyAgentCard({ ...signed, signatures: [entry] }, { keys: es256.publicJwk }),
        "malformed",
      );
    await expectRefused(
      verifyAgentCard({ ...signed, signatures: "x" }, { keys: es256.publicJwk }),
      "malformed",
    );
    await expectRefused(
      verifyAgentCard(
        { ...signed, skills: "not a list" },
        { keys: es256.publicJwk, schema: AgentCardSchema },
      ),
      "malformed",
    );
  });

  it("no signatures → unsigned", async () => {
    const { signatures: _s, ...unsigned } = signed;
    await expectRefused(
      verifyAgentCard(unsigned, { keys: es256.publicJwk }),
      "unsigned",
      /not signed/,
    );
    await expectRefused(
      verifyAgentCard({ ...unsigned, signatures: [] }, { keys: es256.publicJwk }),
      "unsigned",
    );
  });

  it("several failures: the error lists each, its reason is the first's", async () => {
    const bad = { protected: b64(JSON.stringify({ alg: "HS256", kid: "k" })), signature: "AA" };
    const e = await expectRefused(
      verifyAgentCard(
        { ...signed, name: "changed", signatures: [bad, ...signaturesOf(signed)] },
        { keys: es256.publicJwk },
      ),
      "disallowed-algorithm",
    );
    expect(e.failures.map((f) => f.reason)).toEqual(["disallowed-algorithm", "bad-signature"]);
    expect(e.message).toMatch(/signatures\[0\].*signatures\[1\] \(kid "es-1"\)/);
  });

  it("signing refuses symmetric and public keys and unknown algorithms (TypeError)", async () => {
    await expect(signAgentCard(sampleCard(), { key: es256.publicJwk })).rejects.toThrow(TypeError);
    await expect(
      signAgentCard(sampleCard(), { key: { kty: "oct", k: "c2VjcmV0" } }),
    ).rejects.toThrow(TypeError);
    await expect(
      signAgentCard(sampleCard(), { key: es256.privateJwk, alg: "HS256" }),
    ).rejects.toThrow(/not an asymmetric/);
    await expect(signAgentCard(sampleCard(), { key: es256.publicKey, kid: "x" })).rejects.toThrow(
      /public key, not a private one/,
    );
    await expect(
      signAgentCard([] as unknown as JsonObject, { key: es256.privateJwk }),
    ).rejects.toThrow(TypeError);
  });
});

// ---------------------------------------------------------------------------------------
// Keys from a JWKS URL
// ---------------------------------------------------------------------------------------

describe("keys from a JWKS URL (node:http on 127.0.0.1) and from resolvers", () => {
  let server: Listening;
  let jwksStatus = 200;
  let jwksBody = "";
  let fetches = 0;
  beforeAll(async () => {
    jwksBody = JSON.stringify({ keys: [es256b.publicJwk, es256.publicJwk, rs256.publicJwk] });
    server = await listen((req, res) => {
      fetches++;
      if (req.url === "/jwks.json")
        res.writeHead(jwksStatus, { "content-type": "application/json" }).end(jwksBody);
      else res.writeHead(404).end();
    });
  });
  afterAll(() => server.close());

  it("verifies with the key of the signature's kid out of the set", async () => {
    const signed = await signAgentCard(sampleCard(), { key: rs256.privateJwk });
    const result = await verifyAgentCard(signed, {
      keys: { jwksUrl: `http://127.0.0.1:${server.port}/jwks.json` },
    });
    expect(result.verified[0]).toMatchObject({
      kid: "rs-1",
      alg: "RS256",
      key: { source: "jwks-url", kid: "rs-1" },
    });
    const ec = await signAgentCard(sampleCard(), { key: es256.privateJwk });
    expect(
      (
        await verifyAgentCard(ec, {
          keys: { jwksUrl: new URL(`http://127.0.0.1:${server.port}/jwks.json`) },
        })
      ).verified[0]!.kid,
    ).toBe("es-1");
  });

  it("a kid the set lacks → unknown-key; several keys without kid → each tried", async () => {
    const signed = await signAgentCard(sampleCard(), { key: ed25519.privateJwk });
    await expectRefused(
      verifyAgentCard(signed, { keys: { jwksUrl: `http://127.0.0.1:${server.port}/jwks.json` } }),
      "unknown-key",
    );
    const strip = ({ kid: _k, ...rest }: AgentCardJwk): AgentCardJwk => rest as AgentCardJwk;
    const noKid = await signAgentCard(sampleCard(), {
      key: strip(es256.privateJwk),
      kid: "whatever",
    });
    const resolver = jose.createLocalJWKSet({
      keys: [strip(es256b.publicJwk), strip(es256.publicJwk)] as jose.JWK[],
    });
    expect(
      (await verifyAgentCard(
        {
          ...noKid,
          signatures: [
            { ...signaturesOf(noKid)[0]!, protected: b64(JSON.stringify({ alg: "ES256" })) },
          ],
        },
        { keys: resolver },
      ).catch((e: unknown) => e)) as AgentCardSignatureError,
    ).toMatchObject({ reason: "bad-signature" });
    // the protected header changed above, so the signature is bad; with the original header:
    const { kid: _kid, ...header } = jose.decodeProtectedHeader(
      signaturesOf(noKid)[0] as unknown as jose.FlattenedJWSInput,
    );
    const payload = new TextEncoder().encode(await canonicalizeAgentCard(noKid));
    const reSigned = await new jose.FlattenedSign(payload)
      .setProtectedHeader(header)
      .sign(es256.privateKey);
    const result = await verifyAgentCard(
      { ...noKid, signatures: [{ protected: reSigned.protected!, signature: reSigned.signature }] },
      { keys: resolver },
    );
    expect(result.verified[0]).toMatchObject({ key: { source: "resolver" }, kid: undefined });
  });

  it("a JWKS URL that fails → jwks-unreachable (HTTP 500, not a JWK Set, connection refused)", async () => {
    const signed = await signAgentCard(sampleCard(), { key: es256.privateJwk });
    try {
      jwksStatus = 500;
      await expectRefused(
        verifyAgentCard(signed, { keys: { jwksUrl: `http://127.0.0.1:${server.port}/jwks.json` } }),
        "jwks-unreachable",
        /JWK Set could not be fetched/,
      );
      jwksStatus = 200;
      jwksBody = JSON.stringify({ nope: true });
      await expectRefused(
        verifyAgentCard(signed, { keys: { jwksUrl: `http://127.0.0.1:${server.port}/jwks.json` } }),
        "jwks-unreachable",
      );
    } finally {
      jwksStatus = 200;
      jwksBody = JSON.stringify({ keys: [es256b.publicJwk, es256.publicJwk, rs256.publicJwk] });
    }
    const closed = await listen((_req, res) => res.end());
    const port = closed.port;
    await closed.close();
    await expectRefused(
      verifyAgentCard(signed, {
        keys: { jwksUrl: `http://127.0.0.1:${port}/jwks.json`, timeoutMs: 2000 },
      }),
      "jwks-unreachable",
    );
  });

  it("jose's createRemoteJWKSet is a resolver too (reused across cards: one fetch)", async () => {
    const remote = jose.createRemoteJWKSet(new URL(`http://127.0.0.1:${server.port}/jwks.json`));
    const before = fetches;
    for (const key of [es256, rs256]) {
      const signed = await signAgentCard(sampleCard(), { key: key.privateJwk });
      expect((await verifyAgentCard(signed, { keys: remote })).verified[0]!.kid).toBe(
        key.privateJwk.kid,
      );
    }
    expect(fetches - before).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------
// serveAgentCard({ sign }) + connectA2AService(url, { verifyCard })
// ---------------------------------------------------------------------------------------

const executor: A2AExecutor<undefined> = {
  async execute(request, emitter) {
    return emitter.reply({
      parts: [{ content: { case: "text", value: `echo: ${textOf(request.message)}` } }],
    });
  },
};

describe("serveAgentCard({ sign }) and connectA2AService(url, { verifyCard }) end to end", () => {
  let server: Listening;
  let origin: string;
  let card: JsonObject;
  /** What the card path serves: the runtime's signed handler, or a fixed body. */
  let override: JsonObject | undefined;
  let bindingRequests = 0;
  let jwksUrl: string;
  let signedHandler: ReturnType<typeof serveAgentCard>;
  beforeAll(async () => {
    const handler = createA2ATaskHandler<undefined>({ executor, capabilities: {} });
    const jsonrpc = createA2AServiceJsonRpcServer(handler, { versionWhenMissing: "1.0" });
    const bindings = serveNode(
      composeHandlers({ prefix: "/a2a/jsonrpc", handler: jsonrpc.handler }),
    );
    server = await listen((req, res) => {
      const path = (req.url ?? "/").split("?")[0]!;
      if (path.startsWith("/a2a/")) {
        bindingRequests++;
        return bindings(req, res);
      }
      if (path === "/jwks.json")
        return res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ keys: [es256.publicJwk] }));
      if (path === "/.well-known/agent-card.json" && override !== undefined)
        return res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify(override));
      return serveNode(signedHandler)(req, res);
    });
    origin = `http://127.0.0.1:${server.port}`;
    jwksUrl = `${origin}/jwks.json`;
    card = toJson(
      AgentCardSchema,
      create(AgentCardSchema, {
        name: "Signed agent",
        description: "serves a signed card",
        version: "1.0.0",
        supportedInterfaces: buildSupportedInterfaces({
          baseUrl: origin,
          jsonRpcPath: "/a2a/jsonrpc",
        }),
        capabilities: { streaming: false },
        defaultInputModes: ["text/plain"],
        defaultOutputModes: ["text/plain"],
        skills: [{ id: "echo", name: "Écho", description: "echoes", tags: ["echo"] }],
      }),
    ) as JsonObject;
    signedHandler = serveAgentCard(card, {
      sign: { key: es256.privateJwk, jku: jwksUrl, schema: AgentCardSchema },
    });
  });
  afterAll(() => server.close());

  it("serves the signed card; the ETag is of the signed bytes; If-None-Match → 304; HEAD/OPTIONS/405/404 as before", async () => {
    override = undefined;
    const response = await fetch(`${origin}/.well-known/agent-card.json`);
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const served = JSON.parse(new TextDecoder().decode(bytes)) as JsonObject;
    expect(signaturesOf(served)).toHaveLength(1);
    const { signatures: _s, ...rest } = served;
    expect(rest).toEqual(card);
    expect(response.headers.get("etag")).toBe(
      `"${createHash("sha256").update(bytes).digest("base64url")}"`,
    );
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    // signed once: the same bytes again
    const again = await fetch(`${origin}/.well-known/agent-card.json`);
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(bytes);
    expect(
      (
        await fetch(`${origin}/.well-known/agent-card.json`, {
          headers: { "if-none-match": response.headers.get("etag")! },
        })
      ).status,
    ).toBe(304);
    expect(
      (await fetch(`${origin}/.well-known/agent-card.json`, { method: "HEAD" })).headers.get(
        "etag",
      ),
    ).toBe(response.headers.get("etag"));
    expect(
      (await fetch(`${origin}/.well-known/agent-card.json`, { method: "OPTIONS" })).status,
    ).toBe(204);
    expect((await fetch(`${origin}/.well-known/agent-card.json`, { method: "POST" })).status).toBe(
      405,
    );
    expect((await verifyAgentCard(served, { keys: { jwksUrl } })).verified[0]).toMatchObject({
      kid: "es-1",
      protectedHeader: { jku: jwksUrl },
    });
    // and @a2a-js/sdk accepts what is served
    await verifyAgentCardSignature(async () => es256.publicJwk as jose.JWK)(
      served as unknown as SdkAgentCard,
    );
  });

  it("a card that cannot be signed is answered 500, never served unsigned", async () => {
    const handler = serveAgentCard(card, { sign: { key: es256.publicJwk } });
    const response = await handler({
      method: "GET",
      path: "/.well-known/agent-card.json",
      header: () => undefined,
    } as unknown as Parameters<typeof handler>[0]);
    expect(response.status).toBe(500);
    expect(String((response as { body: unknown }).body)).toMatch(/could not be signed/);
  });

  it("connectA2AService with verifyCard: a card that verifies connects and calls go through", async () => {
    override = undefined;
    const connection = await connectA2AService(origin, { verifyCard: { keys: { jwksUrl } } });
    expect(connection.card.name).toBe("Signed agent");
    expect(connection.card.signatures).toHaveLength(1);
    const reply = await connection.client.sendMessage(sendRequest("hi"));
    expect(reply.payload.case === "message" ? textOf(reply.payload.value) : "").toBe("echo: hi");
    // a pinned JWK works the same
    await connectA2AService(`${origin}/.well-known/agent-card.json`, {
      verifyCard: { keys: [es256.publicJwk] },
    });
  });

  async function connectFailure(promise: Promise<unknown>): Promise<AgentConnectError> {
    try {
      await promise;
    } catch (e) {
      if (e instanceof AgentConnectError) return e;
      throw e;
    }
    throw new Error("expected an AgentConnectError");
  }

  it("a tampered, unsigned or wrongly keyed card is refused before any interface is used", async () => {
    const served = (await (
      await fetch(`${origin}/.well-known/agent-card.json`)
    ).json()) as JsonObject;
    const { signatures: _s, ...unsigned } = served;
    const cases: [JsonObject, AgentConnectOptionsKeys, AgentCardSignatureReason][] = [
      [
        {
          ...served,
          supportedInterfaces: buildSupportedInterfaces({
            baseUrl: "http://127.0.0.1:1",
            jsonRpcPath: "/a2a/jsonrpc",
          }) as unknown as JsonObject[],
        },
        { jwksUrl },
        "bad-signature",
      ],
      [unsigned, { jwksUrl }, "unsigned"],
      [served, [es256b.publicJwk], "unknown-key"],
      [served, [{ ...es256b.publicJwk, kid: "es-1" }], "bad-signature"],
      [served, { jwksUrl: `${origin}/nothing-here.json` }, "jwks-unreachable"],
    ];
    try {
      for (const [body, keys, reason] of cases) {
        override = body;
        const before = bindingRequests;
        const e = await connectFailure(connectA2AService(origin, { verifyCard: { keys } }));
        expect(e.reason).toBe("card-signature");
        expect(e.cardUrl).toBe(`${origin}/.well-known/agent-card.json`);
        expect(e.cause).toBeInstanceOf(AgentCardSignatureError);
        expect((e.cause as AgentCardSignatureError).reason).toBe(reason);
        expect(e.message).toContain(`failed signature verification (${reason})`);
        expect(bindingRequests).toBe(before);
      }
      // without verifyCard the same tampered card connects (verification is opt-in)
      override = cases[1]![0];
      await connectA2AService(origin);
    } finally {
      override = undefined;
    }
  });

  it("a card passed in is verified too (its ProtoJSON)", async () => {
    const served = (await (
      await fetch(`${origin}/.well-known/agent-card.json`)
    ).json()) as JsonObject;
    const message: AgentCard = fromJson(AgentCardSchema, served);
    const connection = await connectA2AService(message, { verifyCard: { keys: es256.publicJwk } });
    expect((await connection.client.sendMessage(sendRequest("direct"))).payload.case).toBe(
      "message",
    );
    const tampered = fromJson(AgentCardSchema, { ...served, description: "changed" });
    const e = await connectFailure(
      connectA2AService(tampered, { verifyCard: { keys: es256.publicJwk } }),
    );
    expect(e).toMatchObject({ reason: "card-signature", cardUrl: undefined });
    expect((e.cause as AgentCardSignatureError).reason).toBe("bad-signature");
  });
});

type AgentConnectOptionsKeys = Parameters<typeof verifyAgentCard>[1]["keys"];
