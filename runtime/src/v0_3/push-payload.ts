// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { PushPayload } from "../task/push/sender.js";
import { streamResponseToV03 } from "./translate/events.js";

/**
 * Webhooks for push configs registered by A2A 0.3 clients (the `payloads` option of the push sender,
 * `{ "0.3": V03_PUSH_PAYLOAD }`): the bare 0.3 event with its `kind` (`task`, `status-update` with
 * `final`, `artifact-update`), `application/json`, the config's token in `X-A2A-Notification-Token`
 * (0.3 §9.5), no A2A-Version header.
 */
export const V03_PUSH_PAYLOAD: PushPayload = {
  encode: (event) => streamResponseToV03(event),
  contentType: "application/json",
  tokenHeader: "X-A2A-Notification-Token",
};
