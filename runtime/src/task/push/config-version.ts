// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The protocol version a push config was registered in (A2A 0.3 clients expect 0.3 webhooks: the
 * bare event with `kind`, `application/json`, the token in X-A2A-Notification-Token). 1.0's
 * TaskPushNotificationConfig has no field for it, so the config carries it as a field unknown to the
 * schema: protobuf-es keeps unknown fields through clone and binary, which is how every store keeps
 * configs (memory: clones; SQLite and PostgreSQL: protobuf binary), and ProtoJSON never shows it.
 * Configs registered in the service's own version carry nothing.
 */
import type { Message } from "@bufbuild/protobuf";
import { BinaryReader, BinaryWriter, WireType } from "@bufbuild/protobuf/wire";

/** The field number of the marker: far above any field a2a.proto will use (max 536,870,911). */
const VERSION_FIELD = 536_870_003;

/** Marks `config` as registered in protocol `version` ("0.3"); no mark for 1.x. */
export function markPushConfigVersion(config: Message, version: string): void {
  if (version === "" || version.startsWith("1.")) return;
  const data = new BinaryWriter().string(version).finish();
  const others = (config.$unknown ?? []).filter((f) => f.no !== VERSION_FIELD);
  config.$unknown = [...others, { no: VERSION_FIELD, wireType: WireType.LengthDelimited, data }];
}

/** The protocol version `config` was registered in, when not the service's own; undefined otherwise. */
export function pushConfigVersionOf(config: Message): string | undefined {
  const field = config.$unknown?.find(
    (f) => f.no === VERSION_FIELD && f.wireType === WireType.LengthDelimited,
  );
  if (field === undefined) return undefined;
  try {
    return new BinaryReader(field.data).string();
  } catch {
    return undefined;
  }
}
