// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { DescField } from "@bufbuild/protobuf";

/** A numeric range the spec text puts on a request field (the proto has no annotation for it). */
export interface FieldConstraint {
  readonly min?: number;
  readonly max?: number;
  /** Where the rule comes from. */
  readonly source: string;
}

/**
 * Ranges from the A2A spec text, keyed by `Message.field` (package left out, so a
 * renamed package keeps them). Validated with the REQUIRED fields, on every binding;
 * spec §6.5 shows `pageSize: 150` and `historyLength: -5` rejected as invalid parameters.
 */
const constraints: Readonly<Record<string, FieldConstraint>> = {
  "ListTasksRequest.page_size": {
    min: 1,
    max: 100,
    source: "spec §3.1.4 / a2a.proto: page_size 1–100",
  },
  "ListTasksRequest.history_length": { min: 0, source: "spec §3.2.4: historyLength is a count" },
  "GetTaskRequest.history_length": { min: 0, source: "spec §3.2.4: historyLength is a count" },
  "SendMessageConfiguration.history_length": {
    min: 0,
    source: "spec §3.2.4: historyLength is a count",
  },
  "ListTaskPushNotificationConfigsRequest.page_size": { min: 0, source: "a page size is a count" },
};

/** The spec's range for a field, if any. */
export function fieldConstraint(field: DescField): FieldConstraint | undefined {
  return constraints[`${field.parent.name}.${field.name}`];
}
