// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Every outcome other than "passed" that the official A2A TCK (a2aproject/a2a-tck, branch
 * 1.0-dev, commit 357c4a8; it pins spec v1.0.0) is expected to produce against the example agent,
 * with the reason. `npm run tck` (scripts/tck.mjs, verdict in scripts/tck/results.mjs) checks each
 * test of its run against this list: an unlisted non-pass, or one listed with another result or a
 * message the pattern does not match, is an unexpected outcome; a listed one that passes now (or no
 * longer runs) is a stale expectation. Both fail the run. Nothing here is skipped because of what
 * the agent does with a message: those skips would be failures.
 *
 * Keyed by the TCK's requirement id (as its reports name it; the pytest test name when the test
 * has none), then the transports (`card` for the Agent Card tests), the profile of the run
 * ("tck": the agent's TCK profile on code generated with errors=v1.0.0; "default": the agent as
 * `npm run example` starts it, v1.0.1) and, where a requirement has several tests, the test.
 *
 * Spec citations: "v1.0.0" is the TCK's specification/specification.md (the v1.0.0 tag),
 * "v1.0.1" the one this repository implements (../shared/spec/specification.md).
 */

/** A binding of the TCK, or `card` (the transport-independent Agent Card tests). */
export type TckTransport = "jsonrpc" | "http_json" | "grpc" | "card" | "any";

/** A profile of the run: the agent's TCK profile (v1.0.0 code), or its default one (v1.0.1). */
export type TckProfile = "tck" | "default" | "tck:capabilities-off" | "default:capabilities-off";

/** One expected non-pass. */
export interface TckExpectedOutcome {
  /** pytest's outcome: failed, skipped, or xfailed (a SHOULD/MAY test that did not hold). */
  readonly result: "failed" | "skipped" | "xfailed";
  /** The transports it happens on (each must see it, else the entry is stale there). */
  readonly transports: readonly TckTransport[];
  /** The pytest test function (without parameters), when the requirement has several tests. */
  readonly test?: string;
  /** The runs it happens in (default: the two main runs, "tck" and "default"; their capabilities-off reruns only when named: "tck:capabilities-off", "default:capabilities-off"). */
  readonly profiles?: readonly TckProfile[];
  /** A pattern the failure or skip message must match. */
  readonly message: RegExp;
  /** Why: a spec contradiction (citing both texts), a TCK defect, or a capability question. */
  readonly reason: string;
}

const BINDINGS = ["jsonrpc", "http_json", "grpc"] as const;

/** The reason of the capability-negative tests, which only an agent without the capability can run. */
const declares = (capability: string, acts: string) =>
  `Capability-negative test: it runs only against an agent whose card does not declare ${capability}, and skips otherwise; the example agent declares it. Not an agent behaviour: npm run tck runs every such skipped test again against the same agent with no optional capability (A2A_CAPABILITIES=none, the run "<profile>:capabilities-off"), where it must pass (also ${acts}).`;

/** Why the default (v1.0.1) agent refuses the TCK's webhook on localhost. */
const SSRF =
  'Default profile only: the TCK registers its webhook receiver on localhost, and the default agent refuses loopback and private webhook URLs at creation (spec §13.2: Agents SHOULD validate webhook URLs to prevent SSRF: "Reject private IP ranges (127.0.0.0/8, …)", "Reject localhost and link-local addresses"), with InvalidParams naming the field. The TCK profile allows them (allowPrivateWebhooks) and passes the test.';

/** Why the default agent answers HTTP+JSON with application/a2a+json. */
const A2A_JSON =
  'v1.0.0 vs v1.0.1 (default profile only): the TCK follows v1.0.0 §11.1 "Content-Type: `application/json` for requests and responses"; v1.0.1 §11.1 says "Content-Type: application/a2a+json SHOULD be used for requests and responses" (and its §11.6 error example is application/a2a+json), which the default agent does. The TCK profile answers application/json (the REST server\'s responseContentType) and passes.';

