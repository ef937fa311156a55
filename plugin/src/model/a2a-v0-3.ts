// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { DescField, DescFile, DescMethod, DescService } from "@bufbuild/protobuf";

/** RPCs only A2A 0.3's service has (1.0 renamed them SubscribeToTask, GetExtendedAgentCard). */
const v03OnlyRpcs = ["TaskSubscription", "GetAgentCard"];

/**
 * Whether a service is A2A 0.3's `a2a.v1.A2AService` (the 0.3.0 a2a.proto). Its gRPC and HTTP+JSON
 * bindings are the proto's and are generated as for any service; its JSON-RPC wire is not
 * (`message/send`-style method names, `kind` discriminators, kebab-case states: the 0.3 JSON Schema),
 * so no JSON-RPC files are generated for it: `@protoc-gen-a2a/runtime/v0_3` serves that wire on the
 * 1.0 JSON-RPC server (`wires: [v03JsonRpcWire()]`).
 */
export function isA2AV03Service(service: DescService): boolean {
  return (
    service.typeName === "a2a.v1.A2AService" &&
    ["SendMessage", ...v03OnlyRpcs].every((name) => service.methods.some((m) => m.name === name))
  );
}

/**
 * HTTP bindings the 0.3.0 a2a.proto gets wrong and every 0.3 SDK serves as the 0.3 text says
 * (§7.5 "POST /v1/tasks/{id}/pushNotificationConfigs"): the proto's CreateTaskPushNotificationConfig
 * template is `/v1/{parent=task/*}/pushNotificationConfigs`, singular `task`. The route table also
 * answers the plural form, the proto's own binding kept.
 */
export function v03BindingErrata(
  method: DescMethod,
): readonly { readonly from: string; readonly to: string }[] {
  if (!isA2AV03Service(method.parent) || method.name !== "CreateTaskPushNotificationConfig")
    return [];
  return [
    {
      from: "/v1/{parent=task/*/pushNotificationConfigs}",
      to: "/v1/{parent=tasks/*/pushNotificationConfigs}",
    },
  ];
}

/**
 * REQUIRED fields of the 0.3.0 a2a.proto that no 0.3 client sends: CreateTaskPushNotificationConfigRequest's
 * `config_id` (the 0.3 SDKs put the id in `config.push_notification_config.id`, or none: the server picks one).
 * Validation treats them as optional.
 */
export function isV03UnsentRequiredField(field: DescField): boolean {
  return (
    field.parent.typeName === "a2a.v1.CreateTaskPushNotificationConfigRequest" &&
    field.name === "config_id" &&
    field.parent.file.services.some(isA2AV03Service)
  );
}

/**
 * The A2A 0.3 proto of a run beside an A2A 1.0 one (`v0_3/a2a.proto` next to `a2a.proto`): the 1.0
 * files' agent client then also connects to 0.3 agents, and a `_a2a_v03.ts` file serves 0.3 with the
 * 1.0 handler. Undefined when the run has none (or more than one: which would be ambiguous).
 */
export function v03CompanionOf(files: readonly DescFile[]): DescFile | undefined {
  const found = files.filter((f) => f.services.some(isA2AV03Service));
  return found.length === 1 ? found[0] : undefined;
}
