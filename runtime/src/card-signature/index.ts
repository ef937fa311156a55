// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Agent Card signatures (A2A v1.0 §8.4): JWS (RFC 7515, flattened JSON serialization with a
 * detached payload) over the RFC 8785 (JCS) canonical form of the card.
 *
 * ## What is signed (the canonical payload)
 *
 * §8.4.1 is under-determined (a2aproject/A2A#2122) and the two first-party SDKs agree with each
 * other on the structure, not with the section's worked example. We produce what both SDKs
 * compute with a conforming RFC 8785 serializer, so a card we sign verifies in `@a2a-js/sdk`
 * (`verifyAgentCardSignature`, 1.3.0 tested; since a2a-js#606) and in `a2a-sdk` (`create_signature_verifier`) since it
 * serializes with RFC 8785 (a2a-python#1193; older versions escape non-ASCII text and format
 * numbers their own way, so they accept our signature only on cards without either), and their
 * signatures verify here:
 *
 * 1. **Proto normalization** (when `schema`, the generated `AgentCardSchema`, is given — it is on
 *    the `connectA2AService` path): `toJson(schema, fromJson(schema, card, { ignoreUnknownFields }))`.
 *    Fields outside the schema are dropped (they are not covered by the signature, as in both
 *    SDKs), non-`optional` fields at their default (`""`, `false`, `0`, first enum value, empty
 *    list/map) are omitted, `optional` fields explicitly set are kept even at their default
 *    (`"streaming": false` stays), snake_case names become camelCase. This is what a2a-js does with
 *    `AgentCard.toJSON(AgentCard.fromJSON(card))` and a2a-python with `MessageToDict(card)`.
 *    Without `schema` the JSON is taken as is — fine for `toJson(AgentCardSchema, card)` output
 *    (already normalized), which is what this runtime serves.
 * 2. The top-level `signatures` member is removed.
 * 3. **Empty values are removed**, recursively: `""`, `null`, `[]` and `{}` (an object or list
 *    that becomes empty after its members are removed is removed too). `false` and `0` stay. Both
 *    SDKs do this (`cleanEmpty` / `_clean_empty`); the §8.4.1 example instead keeps REQUIRED empty
 *    fields (`"description": ""`, `"skills": []`) — no SDK produces that form (a2a-js#627).
 * 4. RFC 8785 serialization (the `canonicalize` package): UTF-8, keys sorted by UTF-16 code units,
 *    ECMAScript number formatting, no whitespace.
 *
 * ## What is accepted
 *
 * The protected header must name an asymmetric `alg` (`none` and the HMAC algorithms are always
 * refused: an Agent Card signature is verified with a public key); `kid` and `typ` are not
 * required (a2a-python's PyJWT writes `"typ":"JWT"` unless told otherwise). A signature verifies
 * against the canonical payload above, or — for signers that deviate from it in ways that keep
 * the same JSON value — against:
 *
 * - `"as-served"`: the card as received minus `signatures`, JCS, without steps 1 and 3 (a signer
 *   that signs exactly what it serves, e.g. written from the §8.4.1 example);
 * - `"python-legacy"`: a2a-python ≤ 1.1 (before a2a-python#1193), whose canonical form is
 *   `json.dumps(cleaned, separators=(',', ':'), sort_keys=True)`: non-ASCII characters escaped as
 *   `\uXXXX`, keys in code-point order, and numbers (every number in a card is a
 *   `google.protobuf.Struct` value, a Python float) in Python's `repr` (`1.0`, `1e-06`).
 *
 * Every accepted payload decodes to the same JSON value as the canonical form of the card being
 * verified, so the extra forms do not let a signature cover different content. Turn them off
 * with `legacyForms: false`.
 *
 * `jose` and `canonicalize` are optional peer dependencies, loaded on first use.
 */
import {
  fromJson,
  toJson,
  type DescMessage,
  type JsonObject,
  type JsonValue,
} from "@bufbuild/protobuf";
import type { KeyObject, webcrypto } from "node:crypto";

/** Why an Agent Card signature was refused. */
export type AgentCardSignatureReason =
  /** The card has no `signatures` (or an empty list). */
  | "unsigned"
  /** A signature entry or its protected header is not well-formed (not base64url JSON, no `alg`, `crit`, …), or the card is not a valid card. */
  | "malformed"
  /** The `alg` is `none`, an HMAC algorithm, or not in `algorithms`. */
  | "disallowed-algorithm"
  /** No key of the given keys fits the signature's `kid`/`alg`. */
  | "unknown-key"
  /** A key fits, but the signature does not verify: the card was changed after signing, or signed with another key. */
  | "bad-signature"
  /** The JWKS URL could not be fetched or did not answer a JWK Set. */
  | "jwks-unreachable";

/** One refused signature of a card. */
export interface AgentCardSignatureFailure {
  /** Its position in `signatures`. */
  readonly index: number;
  readonly reason: AgentCardSignatureReason;
  readonly message: string;
  /** The protected header's `kid`, when readable. */
  readonly kid?: string | undefined;
  /** The protected header's `alg`, when readable. */
  readonly alg?: string | undefined;
}

/**
 * An Agent Card's signatures did not verify (or could not be made). `reason` is the reason of the
 * first refused signature (or "unsigned"); `failures` lists every refused signature.
 */
export class AgentCardSignatureError extends Error {
  readonly reason: AgentCardSignatureReason;
  readonly failures: readonly AgentCardSignatureFailure[];

  constructor(
    reason: AgentCardSignatureReason,
    message: string,
    options?: {
      readonly failures?: readonly AgentCardSignatureFailure[];
      readonly cause?: unknown;
    },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AgentCardSignatureError";
    this.reason = reason;
    this.failures = options?.failures ?? [];
  }
}

/** A JSON Web Key (RFC 7517) as a JSON object. */
export interface AgentCardJwk {
  readonly kty: string;
  readonly kid?: string | undefined;
  readonly alg?: string | undefined;
  readonly use?: string | undefined;
  readonly crv?: string | undefined;
  readonly [member: string]: unknown;
}

/** A key: a Web Crypto `CryptoKey`, a node:crypto `KeyObject`, or a JWK. */
export type AgentCardKey = webcrypto.CryptoKey | KeyObject | AgentCardJwk;

/** The JWS protected header of a signature, as decoded (not yet verified). */
export interface AgentCardSignatureHeader {
  readonly alg?: string;
  readonly kid?: string;
  readonly jku?: string;
  readonly typ?: string;
  readonly [parameter: string]: unknown;
}

/** A signature entry as a flattened JWS with its (detached) payload, base64url-encoded. */
export interface AgentCardJws {
  readonly payload: string;
  readonly protected: string;
  readonly signature: string;
  readonly header?: Record<string, unknown>;
}

/**
 * Resolves the public key of a signature from its protected header (`kid`, `alg`, `jku`). A jose
 * `createRemoteJWKSet(url)` / `createLocalJWKSet(jwks)` result fits. It may consult `jku` under
 * the caller's own policy (a card naming its own key set proves nothing by itself). Throw when
 * no key fits (a jose `JWKSNoMatchingKey` maps to "unknown-key", `JWKSTimeout` to "jwks-unreachable").
 */
export type AgentCardKeyResolver = (
  protectedHeader: AgentCardSignatureHeader,
  jws: AgentCardJws,
) => Promise<AgentCardKey> | AgentCardKey;

/** Where the verification keys come from. */
export type AgentCardVerificationKeys =
  /** Public JWKs (private members are ignored); matched by `kid` (a key without `kid` fits any), `alg`, `use` and key type. */
  | AgentCardJwk
  | readonly AgentCardJwk[]
  /** A JWK Set. */
  | { readonly keys: readonly AgentCardJwk[] }
  /** A JWK Set fetched from a URL the caller trusts (jose `createRemoteJWKSet`). */
  | {
      readonly jwksUrl: string | URL;
      readonly timeoutMs?: number | undefined;
      readonly headers?: Readonly<Record<string, string>> | undefined;
    }
  | AgentCardKeyResolver;

/** Options of {@link verifyAgentCard}. */
export interface VerifyAgentCardOptions {
  /** The keys a signature must verify with. */
  readonly keys: AgentCardVerificationKeys;
  /**
   * Allowed `alg` values. Default: ES256, ES384, ES512, RS256, RS384, RS512, PS256, PS384, PS512,
   * EdDSA, Ed25519. `none` and HS256/384/512 are refused whatever this says.
   */
  readonly algorithms?: readonly string[] | undefined;
  /** `"any"` (default): one verified signature suffices (§8.4.3); `"all"`: every signature must verify. */
  readonly require?: "any" | "all" | undefined;
  /**
   * The generated `AgentCardSchema`, for the proto normalization of the canonical form (see the
   * module documentation): recommended for cards from other implementations.
   */
  readonly schema?: DescMessage | undefined;
  /** Also accept the `"as-served"` and `"python-legacy"` payload forms. Default true. */
  readonly legacyForms?: boolean | undefined;
}

/** Which payload form a signature verified over (see the module documentation). */
export type AgentCardPayloadForm = "canonical" | "as-served" | "python-legacy";

/** A verified signature. */
export interface VerifiedAgentCardSignature {
  /** Its position in `signatures`. */
  readonly index: number;
  /** The decoded protected header (`alg`, `kid`, `typ`, `jku`, …). */
  readonly protectedHeader: AgentCardSignatureHeader;
  readonly alg: string;
  /** The protected header's `kid`. */
  readonly kid: string | undefined;
  /** The key that verified it. */
  readonly key: {
    /** "jwk": one of the JWKs given (`index` is its position); "jwks-url": from `jwksUrl`; "resolver": from the resolver function. */
    readonly source: "jwk" | "jwks-url" | "resolver";
    /** The position of the JWK in the keys given (source "jwk"). */
    readonly index?: number | undefined;
    /** The JWK's `kid` (source "jwk"), else the protected header's. */
    readonly kid?: string | undefined;
  };
  readonly form: AgentCardPayloadForm;
}

/** What {@link verifyAgentCard} found. */
export interface AgentCardVerification {
  /** The verified signatures (at least one; all of them with `require: "all"`). With `require: "any"`, verification stops at the first one. */
  readonly verified: readonly VerifiedAgentCardSignature[];
  /** How many signatures the card carries. */
  readonly signatureCount: number;
}

/** Options of {@link signAgentCard}. */
export interface SignAgentCardOptions {
  /** The private key: a `CryptoKey`, a `KeyObject`, or a JWK with its private members. Symmetric keys are refused. */
  readonly key: AgentCardKey;
  /**
   * `kid` of the protected header (§8.4.2: MUST be present). Default: the JWK's `kid`, else the
   * RFC 7638 thumbprint of the public key (a non-extractable `CryptoKey` needs an explicit `kid`).
   */
  readonly kid?: string | undefined;
  /**
   * `alg`. Default: the JWK's `alg`, else from the key: EC P-256/384/521 → ES256/384/512, Ed25519 →
   * EdDSA, RSA → RS256, RSA-PSS → PS256 (the hash of a Web Crypto RSA key decides the size).
   */
  readonly alg?: string | undefined;
  /** `jku` of the protected header: the URL of the JWK Set holding the public key. */
  readonly jku?: string | undefined;
  /** JWS unprotected header (§8.4.2 `header`), not covered by the signature. */
  readonly header?: JsonObject | undefined;
  /** The generated `AgentCardSchema`, for the proto normalization of the canonical form (recommended; see the module documentation). */
  readonly schema?: DescMessage | undefined;
}

const DEFAULT_ALGORITHMS = [
  "ES256",
  "ES384",
  "ES512",
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "EdDSA",
  "Ed25519",
] as const;
const NEVER_ALLOWED = new Set(["none", "HS256", "HS384", "HS512"]);

type Jose = typeof import("jose");

let joseModule: Promise<Jose> | undefined;
let canonicalizeModule: Promise<(input: unknown) => string | undefined> | undefined;

function jose(): Promise<Jose> {
  joseModule ??= import("jose").catch((e: unknown) => {
    joseModule = undefined;
    throw new Error(
      "Agent Card signatures need the optional peer dependency `jose` (npm install jose)",
      { cause: e },
    );
  });
  return joseModule;
}

function jcs(): Promise<(input: unknown) => string | undefined> {
  canonicalizeModule ??= import("canonicalize").then(
    (m) => m.default,
    (e: unknown) => {
      canonicalizeModule = undefined;
      throw new Error(
        "Agent Card signatures need the optional peer dependency `canonicalize` (npm install canonicalize)",
        { cause: e },
      );
    },
  );
  return canonicalizeModule;
}

// ---------------------------------------------------------------------------------------
// Canonical form
// ---------------------------------------------------------------------------------------

function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The card as a JSON object; a TypeError for anything else. */
function asCard(card: unknown, what: string): JsonObject {
  if (!isObject(card))
    throw new TypeError(
      `${what}: an Agent Card is a JSON object (pass toJson(AgentCardSchema, card))`,
    );
  return card;
}

/** Step 1: the proto normalization (or the card as is without a schema). Throws AgentCardSignatureError "malformed". */
function normalized(card: JsonObject, schema: DescMessage | undefined): JsonObject {
  if (schema === undefined) return card;
  try {
    return toJson(schema, fromJson(schema, card, { ignoreUnknownFields: true })) as JsonObject;
  } catch (e) {
    throw new AgentCardSignatureError(
      "malformed",
      `the card is not a valid ${schema.typeName}: ${e instanceof Error ? e.message : String(e)}`,
      { cause: e },
    );
  }
}

function withoutSignatures(card: JsonObject): JsonObject {
  const { signatures: _signatures, ...rest } = card;
  return rest;
}

/** Step 3: removes `""`, `null`, `[]` and `{}`, recursively (as a2a-js `cleanEmpty` and a2a-python `_clean_empty`). */
export function removeEmptyValues(value: JsonValue): JsonValue | undefined {
  if (value === null || value === "") return undefined;
  if (Array.isArray(value)) {
    const out = value.map(removeEmptyValues).filter((v): v is JsonValue => v !== undefined);
    return out.length === 0 ? undefined : out;
  }
  if (typeof value === "object") {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) {
      const c = removeEmptyValues(v);
      if (c !== undefined) out[k] = c;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return value;
}

/** Steps 1–3: the JSON value the signature covers. */
function signedValue(card: JsonObject, schema: DescMessage | undefined): JsonValue {
  return removeEmptyValues(normalized(withoutSignatures(card), schema)) ?? {};
}

/**
 * The canonical payload of `card` (a ProtoJSON object) that its signatures cover: the proto
 * normalization with `options.schema`, without `signatures`, empty values removed, RFC 8785.
 * See the module documentation for why.
 */
export async function canonicalizeAgentCard(
  card: JsonObject,
  options?: { readonly schema?: DescMessage | undefined },
): Promise<string> {
  return rfc8785(signedValue(asCard(card, "canonicalizeAgentCard"), options?.schema));
}

/** RFC 8785 serialization of a JSON value (the `canonicalize` package). */
export async function rfc8785(value: JsonValue): Promise<string> {
  const out = (await jcs())(value);
  if (out === undefined) throw new TypeError("not a JSON value");
  return out;
}

/**
 * a2a-python ≤ 1.1's serialization of the cleaned card: `json.dumps(v, separators=(',', ':'),
 * sort_keys=True)` — `ensure_ascii` escapes (`\u00e9`, surrogate pairs for non-BMP), keys in
 * code-point order, numbers as Python floats (`repr`), which is what `MessageToDict` makes of
 * `google.protobuf.Struct` numbers, the only numbers of an Agent Card.
 */
export function pythonLegacyJson(value: JsonValue): string {
  if (value === null) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return pythonFloatRepr(value);
  if (typeof value === "string") return pythonString(value);
  if (Array.isArray(value)) return `[${value.map(pythonLegacyJson).join(",")}]`;
  const keys = Object.keys(value).sort(compareCodePoints);
  return `{${keys.map((k) => `${pythonString(k)}:${pythonLegacyJson(value[k]!)}`).join(",")}}`;
}

function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

const PY_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\b": "\\b",
  "\f": "\\f",
};

function pythonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    const code = s.charCodeAt(i);
    const short = PY_ESCAPES[ch];
    if (short !== undefined) out += short;
    else if (code < 0x20 || code > 0x7e)
      out += code === 0x7f ? ch : `\\u${code.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Python's `repr(float(x))`: shortest round-trip digits; fixed notation for 1e-4 ≤ |x| < 1e16 (with ".0" when integral), else `d.ddde±XX`. */
export function pythonFloatRepr(x: number): string {
  if (!Number.isFinite(x)) throw new TypeError(`${x} is not a JSON number`);
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mantissa, exp] = Math.abs(x).toExponential().split("e") as [string, string];
  const digits = mantissa.replace(".", "");
  const e = Number(exp);
  const sign = x < 0 ? "-" : "";
  if (e < -4 || e >= 16) {
    const m = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
    return `${sign}${m}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  }
  if (e < 0) return `${sign}0.${"0".repeat(-e - 1)}${digits}`;
  const intPart = digits.slice(0, e + 1).padEnd(e + 1, "0");
  const frac = digits.slice(e + 1);
  return `${sign}${intPart}.${frac === "" ? "0" : frac}`;
}

/** The payload forms tried, the canonical one first, distinct byte strings only. */
async function payloadForms(
  card: JsonObject,
  schema: DescMessage | undefined,
  legacy: boolean,
): Promise<{ form: AgentCardPayloadForm; text: string }[]> {
  const value = signedValue(card, schema);
  const forms: { form: AgentCardPayloadForm; text: string }[] = [
    { form: "canonical", text: await rfc8785(value) },
  ];
  if (legacy) {
    const add = (form: AgentCardPayloadForm, text: string): void => {
      if (!forms.some((f) => f.text === text)) forms.push({ form, text });
    };
    add("as-served", await rfc8785(withoutSignatures(card)));
    add("python-legacy", pythonLegacyJson(value));
  }
  return forms;
}

// ---------------------------------------------------------------------------------------
// Signing
// ---------------------------------------------------------------------------------------

function isJwk(key: AgentCardKey): key is AgentCardJwk {
  return (
    isObject(key as unknown) &&
    typeof (key as { kty?: unknown }).kty === "string" &&
    !("algorithm" in (key as object)) &&
    !("asymmetricKeyType" in (key as object))
  );
}

const CURVE_ALG: Readonly<Record<string, string>> = {
  "P-256": "ES256",
  "P-384": "ES384",
  "P-521": "ES512",
  prime256v1: "ES256",
  secp384r1: "ES384",
  secp521r1: "ES512",
};

/** The default `alg` of a signing key. */
function defaultAlg(key: AgentCardKey): string {
  if (isJwk(key)) {
    if (typeof key.alg === "string") return key.alg;
    if (key.kty === "EC" && key.crv !== undefined && CURVE_ALG[key.crv] !== undefined)
      return CURVE_ALG[key.crv]!;
    if (key.kty === "OKP" && key.crv === "Ed25519") return "EdDSA";
    if (key.kty === "RSA") return "RS256";
    throw new TypeError(
      `signAgentCard: no signature algorithm for a ${key.kty}${key.crv === undefined ? "" : ` ${key.crv}`} JWK; set options.alg`,
    );
  }
  if ("algorithm" in key) {
    const a = key.algorithm as { name: string; namedCurve?: string; hash?: { name: string } };
    const bits = a.hash?.name.replace(/^SHA-/, "") ?? "256";
    if (a.name === "ECDSA" && a.namedCurve !== undefined && CURVE_ALG[a.namedCurve] !== undefined)
      return CURVE_ALG[a.namedCurve]!;
    if (a.name === "Ed25519") return "EdDSA";
    if (a.name === "RSASSA-PKCS1-v1_5") return `RS${bits}`;
    if (a.name === "RSA-PSS") return `PS${bits}`;
    throw new TypeError(
      `signAgentCard: no signature algorithm for a ${a.name} CryptoKey; set options.alg`,
    );
  }
  const type = key.asymmetricKeyType;
  if (type === "ec") {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve !== undefined && CURVE_ALG[curve] !== undefined) return CURVE_ALG[curve]!;
  }
  if (type === "ed25519") return "EdDSA";
  if (type === "rsa") return "RS256";
  if (type === "rsa-pss") return "PS256";
  throw new TypeError(
    `signAgentCard: no signature algorithm for a ${type ?? key.type} KeyObject; set options.alg`,
  );
}

/** The public JWK of a key (for the default `kid`), private members dropped. */
async function publicJwk(j: Jose, key: AgentCardKey): Promise<AgentCardJwk> {
  const jwk: AgentCardJwk = isJwk(key)
    ? key
    : ((await j.exportJWK(key as Parameters<Jose["exportJWK"]>[0])) as AgentCardJwk);
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, oth: _oth, k: _k, ...pub } = jwk;
  return pub as AgentCardJwk;
}

/**
 * Signs an Agent Card (ProtoJSON, e.g. `toJson(AgentCardSchema, card)`): returns a copy with one
 * more entry in `signatures` — `{ protected, signature[, header] }`, a flattened JWS whose
 * protected header is `{"alg","typ":"JOSE","kid"[,"jku"]}` (§8.4.2) and whose detached payload
 * is the canonical form of the card ({@link canonicalizeAgentCard}). Signatures already present
 * are kept (they cover the same payload: `signatures` is not signed). The card is not modified.
 *
 * Throws a TypeError for a card that is not an object, a symmetric key, or a key whose algorithm
 * cannot be told (set `alg`).
 */
export async function signAgentCard(
  card: JsonObject,
  options: SignAgentCardOptions,
): Promise<JsonObject> {
  const input = asCard(card, "signAgentCard");
  const j = await jose();
  const key = options.key;
  const alg = options.alg ?? defaultAlg(key);
  if (NEVER_ALLOWED.has(alg) || !(DEFAULT_ALGORITHMS as readonly string[]).includes(alg)) {
    throw new TypeError(
      `signAgentCard: alg ${JSON.stringify(alg)} is not an asymmetric JWS signature algorithm (use one of ${DEFAULT_ALGORITHMS.join(", ")})`,
    );
  }
  if (isJwk(key) && (key.kty === "oct" || typeof key["d"] !== "string"))
    throw new TypeError('signAgentCard: the JWK is not a private key (it has no "d")');
  if (!isJwk(key) && key.type !== "private")
    throw new TypeError(`signAgentCard: the key is a ${key.type} key, not a private one`);
  let kid = options.kid;
  if (kid === undefined) {
    const jwk = isJwk(key) ? key : undefined;
    kid =
      typeof jwk?.kid === "string"
        ? jwk.kid
        : await j.calculateJwkThumbprint(
            (await publicJwk(j, key)) as Parameters<Jose["calculateJwkThumbprint"]>[0],
            "sha256",
          );
  }
  const signingKey = isJwk(key)
    ? await j.importJWK(key as Parameters<Jose["importJWK"]>[0], alg)
    : key;
  const protectedHeader: Record<string, string> = { alg, typ: "JOSE", kid };
  if (options.jku !== undefined) protectedHeader["jku"] = options.jku;
  const payload = new TextEncoder().encode(
    await canonicalizeAgentCard(input, { schema: options.schema }),
  );
  const signer = new j.FlattenedSign(payload).setProtectedHeader(protectedHeader);
  if (options.header !== undefined && Object.keys(options.header).length > 0)
    signer.setUnprotectedHeader(
      options.header as Parameters<typeof signer.setUnprotectedHeader>[0],
    );
  const jws = await signer.sign(signingKey as Parameters<typeof signer.sign>[0]);
  const entry: JsonObject = { protected: jws.protected!, signature: jws.signature };
  if (jws.header !== undefined) entry["header"] = jws.header as JsonObject;
  const existing = Array.isArray(input["signatures"]) ? input["signatures"] : [];
  return { ...input, signatures: [...existing, entry] };
}

// ---------------------------------------------------------------------------------------
// Verification
// ---------------------------------------------------------------------------------------

/** A failed signature, thrown inside the per-signature check. */
class SignatureRefused extends Error {
  constructor(
    readonly reason: AgentCardSignatureReason,
    message: string,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

function errorCode(e: unknown): string | undefined {
  return isObject(e as JsonValue) || e instanceof Error
    ? ((e as { code?: unknown }).code as string | undefined)
    : undefined;
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

const ALG_CURVE: Readonly<Record<string, string>> = {
  ES256: "P-256",
  ES384: "P-384",
  ES512: "P-521",
};

/** The key type (`kty`) each algorithm takes. */
function algKty(alg: string): string | undefined {
  if (alg.startsWith("ES")) return "EC";
  if (alg.startsWith("RS") || alg.startsWith("PS")) return "RSA";
  if (alg === "EdDSA" || alg === "Ed25519") return "OKP";
  return undefined;
}

interface KeySource {
  /** The candidate keys for `header`, with how to name them; throws SignatureRefused. */
  candidates(
    header: AgentCardSignatureHeader,
    jws: AgentCardJws,
  ): Promise<
    { key: Parameters<Jose["flattenedVerify"]>[1]; ref: VerifiedAgentCardSignature["key"] }[]
  >;
}

function localKeys(j: Jose, keys: readonly AgentCardJwk[]): KeySource {
  return {
    async candidates(header) {
      const alg = header.alg!;
      const kty = algKty(alg);
      const out: Awaited<ReturnType<KeySource["candidates"]>> = [];
      for (const [index, jwk] of keys.entries()) {
        if (!isObject(jwk as unknown) || typeof jwk.kty !== "string") continue;
        if (header.kid !== undefined && jwk.kid !== undefined && jwk.kid !== header.kid) continue;
        if (jwk.alg !== undefined && jwk.alg !== alg) continue;
        if (jwk.use !== undefined && jwk.use !== "sig") continue;
        if (jwk.kty !== kty) continue;
        if ((alg === "EdDSA" || alg === "Ed25519") && jwk.crv !== "Ed25519" && jwk.crv !== "Ed448")
          continue;
        if (alg.startsWith("ES") && jwk.crv !== ALG_CURVE[alg]) continue;
        let key: Awaited<ReturnType<Jose["importJWK"]>>;
        try {
          key = await j.importJWK(
            (await publicJwk(j, jwk)) as Parameters<Jose["importJWK"]>[0],
            alg,
          );
        } catch {
          continue;
        }
        out.push({ key, ref: { source: "jwk", index, kid: jwk.kid ?? header.kid } });
      }
      if (out.length === 0) {
        throw new SignatureRefused(
          "unknown-key",
          `no key fits kid ${JSON.stringify(header.kid)} and alg ${alg} (${keys.length} key(s) given)`,
        );
      }
      return out;
    },
  };
}

function resolverKeys(resolve: AgentCardKeyResolver, source: "jwks-url" | "resolver"): KeySource {
  return {
    async candidates(header, jws) {
      const ref = { source, kid: header.kid };
      try {
        return [
          { key: (await resolve(header, jws)) as Parameters<Jose["flattenedVerify"]>[1], ref },
        ];
      } catch (e) {
        const code = errorCode(e);
        if (code === "ERR_JWKS_MULTIPLE_MATCHING_KEYS" && Symbol.asyncIterator in (e as object)) {
          const out: Awaited<ReturnType<KeySource["candidates"]>> = [];
          for await (const key of e as AsyncIterable<Parameters<Jose["flattenedVerify"]>[1]>)
            out.push({ key, ref });
          if (out.length > 0) return out;
        }
        if (code === "ERR_JWKS_NO_MATCHING_KEY" || code === "ERR_JWKS_MULTIPLE_MATCHING_KEYS") {
          throw new SignatureRefused(
            "unknown-key",
            `no key of the ${source === "jwks-url" ? "JWK Set" : "key resolver"} fits kid ${JSON.stringify(header.kid)} and alg ${header.alg}`,
            e,
          );
        }
        if (code === "ERR_JOSE_NOT_SUPPORTED")
          throw new SignatureRefused("disallowed-algorithm", describe(e), e);
        if (source === "jwks-url" || code === "ERR_JWKS_TIMEOUT" || code === "ERR_JWKS_INVALID") {
          throw new SignatureRefused(
            "jwks-unreachable",
            `the JWK Set could not be fetched: ${describe(e)}`,
            e,
          );
        }
        throw new SignatureRefused(
          "unknown-key",
          `the key resolver found no key for kid ${JSON.stringify(header.kid)}: ${describe(e)}`,
          e,
        );
      }
    },
  };
}

function keySource(j: Jose, keys: AgentCardVerificationKeys): KeySource {
  if (typeof keys === "function") return resolverKeys(keys, "resolver");
  if (Array.isArray(keys)) return localKeys(j, keys as readonly AgentCardJwk[]);
  const k = keys as Exclude<
    AgentCardVerificationKeys,
    AgentCardKeyResolver | readonly AgentCardJwk[]
  >;
  if ("jwksUrl" in k && (typeof k.jwksUrl === "string" || k.jwksUrl instanceof URL)) {
    const { jwksUrl, timeoutMs, headers } = k as {
      readonly jwksUrl: string | URL;
      readonly timeoutMs?: number | undefined;
      readonly headers?: Readonly<Record<string, string>> | undefined;
    };
    const remote = j.createRemoteJWKSet(new URL(jwksUrl), {
      ...(timeoutMs === undefined ? {} : { timeoutDuration: timeoutMs }),
      ...(headers === undefined ? {} : { headers: { ...headers } }),
    });
    return resolverKeys(remote as unknown as AgentCardKeyResolver, "jwks-url");
  }
  if ("keys" in k && Array.isArray(k.keys)) return localKeys(j, k.keys);
  if (typeof (k as AgentCardJwk).kty === "string") return localKeys(j, [k as AgentCardJwk]);
  throw new TypeError(
    "verifyAgentCard: keys must be a JWK, a list of JWKs, a JWK Set, { jwksUrl } or a key resolver function",
  );
}

function decodeHeader(j: Jose, protectedB64: string): AgentCardSignatureHeader {
  let header: unknown;
  try {
    header = JSON.parse(
      new TextDecoder("utf-8", { fatal: true }).decode(j.base64url.decode(protectedB64)),
    );
  } catch (e) {
    throw new SignatureRefused(
      "malformed",
      `its protected header is not base64url-encoded JSON: ${describe(e)}`,
      e,
    );
  }
  if (!isObject(header as JsonValue))
    throw new SignatureRefused("malformed", "its protected header is not a JSON object");
  // PyJWT writes the parameters it was given, `"kid": null` / `"jku": null` included: read them as absent.
  const { kid, jku, ...rest } = header as JsonObject;
  return {
    ...rest,
    ...(kid === null ? {} : { kid }),
    ...(jku === null ? {} : { jku }),
  } as AgentCardSignatureHeader;
}

/**
 * Verifies the signatures of an Agent Card (ProtoJSON, as received) — §8.4.3: each entry of
 * `signatures` is a flattened JWS over the card's canonical form (see the module documentation
 * for the form and the other accepted forms), checked with `options.keys`. With `require: "any"`
 * (default) the first signature that verifies is enough; with `"all"` every one must.
 *
 * Resolves with the verified signatures (which key, which payload form); rejects with an
 * {@link AgentCardSignatureError}: "unsigned" (no signatures), or the reason of the first refused
 * signature ("malformed", "disallowed-algorithm", "unknown-key", "bad-signature",
 * "jwks-unreachable"), all of them in `failures`.
 */
export async function verifyAgentCard(
  card: JsonObject,
  options: VerifyAgentCardOptions,
): Promise<AgentCardVerification> {
  const input = asCard(card, "verifyAgentCard");
  const signatures = input["signatures"];
  if (signatures === undefined || (Array.isArray(signatures) && signatures.length === 0)) {
    throw new AgentCardSignatureError(
      "unsigned",
      "the agent card is not signed (it has no signatures)",
    );
  }
  if (!Array.isArray(signatures))
    throw new AgentCardSignatureError("malformed", "the agent card's signatures is not a list");
  const j = await jose();
  const allowed = (options.algorithms ?? DEFAULT_ALGORITHMS).filter((a) => !NEVER_ALLOWED.has(a));
  const source = keySource(j, options.keys);
  const forms = await payloadForms(input, options.schema, options.legacyForms ?? true);
  const requireAll = options.require === "all";
  const verified: VerifiedAgentCardSignature[] = [];
  const failures: AgentCardSignatureFailure[] = [];
  for (const [index, entry] of signatures.entries()) {
    let header: AgentCardSignatureHeader | undefined;
    try {
      if (
        !isObject(entry) ||
        typeof entry["protected"] !== "string" ||
        typeof entry["signature"] !== "string"
      ) {
        throw new SignatureRefused(
          "malformed",
          "it is not an object with string `protected` and `signature`",
        );
      }
      if (entry["header"] !== undefined && !isObject(entry["header"]))
        throw new SignatureRefused("malformed", "its `header` is not a JSON object");
      header = decodeHeader(j, entry["protected"]);
      const alg = header.alg;
      if (typeof alg !== "string" || alg === "")
        throw new SignatureRefused("malformed", "its protected header has no `alg`");
      if (header.kid !== undefined && typeof header.kid !== "string")
        throw new SignatureRefused("malformed", "its protected header's `kid` is not a string");
      if (header.crit !== undefined)
        throw new SignatureRefused(
          "malformed",
          `its protected header names critical extensions ${JSON.stringify(header.crit)}, which are not supported`,
        );
      if (NEVER_ALLOWED.has(alg) || !allowed.includes(alg)) {
        throw new SignatureRefused(
          "disallowed-algorithm",
          `alg ${JSON.stringify(alg)} is not allowed (allowed: ${allowed.join(", ")}; none and HMAC never are)`,
        );
      }
      const unprotected = entry["header"] as JsonObject | undefined;
      const jwsOf = (text: string): AgentCardJws => ({
        payload: j.base64url.encode(text),
        protected: entry["protected"] as string,
        signature: entry["signature"] as string,
        ...(unprotected === undefined ? {} : { header: unprotected }),
      });
      const candidates = await source.candidates(header, jwsOf(forms[0]!.text));
      let done: VerifiedAgentCardSignature | undefined;
      let lastError: unknown;
      let keyFitted = false;
      search: for (const candidate of candidates) {
        for (const form of forms) {
          try {
            await j.flattenedVerify(
              jwsOf(form.text) as Parameters<Jose["flattenedVerify"]>[0],
              candidate.key,
              { algorithms: allowed },
            );
            done = {
              index,
              protectedHeader: header,
              alg,
              kid: header.kid,
              key: candidate.ref,
              form: form.form,
            };
            break search;
          } catch (e) {
            const code = errorCode(e);
            if (code === "ERR_JWS_INVALID") throw new SignatureRefused("malformed", describe(e), e);
            if (code === "ERR_JOSE_ALG_NOT_ALLOWED" || code === "ERR_JOSE_NOT_SUPPORTED")
              throw new SignatureRefused("disallowed-algorithm", describe(e), e);
            lastError = e;
            if (code !== "ERR_JWS_SIGNATURE_VERIFICATION_FAILED") break; // the key does not fit the alg: next key
            keyFitted = true;
          }
        }
      }
      if (done === undefined) {
        if (!keyFitted)
          throw new SignatureRefused(
            "unknown-key",
            `no key given is usable for alg ${alg}: ${describe(lastError)}`,
            lastError,
          );
        throw new SignatureRefused(
          "bad-signature",
          "the signature does not match the card (changed after signing, or signed with another key)",
          lastError,
        );
      }
      verified.push(done);
      if (!requireAll) break;
    } catch (e) {
      if (!(e instanceof SignatureRefused)) throw e;
      failures.push({
        index,
        reason: e.reason,
        message: e.message,
        kid: typeof header?.kid === "string" ? header.kid : undefined,
        alg: typeof header?.alg === "string" ? header.alg : undefined,
      });
    }
  }
  if (verified.length === 0 || (requireAll && failures.length > 0)) {
    const first = failures[0]!;
    const lines = failures.map(
      (f) =>
        `signatures[${f.index}]${f.kid === undefined ? "" : ` (kid ${JSON.stringify(f.kid)})`}: ${f.message}`,
    );
    const what =
      requireAll && verified.length > 0
        ? `${failures.length} of ${signatures.length} agent card signature(s) did not verify`
        : `no agent card signature verified`;
    throw new AgentCardSignatureError(first.reason, `${what} — ${lines.join("; ")}`, { failures });
  }
  return { verified, signatureCount: signatures.length };
}

/**
 * For `connectAgent`'s `verifyCard`: verifies a fetched card (JSON) or a card passed in (a message
 * of `schema`, written with `toJson`) with the schema's proto normalization; a refusal is thrown
 * as `fail(message, error)`.
 */
export async function verifyCardForConnection(
  card: unknown,
  schema: DescMessage,
  options: VerifyAgentCardOptions,
  fail: (message: string, cause: AgentCardSignatureError) => Error,
): Promise<AgentCardVerification> {
  try {
    const json =
      isObject(card as JsonValue) && typeof (card as { $typeName?: unknown }).$typeName === "string"
        ? toJson(schema, card as Parameters<typeof toJson>[1])
        : card;
    return await verifyAgentCard(asCard(json, "verifyCard"), { schema, ...options });
  } catch (e) {
    if (!(e instanceof AgentCardSignatureError)) throw e;
    throw fail(`failed signature verification (${e.reason}): ${e.message}`, e);
  }
}
