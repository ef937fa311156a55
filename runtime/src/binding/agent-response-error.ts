// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/** The error of an answer that breaks a framed binding's protocol, as the generated class. */
import {
  ERROR_DOMAIN,
  ERROR_INFO_TYPE,
  type A2AError,
  type ErrorRegistry,
} from "../errors/a2a-error.js";

/**
 * InvalidAgentResponseError (-32006, reason INVALID_AGENT_RESPONSE) with `message`, as the class
 * `errors` (the generated `errorRegistry`) has for it.
 *
 * Plumbing of bindings: private, not covered by semver.
 *
 * @private
 */
export function invalidAgentResponse(errors: ErrorRegistry, message: string): A2AError {
  return errors.fromJsonRpcError({
    code: -32006,
    message,
    data: [{ "@type": ERROR_INFO_TYPE, reason: "INVALID_AGENT_RESPONSE", domain: ERROR_DOMAIN }],
  });
}
