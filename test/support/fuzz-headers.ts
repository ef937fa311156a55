// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * fast-check arbitraries of the HTTP parts of a request the fuzzers share between JSON-RPC and
 * HTTP+JSON: Content-Type, A2A-Version, A2A-Extensions, Authorization, stray headers, HTTP
 * methods, and text (unicode, percent-encodings, huge numbers). Header names and values stay
 * within what node:http lets a client send (tokens; printable ASCII and Latin-1), so that the
 * same inputs go over real sockets.
 */
import fc from "fast-check";

/** `arbitrary` with probability `chance` (0..1), else undefined. */
export const sometimes = <T>(
  arbitrary: fc.Arbitrary<T>,
  chance: number,
): fc.Arbitrary<T | undefined> =>
  fc.oneof(
    { weight: Math.round(chance * 1000), arbitrary: arbitrary as fc.Arbitrary<T | undefined> },
    { weight: 1000 - Math.round(chance * 1000), arbitrary: fc.constant(undefined) },
  );

/** Printable ASCII and some Latin-1: what a header value may hold on the wire. */
export const headerValue = (maxLength = 40): fc.Arbitrary<string> =>
  fc
    .string({
      unit: fc.oneof(
        fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
        fc.constantFrom("\t", "é", "ÿ", "\u00a0"),
      ),
      maxLength,
    })
    .map((s) => s.trim());

const tokenChar = fc.constantFrom(
  ..."!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".split(""),
);
/** Header names node:http sends as given, minus the ones that frame the message (those are other tests' business). */
const FRAMING = new Set([
  "content-length",
  "transfer-encoding",
  "host",
  "connection",
  "expect",
  "upgrade",
  "te",
  "trailer",
  "keep-alive",
  "proxy-connection",
  "http2-settings",
]);
/** Header names (tokens), without the framing ones. */
export const headerName: fc.Arbitrary<string> = fc
  .string({ unit: tokenChar, minLength: 1, maxLength: 12 })
  .filter((n) => !FRAMING.has(n.toLowerCase()));

/** Values of A2A-Version: mostly the one the agent serves. */
export const versionValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 30, arbitrary: fc.constant("1.0") },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "",
      "0.3",
      "1",
      "1.0.0",
      "1.1",
      "2.0",
      " 1.0 ",
      "1.0, 1.0",
      "1.0,0.3",
      "v1.0",
      "1.O",
      "01.0",
      "1.0.",
      "-1",
      "1e0",
      "9".repeat(300),
    ),
  },
  { weight: 2, arbitrary: headerValue(20) },
);

/** Values of A2A-Extensions. */
export const extensionsValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "https://example.com/ext/echo/v1",
    "",
    ",",
    " , ,",
    "not a uri",
    "https://a.example/x, https://b.example/y",
    "urn:a2a:ext:x",
  ),
  fc.array(fc.oneof(fc.webUrl(), headerValue(12)), { maxLength: 4 }).map((a) => a.join(", ")),
);

/** Values of Authorization: the fuzz tokens, unknown ones, other schemes, garbage. */
export const authorizationValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "Bearer fuzz-alice",
    "Bearer fuzz-bob",
    "Bearer fuzz-carol",
    "Bearer nope",
    "bearer fuzz-alice",
    "Bearer",
    "Bearer  fuzz-alice",
    "Basic YTpi",
    "",
    "Bearer fuzz-alice extra",
  ),
  headerValue(30),
);

/** Content-Type values for a JSON endpoint: mostly right. */
export const jsonContentType = (right: readonly string[]): fc.Arbitrary<string | undefined> =>
  fc.oneof(
    { weight: 40, arbitrary: fc.constantFrom(...right) },
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        "application/json; charset=utf-8",
        "application/json;charset=UTF-8",
        "APPLICATION/JSON",
        "application/json; charset=latin1",
        "application/json; boundary=x",
        "application/jsonx",
        "application/json-patch+json",
        "text/plain",
        "text/event-stream",
        "multipart/form-data; boundary=x",
        "",
        ";",
        "application/",
        "*/*",
      ),
    },
    { weight: 1, arbitrary: headerValue(30) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );

/** Stray headers: random names and values, some of them the A2A service parameters again (repeated). */
export const strayHeaders: fc.Arbitrary<[string, string][]> = fc.array(
  fc.tuple(
    fc.oneof(
      headerName,
      fc.constantFrom(
        "a2a-version",
        "A2A-Extensions",
        "authorization",
        "content-type",
        "accept",
        "origin",
        "x-forwarded-for",
      ),
    ),
    headerValue(30),
  ),
  { maxLength: 3 },
);

/** HTTP methods: the usual ones and tokens. */
export const httpMethod = (usual: readonly string[], otherWeight = 3): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 20, arbitrary: fc.constantFrom(...usual) },
    {
      weight: otherWeight,
      arbitrary: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"),
    },
    // Methods Node's HTTP parser knows (others it answers 400 itself, before any server code runs).
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "PROPFIND",
        "MKCOL",
        "COPY",
        "MOVE",
        "LOCK",
        "UNLOCK",
        "PURGE",
        "QUERY",
        "SEARCH",
        "REPORT",
        "LINK",
        "UNLINK",
        "SUBSCRIBE",
        "NOTIFY",
        "M-SEARCH",
        "TRACE",
        "ACL",
        "BIND",
        "MERGE",
      ),
    },
  );

/** Text that stresses decoders: unicode (astral, combining, RTL, NUL), escapes, lone surrogates as JSON escapes. */
export const nastyText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: "grapheme", maxLength: 6 }),
  fc.string({ unit: "binary", maxLength: 6 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "\ud83d\ude00",
    "e\u0301",
    "\u202e",
    "\ufeff",
    "%00",
    "%zz",
    "../",
    "..%2F",
    "a/b",
    "a:b",
    "a?b",
    "a#b",
    "a%2Fb",
    "%E2%82%AC",
    "%C0%AF",
    "\\",
    "\n",
    "null",
    "true",
    "0",
    "-1",
  ),
);

/** Numbers in JSON text, including ones JavaScript cannot hold. */
export const numberText: fc.Arbitrary<string> = fc.oneof(
  fc.integer().map(String),
  fc.double().map((d) => (Number.isFinite(d) ? String(d) : "1e999")),
  fc.constantFrom(
    "-1",
    "0",
    "-0",
    "1e99",
    "1e400",
    "-1e400",
    "9007199254740993",
    "18446744073709551616",
    "2147483648",
    "-2147483649",
    "1.5",
    "0.0000001",
    "1E2",
    "00",
    "01",
    "+1",
    ".5",
    "NaN",
    "Infinity",
  ),
);
