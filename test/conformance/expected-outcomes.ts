/**
 * Every ACTS outcome other than "pass" that the conformance run is expected to produce,
 * with the reason. `test/acts-conformance.test.ts` asserts each (test, binding, client)
 * against this list: an unlisted test must pass (or be skipped because it does not apply:
 * transport filter, or a capability precondition that neither agent profile meets), a
 * listed one must end exactly as listed. So a fix shows up as a failing test until the
 * entry is removed, and a new failure can never hide.
 */
import type { Binding } from "../support/acts/client.js";
import type { Outcome } from "../support/acts/runner.js";

export interface ExpectedOutcome {
  readonly result: Exclude<Outcome, "pass">;
  /** Bindings this applies to (default: all). */
  readonly bindings?: readonly Binding[];
  /** Client implementations this applies to (default: all). */
  readonly implementations?: readonly string[];
  /** Why, and which reading of the spec we took. */
  readonly reason: string;
}

export const EXPECTED_OUTCOMES: Readonly<Record<string, readonly ExpectedOutcome[]>> = {
  "CARD-DISC-002": [
    {
      result: "fail",
      reason:
        "ACTS allows protocolBinding JSONRPC | GRPC | REST; A2A v1.0.1 names the HTTP+JSON binding \"HTTP+JSON\" (spec §5.5, §8.5 and the AgentInterface.protocol_binding comment in a2a.proto), which our card declares. We follow the spec.",
    },
  ],
  "CORE-CAP-001": [
    {
      result: "fail",
      reason:
        "ACTS wants UnsupportedOperationError for a push config on an agent without the pushNotifications capability; spec §3.1.7 and §3.3.4 name PushNotificationNotSupportedError (-32003) for exactly this case. We follow the spec (run against the minimal-capabilities agent).",
    },
  ],
  "PUSH-CFG-004": [
    {
      result: "fail",
      reason: "Same contradiction as CORE-CAP-001 (ACTS UnsupportedOperationError vs spec §3.3.4 PushNotificationNotSupportedError). We follow the spec.",
    },
  ],
  "CORE-ERR-007": [
    {
      result: "fail",
      reason:
        "ACTS asserts error data of type object; spec §9.5 / §11.6 / §10.6 carry google.rpc details as an ARRAY of Any (ErrorInfo first), which ACTS's own CORE-ERR-008 and JSONRPC-ERR-003 (must) require. The suite contradicts itself; we follow the spec and the must tests.",
    },
  ],
  "DM-FMT-003": [
    {
      result: "fail",
      reason:
        "ACTS (should) wants a Message reply without contextId; the task runtime generates a contextId for every new interaction and spec §3.4.1 says a generated contextId MUST be included in the response. We follow the spec.",
    },
  ],
  "DM-ART-003": [
    {
      result: "fail",
      reason:
        "ACTS (should) looks for the v0.3 part shape file: {name, mediaType}; in A2A v1.0 a file is a Part with `raw` (or `url`) plus `filename` and `mediaType` (a2a.proto Part, whats-new-v1.md), which is what tck-artifact-file returns.",
    },
  ],
  "DM-ART-004": [
    {
      result: "fail",
      reason:
        "ACTS (may) looks for the v0.3 part shape fileUrl: {url, name}; in A2A v1.0 it is a Part with `url`, `filename`, `mediaType`, which is what tck-artifact-file-url returns.",
    },
  ],
  "REST-PD-001": [
    {
      result: "fail",
      bindings: ["rest"],
      reason:
        "ACTS (should) wants RFC 9457 problem details {type, title, status}; spec §11.6 (v1.0.1) specifies the google.rpc.Status body {error: {code, status, message, details}}. CHECKLIST K3: the spec contradicts itself (§6.4/§6.5 examples); we implement §11.6.",
    },
  ],
};
