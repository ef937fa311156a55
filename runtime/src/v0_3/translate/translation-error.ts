// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/** The one error the 0.3 ⇄ 1.0 translators throw. */

/**
 * A value that cannot be translated between A2A 0.3 and 1.0: a required field is missing, a field has the wrong
 * type, or a value has no counterpart. `field` is the JSON path of the offending field (e.g.
 * `"params.message.parts[1].file"`), `reason` says why; `message` is `"<field>: <reason>"`. Servers answer it with
 * InvalidParams (JSON-RPC -32602, HTTP 400, gRPC INVALID_ARGUMENT); clients treat it as an invalid agent response.
 */
export class V03TranslationError extends Error {
  override name = "V03TranslationError";
  /** JSON path of the offending field, e.g. `"message.role"`. */
  readonly field: string;
  /** Why it cannot be translated, e.g. `"must be \"user\" or \"agent\""`. */
  readonly reason: string;

  /** @param field JSON path of the offending field. @param reason Why it cannot be translated. */
  constructor(field: string, reason: string) {
    super(`${field}: ${reason}`);
    this.field = field;
    this.reason = reason;
  }
}
