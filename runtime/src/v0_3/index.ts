// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * `@protoc-gen-a2a/runtime/v0_3`: serving and calling A2A 0.3 next to 1.0.
 *
 * The translation layer is pure and JSON-level. Three shapes meet here:
 * - **1.0** ProtoJSON of `lf.a2a.v1` (what protobuf-es `toJson` writes);
 * - **0.3 JSON-RPC** (`…V03` functions): the 0.3 JSON Schema's shapes with `kind` discriminators, kebab-case states,
 *   `user`/`agent` roles, nested file parts, `final` on status updates;
 * - **0.3 ProtoJSON** (`…V03Proto` functions): the 0.3 proto (`a2a.v1`) as used on the 0.3 HTTP+JSON and gRPC
 *   wires, with `content` parts, `TASK_STATE_CANCELLED` and `tasks/{id}` resource names.
 *
 * `…FromV03…` functions read 0.3 and return 1.0 (servers: requests; clients: results); `…ToV03…` functions read
 * 1.0 and return 0.3. Input that cannot be translated throws {@link V03TranslationError}.
 */
export { V03TranslationError } from "./translate/translation-error.js";
export {
  type V03TaskState,
  isFinalV1State,
  roleFromV03,
  roleToV03,
  taskStateFromV03,
  taskStateFromV03Proto,
  taskStateToV03,
  taskStateToV03Proto,
} from "./translate/enums.js";
export {
  DATA_PART_COMPAT_KEY,
  partFromV03,
  partFromV03Proto,
  partToV03,
  partToV03Proto,
} from "./translate/parts.js";
export {
  messageFromV03,
  messageFromV03Proto,
  messageToV03,
  messageToV03Proto,
} from "./translate/messages.js";
export {
  artifactFromV03,
  artifactFromV03Proto,
  artifactToV03,
  artifactToV03Proto,
} from "./translate/artifacts.js";
export {
  taskFromV03,
  taskFromV03Proto,
  taskStatusFromV03,
  taskStatusFromV03Proto,
  taskStatusToV03,
  taskStatusToV03Proto,
  taskToV03,
  taskToV03Proto,
} from "./translate/tasks.js";
export {
  type StatusUpdateToV03Options,
  artifactUpdateFromV03,
  artifactUpdateFromV03Proto,
  artifactUpdateToV03,
  artifactUpdateToV03Proto,
  sendMessageResponseFromV03,
  sendMessageResponseFromV03Proto,
  sendMessageResponseToV03,
  sendMessageResponseToV03Proto,
  statusUpdateFromV03,
  statusUpdateFromV03Proto,
  statusUpdateToV03,
  statusUpdateToV03Proto,
  streamResponseFromV03,
  streamResponseFromV03Proto,
  streamResponseToV03,
  streamResponseToV03Proto,
} from "./translate/events.js";
export {
  pushConfigFromV03,
  pushConfigToV03,
  pushConfigToV03Proto,
  taskPushConfigFromV03,
  taskPushConfigFromV03Proto,
  taskPushConfigToV03,
  taskPushConfigToV03Proto,
} from "./translate/push-configs.js";
export {
  parsePushConfigParent,
  parsePushConfigResourceName,
  parseTaskResourceName,
  pushConfigResourceName,
  taskResourceName,
} from "./translate/resource-names.js";
export {
  type SendMessageFromV03ProtoOptions,
  cancelTaskParamsFromV03,
  cancelTaskParamsToV03,
  createPushConfigRequestFromV03Proto,
  createPushConfigRequestToV03Proto,
  deletePushConfigParamsFromV03,
  deletePushConfigParamsToV03,
  getPushConfigParamsFromV03,
  getPushConfigParamsToV03,
  getTaskParamsFromV03,
  getTaskParamsToV03,
  getTaskRequestFromV03Proto,
  getTaskRequestToV03Proto,
  listPushConfigsParamsFromV03,
  listPushConfigsParamsToV03,
  listPushConfigsRequestFromV03Proto,
  listPushConfigsRequestToV03Proto,
  listPushConfigsResponseFromV03,
  listPushConfigsResponseFromV03Proto,
  listPushConfigsResponseToV03,
  listPushConfigsResponseToV03Proto,
  pushConfigNameRequestFromV03Proto,
  pushConfigNameRequestToV03Proto,
  sendMessageParamsFromV03,
  sendMessageParamsToV03,
  sendMessageRequestFromV03Proto,
  sendMessageRequestToV03Proto,
  setPushConfigParamsFromV03,
  setPushConfigParamsToV03,
  subscribeParamsFromV03,
  subscribeParamsToV03,
  taskNameRequestFromV03Proto,
  taskNameRequestToV03Proto,
} from "./translate/requests.js";
export {
  type AgentCardToV03Options,
  type V03Interface,
  agentCardFromV03,
  agentCardFromV03Proto,
  agentCardToV03,
  agentCardToV03Proto,
  hybridAgentCard,
} from "./translate/agent-card.js";
export {
  type V03ErrorCode,
  type V1ErrorLike,
  V03_CODE_TO_V1_ERROR,
  V1_ERROR_TO_V03,
  errorFromV03,
  errorToV03,
} from "./translate/errors.js";

// Serving 0.3 beside 1.0 (the wires, the 0.3 service handler, routers, card interfaces).
export * from "./serve.js";