export const TCK_EXPECTED_OUTCOMES: Readonly<Record<string, readonly TckExpectedOutcome[]>> = {
  // --- v1.0.0 (the TCK's pin) vs v1.0.1 (the default agent) ------------------------------------
  "PUSH-DELIVER-001": [
    {
      result: "skipped",
      transports: BINDINGS,
      profiles: ["default"],
      message: /Webhook host localhost is not allowed$/,
      reason: SSRF,
    },
  ],
  "PUSH-DELIVER-002": [
    {
      result: "skipped",
      transports: BINDINGS,
      profiles: ["default"],
      message: /Webhook host localhost is not allowed$/,
      reason: SSRF,
    },
  ],
  "PUSH-DELIVER-003": [
    {
      result: "skipped",
      transports: BINDINGS,
      profiles: ["default"],
      message: /Webhook host localhost is not allowed$/,
      reason: SSRF,
    },
  ],
  "HTTP_JSON-SVC-001": [
    {
      result: "failed",
      transports: ["http_json"],
      test: "test_response_content_type",
      profiles: ["default"],
      message: /Expected Content-Type application\/json, got: 'application\/a2a\+json'/,
      reason: A2A_JSON,
    },
  ],
  "HTTP_JSON-ERR-001": [
    {
      result: "failed",
      transports: ["http_json"],
      test: "test_error_uses_aip193_format",
      profiles: ["default"],
      message: /Error Content-Type must be application\/json, got: 'application\/a2a\+json'/,
      reason: A2A_JSON,
    },
    {
      result: "failed",
      transports: ["http_json"],
      test: "test_error_content_type",
      profiles: ["default"],
      message: /Error Content-Type must be application\/json, got: 'application\/a2a\+json'/,
      reason: A2A_JSON,
    },
  ],
  // --- TCK defects -----------------------------------------------------------------------------
  "CORE-SEND-003": [
    {
      result: "failed",
      transports: BINDINGS,
      message:
        /Operation failed: (\[41[05]\] |\[400\] )?This agent accepts text\/plain only, not application\/x-unsupported-tck-type/,
      reason:
        'TCK defect: the requirement has no expected_error, so test_must_requirement asserts that the SendMessage SUCCEEDS, while its own description (spec v1.0.0 and v1.0.1 §3.1.1: "A Media Type provided in the request\'s message parts that is not supported by the agent MUST result in ContentTypeNotSupportedError") requires the error. The agent returns exactly that error (JSON-RPC -32005; HTTP 415 with errors=v1.0.0, 400 with v1.0.1; gRPC INVALID_ARGUMENT), as the failure message shows.',
    },
  ],
  "CORE-MULTI-002a": [
    {
      result: "failed",
      transports: BINDINGS,
      message:
        /Operation failed: (\[400\] )?message\.contextId "tck-client-context-rejected-[0-9a-f]+" is not a context of this agent/,
      reason:
        'TCK defect: no expected_error, so the runner asserts success, while the description (spec §3.4.1, both versions: "If an agent cannot accept a client-provided contextId, it MUST reject the request with an error and MUST NOT generate a new contextId for the response") requires an error. The agent rejects the unknown contextId with InvalidParamsError and creates nothing, as the message shows.',
    },
  ],
  "CARD-EXT-001": [
    {
      result: "failed",
      transports: BINDINGS,
      message: /Operation failed: (\[401\] )?The extended agent card requires authentication/,
      reason:
        'TCK limitation: the test calls GetExtendedAgentCard without credentials (the TCK has A2A_AUTH_* settings but never reads them), while spec §3.1.11 (both versions) says "The client MUST authenticate the request using one of the schemes declared in the public AgentCard.securitySchemes". The agent answers an unauthenticated call with Unauthenticated (HTTP 401 with WWW-Authenticate, gRPC UNAUTHENTICATED), and serves the extended card to a bearer token allowed to read it (test/e2e/example-agent/example-agent.test.ts, ACTS CARD-EXT tests).',
    },
  ],
  "CARD-EXT-002": [
    {
      result: "failed",
      transports: BINDINGS,
      message: /Operation failed: (\[401\] )?The extended agent card requires authentication/,
      reason:
        'TCK defect: no expected_error, so the runner asserts success, while the description (spec §3.3.4: "If the agent declares support but has not configured an extended card, it MUST return ExtendedAgentCardNotConfiguredError") requires an error; and it sends no credentials (as CARD-EXT-001). The example agent has an extended card configured, so the error case does not apply; the unauthenticated call gets Unauthenticated.',
    },
  ],
  test_should_requirement: [
    {
      result: "skipped",
      transports: BINDINGS,
      message: /^No requirements at this level$/,
      reason:
        "TCK structure: test_should_requirement is parametrized over the SHOULD requirements that have a sample input; at this commit there are none, so pytest runs its placeholder, which skips on every transport. Nothing to test.",
    },
  ],
  "CARD-STRUCT-001": [
    {
      result: "failed",
      transports: ["card"],
      message:
        /'additionalInterfaces', 'preferredTransport', 'protocolVersion', 'supportsAuthenticatedExtendedCard', 'url' do not match any of the regexes/,
      reason:
        'TCK defect: the test fetches the Agent Card without A2A-Version, which spec §3.6 (both versions) reads as a 0.3 client ("Clients MUST send the A2A-Version header with each request … except for 0.3 Clients - 0.3 will be assumed for empty header"), so the agent, which serves 0.3 beside 1.0, answers the hybrid card: the 1.0 card plus the 0.3 top-level fields (url, preferredTransport, additionalInterfaces, protocolVersion, supportsAuthenticatedExtendedCard) and, in each securitySchemes entry, the 0.3 OpenAPI keys (type, scheme, …) beside the 1.0 oneof member. The TCK then validates it against a 1.0 schema that forbids unknown keys, while §5.7 says "Implementations SHOULD ignore unrecognized fields". With `A2A-Version: 1.0` the agent serves the pure 1.0 card (test/e2e/v0_3/serving.test.ts), and 1.0 readers of the hybrid card read the 1.0 card it also is.',
    },
  ],
  "BIND-FIELD-001": [
    {
      result: "skipped",
      transports: ["card"],
      message: /^Agent card declares unknown protocol bindings: /,
      reason:
        'TCK limitation: the test skips any card that lists a protocolBinding other than JSONRPC, GRPC and HTTP+JSON. Spec §5.8 (both versions): "Custom protocol bindings SHOULD be identified by a URI", and §12 lets implementers add them: the card lists gRPC-web, Connect and A2A over WebSocket by URI, after the three core bindings. What the test would assert (at least one binding declared) holds; CARD-PROTO-001/002 check the interfaces.',
    },
  ],
  // --- Capability questions --------------------------------------------------------------------
  "CORE-MULTI-002": [
    {
      result: "xfailed",
      transports: BINDINGS,
      message:
        /message\.contextId "tck-client-context-001-[0-9a-f]+" is not a context of this agent/,
      reason:
        'A MAY the agent does not take: spec §3.4.1 "Agents MAY accept and preserve client-provided contextId values". The example agent accepts only contextIds it issued (clientContextIds: "known"), so a client cannot open or guess another conversation by naming it, and rejects others with an error: the CORE-MULTI-002a branch.',
    },
  ],
  "CORE-CAP-001": [
    {
      result: "skipped",
      transports: ["jsonrpc", "http_json"],
      message: /^Agent supports push notifications$/,
      reason: declares(
        "pushNotifications",
        "ACTS CORE-CAP-001 / PUSH-CFG-004 (PushNotificationNotSupportedError, test/conformance/acts.test.ts)",
      ),
    },
  ],
  "CORE-CAP-002": [
    {
      result: "skipped",
      transports: ["jsonrpc"],
      message: /^Agent supports streaming$/,
      reason: declares(
        "streaming",
        "ACTS CORE-CAP-002 (UnsupportedOperationError) and test/e2e/example-agent/example-agent.test.ts",
      ),
    },
  ],
  "CORE-CAP-003": [
    {
      result: "skipped",
      transports: ["jsonrpc"],
      message: /^Agent supports extended agent card$/,
      reason: declares("extendedAgentCard", "ACTS CORE-CAP-003 (UnsupportedOperationError)"),
    },
  ],
  "CORE-CAP-004": [
    {
      result: "skipped",
      transports: ["jsonrpc", "http_json"],
      message: /^Agent card does not declare urn:a2a:tck:required-extension as required$/,
      reason:
        "The test needs a card that marks the TCK's extension urn:a2a:tck:required-extension required; the example agent requires no extension. Declaring it would make every other TCK request fail with ExtensionSupportRequiredError, since the TCK sends no A2A-Extensions on them. The runtime's requiredExtensions check is tested in runtime/src/testing and test/plugin/model/error-catalog.test.ts.",
    },
  ],
  "GRPC-ERR-002": [
    {
      result: "failed",
      transports: ["grpc"],
      test: "test_unsupported_operation_returns_unimplemented",
      profiles: ["default:capabilities-off"],
      message: /expected UnsupportedOperationError \(UNIMPLEMENTED\), got FAILED_PRECONDITION/,
      reason:
        "v1.0.0 vs v1.0.1 (the default agent with streaming off): the §5.4 error table maps UnsupportedOperationError to gRPC `UNIMPLEMENTED` in v1.0.0 and to `FAILED_PRECONDITION` in v1.0.1, which the default agent follows. The TCK profile (errors=v1.0.0) passes it.",
    },
    {
      result: "failed",
      transports: ["grpc"],
      test: "test_push_not_supported_returns_unimplemented",
      profiles: ["default:capabilities-off"],
      message:
        /expected PushNotificationNotSupportedError \(UNIMPLEMENTED\), got FAILED_PRECONDITION/,
      reason:
        "v1.0.0 vs v1.0.1 (the default agent with push notifications off): the §5.4 error table maps PushNotificationNotSupportedError to gRPC `UNIMPLEMENTED` in v1.0.0 and to `FAILED_PRECONDITION` in v1.0.1, which the default agent follows. The TCK profile (errors=v1.0.0) passes it.",
    },
    {
      result: "failed",
      transports: ["grpc"],
      test: "test_version_not_supported_returns_unimplemented",
      profiles: ["default"],
      message: /expected VersionNotSupportedError \(UNIMPLEMENTED\), got FAILED_PRECONDITION/,
      reason:
        "v1.0.0 vs v1.0.1 (default profile only): the §5.4 error table maps VersionNotSupportedError to gRPC `UNIMPLEMENTED` in v1.0.0 and to `FAILED_PRECONDITION` in v1.0.1, which the default agent follows. The TCK profile's code is generated with errors=v1.0.0 and passes.",
    },
    {
      result: "skipped",
      transports: ["grpc"],
      test: "test_unsupported_operation_returns_unimplemented",
      message: /^Agent supports streaming; cannot trigger UnsupportedOperationError$/,
      reason: declares("streaming", "ACTS CORE-CAP-002 on gRPC"),
    },
    {
      result: "skipped",
      transports: ["grpc"],
      test: "test_push_not_supported_returns_unimplemented",
      message: /^Agent supports push notifications; cannot trigger error$/,
      reason: declares("pushNotifications", "ACTS CORE-CAP-001 on gRPC"),
    },
  ],
  "HTTP_JSON-STATUS-001": [
    {
      result: "failed",
      transports: ["http_json"],
      test: "test_content_type_not_supported_returns_415",
      profiles: ["default"],
      message: /expected ContentTypeNotSupportedError \(415\), got 400/,
      reason:
        "v1.0.0 vs v1.0.1 (default profile only): the §5.4 error table maps ContentTypeNotSupportedError to HTTP `415 Unsupported Media Type` in v1.0.0 and to `400 Bad Request` in v1.0.1 (every status consistent with its google.rpc.Code, INVALID_ARGUMENT), which the default agent follows. The TCK profile's code is generated with errors=v1.0.0 and passes.",
    },
    {
      result: "skipped",
      transports: ["http_json"],
      test: "test_unsupported_operation_returns_400",
      message: /^Agent supports streaming; cannot trigger UnsupportedOperationError$/,
      reason: declares("streaming", "ACTS CORE-CAP-002 on HTTP+JSON"),
    },
    {
      result: "skipped",
      transports: ["http_json"],
      test: "test_push_not_supported_returns_400",
      message: /^Agent supports push notifications; cannot trigger error$/,
      reason: declares("pushNotifications", "ACTS CORE-CAP-001 on HTTP+JSON"),
    },
  ],
  "JSONRPC-SSE-002": [
    {
      result: "skipped",
      transports: ["jsonrpc"],
      test: "test_push_notification_not_supported_error",
      message: /^Agent supports push notifications; cannot trigger -32003$/,
      reason: declares("pushNotifications", "ACTS CORE-CAP-001 on JSON-RPC"),
    },
    {
      result: "skipped",
      transports: ["jsonrpc"],
      test: "test_unsupported_operation_error",
      message: /^Agent supports streaming; cannot trigger -32004$/,
      reason: declares("streaming", "ACTS CORE-CAP-002 on JSON-RPC"),
    },
  ],
};
