/**
 * Every ACTS outcome other than "pass" that the conformance run is expected to produce,
 * with the reason. `test/conformance/acts.test.ts` asserts each (test, binding, client)
 * against this list: an unlisted test must pass (or be skipped because it does not apply:
 * transport filter, or a capability precondition that no agent profile meets), a listed one
 * must end exactly as listed: the same result, at the same step, with a failure message (or
 * skip reason) matching the pattern. So a fix shows up as a failing test until the entry is
 * removed, and neither a new failure nor the same test failing for another reason can hide.
 */
import type { Binding } from "../support/acts/client.js";
import type { Outcome } from "../support/acts/runner.js";

export interface ExpectedOutcome {
  readonly result: Exclude<Outcome, "pass">;
  /** The step the test fails at (for "fail"/"error" of a step; absent: a test-level failure or a skip). */
  readonly step?: string;
  /** A pattern the failure message (or the skip reason) must match. */
  readonly message: RegExp;
  /** Bindings this applies to (default: all). */
  readonly bindings?: readonly Binding[];
  /** Client implementations this applies to (default: all). */
  readonly implementations?: readonly string[];
  /** Why, and which reading of the spec we took. */
  readonly reason: string;
}

export const EXPECTED_OUTCOMES: Readonly<Record<string, readonly ExpectedOutcome[]>> = {
  "VER-NEG-002": [
    {
      result: "fail",
      step: "send-without-version",
      message:
        /^got error VersionNotSupportedError "A2A protocol version 0\.3 \(no A2A-Version given\) is not supported; supported versions: 1\.0": result\.task\.id: type "string": got missing$/,
      bindings: ["jsonrpc"],
      reason:
        'ACTS (should) expects a request without A2A-Version to succeed "using the server\'s default version behavior"; spec §3.6 says "Agents MUST interpret empty value as 0.3 version" (clients other than 0.3 ones MUST send the header). The example agent serves 1.0 only, so a request without the header is a 0.3 request and gets VersionNotSupportedError (-32009). We follow the spec (issue #17); an agent that wants the other behaviour sets `versionWhenMissing: "1.0"`.',
    },
  ],
  "CARD-DISC-002": [
    {
      result: "fail",
      step: "step-1",
      message:
        /^supportedInterfaces\[1\]\.protocolBinding: one_of \["JSONRPC","GRPC","REST"\]: got "HTTP\+JSON" \(\+4 more: supportedInterfaces\[3\]\.protocolBinding: one_of \["JSONRPC","GRPC","REST"\]: got "https:\/\/github\.com\/grpc\/grpc\/blob\/master\/doc\/PROTOCOL-WEB\.md"; supportedInterfaces\[4\]\.protocolBinding: one_of \["JSONRPC","GRPC","REST"\]: got "https:\/\/connectrpc\.com\/docs\/protocol\/"; supportedInterfaces\[5\]\.protocolBinding: one_of \["JSONRPC","GRPC","REST"\]: got "https:\/\/protoc-gen-a2a\.github\.io\/bindings\/websocket\/v1"\)$/,
      reason:
        'ACTS allows protocolBinding JSONRPC | GRPC | REST; A2A v1.0.1 names the HTTP+JSON binding "HTTP+JSON" (spec §5.5, §8.5 and the AgentInterface.protocol_binding comment in a2a.proto), which our card declares, and identifies custom bindings by URI (§5.8, §12.7): the card lists gRPC-web and Connect (the Connect routes on the HTTP port) and A2A over WebSocket (generated-example/bindings/ws/) that way. We follow the spec. The fourth "more" is the HTTP+JSON interface of A2A 0.3 (one interface per version, spec §3.6), listed after the 1.0 ones.',
    },
  ],
  "CORE-CAP-001": [
    {
      result: "fail",
      step: "set-config",
      message:
        /error\.type: expected "UnsupportedOperationError", got "PushNotificationNotSupportedError"$/,
      reason:
        "ACTS wants UnsupportedOperationError for a push config on an agent without the pushNotifications capability; spec §3.1.7 and §3.3.4 name PushNotificationNotSupportedError (-32003) for exactly this case. We follow the spec (run against the minimal-capabilities agent).",
    },
  ],
  "PUSH-CFG-004": [
    {
      result: "fail",
      step: "set-config",
      message:
        /error\.type: expected "UnsupportedOperationError", got "PushNotificationNotSupportedError"$/,
      reason:
        "Same contradiction as CORE-CAP-001 (ACTS UnsupportedOperationError vs spec §3.3.4 PushNotificationNotSupportedError). We follow the spec.",
    },
  ],
  "CORE-ERR-007": [
    {
      result: "fail",
      step: "get-missing-structured",
      message: /^error TaskNotFoundError "[^"]*": error\.details: type "object": got array$/,
      reason:
        "ACTS asserts error data of type object; spec §9.5 / §11.6 / §10.6 carry google.rpc details as an ARRAY of Any (ErrorInfo first), which ACTS's own CORE-ERR-008 and JSONRPC-ERR-003 (must) require. The suite contradicts itself; we follow the spec and the must tests.",
    },
  ],
  "DM-FMT-003": [
    {
      result: "fail",
      step: "send",
      message: /^message\.contextId: absent true: got "[0-9a-f-]{36}"$/,
      reason:
        "ACTS (should) wants a Message reply without contextId; the task runtime generates a contextId for every new interaction and spec §3.4.1 says a generated contextId MUST be included in the response. We follow the spec.",
    },
  ],
  "DM-ART-003": [
    {
      result: "fail",
      step: "send",
      message:
        /^assertion: task\.artifacts\[\*\]\.parts\[\*\]: no element matched: .*\{"file":\{"name"/,
      reason:
        "ACTS (should) looks for the v0.3 part shape file: {name, mediaType}; in A2A v1.0 a file is a Part with `raw` (or `url`) plus `filename` and `mediaType` (a2a.proto Part, whats-new-v1.md), which is what tck-artifact-file returns.",
    },
  ],
  "DM-ART-004": [
    {
      result: "fail",
      step: "send",
      message:
        /^assertion: task\.artifacts\[\*\]\.parts\[\*\]: no element matched: .*\{"fileUrl":\{"url"/,
      reason:
        "ACTS (may) looks for the v0.3 part shape fileUrl: {url, name}; in A2A v1.0 it is a Part with `url`, `filename`, `mediaType`, which is what tck-artifact-file-url returns.",
    },
  ],
  "REST-PD-001": [
    {
      result: "fail",
      step: "get-missing-problem",
      message:
        /^got error TaskNotFoundError "[^"]*": type: type "string": got missing \(\+2 more: title: type "string": got missing; status: type "number": got missing\)$/,
      bindings: ["rest"],
      reason:
        "ACTS (should) wants RFC 9457 problem details {type, title, status}; spec §11.6 (v1.0.1) specifies the google.rpc.Status body {error: {code, status, message, details}}. CHECKLIST K3: the spec contradicts itself (§6.4/§6.5 examples); we implement §11.6.",
    },
  ],
  "SEC-AUTH-006": [
    {
      result: "fail",
      bindings: ["rest"],
      step: "get-agent-card-without-auth",
      message:
        /^any_of \[\{"title":\{"type":"string"\}\},\{"error":\{"exists":true\}\}\]: no alternative passed/,
      reason:
        "ACTS (should) fetches the public Agent Card without credentials and wants either a refusal or a problem-details body (`error` or `title`); the card is public discovery (spec §8.2, §13.3: only the extended card needs authentication), so the secured agent answers 200 with the card. The binding-appropriate challenge the test is about is checked where it applies: SEC-AUTH-001 asserts 401 with WWW-Authenticate for an operation without credentials.",
    },
  ],
  "SEC-PUSH-002": [
    {
      result: "skip",
      implementations: ["@a2a-js/sdk"],
      message: /^runner-special: this client implementation has no webhook receiver/,
      reason:
        "The test is about the client's webhook receiver (§13.2 \"Clients MUST validate webhook authenticity\"); @a2a-js/sdk 1.3.0 has none, so the claim cannot be checked for it (a gap, reported as such). Our client's receiver (createPushNotificationReceiver) is checked.",
    },
  ],
};
