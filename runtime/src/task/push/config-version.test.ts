import { clone, create, fromBinary, toBinary, toJson } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { TaskPushNotificationConfigSchema } from "../../../../generated-example/gen/a2a_pb.js";
import { markPushConfigVersion, pushConfigVersionOf } from "./config-version.js";

describe("a push config's protocol version", () => {
  const config = () =>
    create(TaskPushNotificationConfigSchema, {
      id: "c1",
      taskId: "t1",
      url: "https://hooks.example/a",
    });

  it("survives clone and protobuf binary (how the memory, SQLite and PostgreSQL stores keep configs), and never shows in ProtoJSON", () => {
    const marked = config();
    markPushConfigVersion(marked, "0.3");
    expect(pushConfigVersionOf(marked)).toBe("0.3");
    expect(pushConfigVersionOf(clone(TaskPushNotificationConfigSchema, marked))).toBe("0.3");
    const stored = fromBinary(
      TaskPushNotificationConfigSchema,
      toBinary(TaskPushNotificationConfigSchema, marked),
    );
    expect(pushConfigVersionOf(stored)).toBe("0.3");
    expect(stored.url).toBe("https://hooks.example/a");
    expect(toJson(TaskPushNotificationConfigSchema, stored)).toEqual({
      id: "c1",
      taskId: "t1",
      url: "https://hooks.example/a",
    });
  });

  it("is absent for the service's own version, and a second mark replaces the first", () => {
    const current = config();
    markPushConfigVersion(current, "1.0");
    markPushConfigVersion(current, "");
    expect(pushConfigVersionOf(current)).toBeUndefined();
    expect(current.$unknown ?? []).toEqual([]);
    const twice = config();
    markPushConfigVersion(twice, "0.2");
    markPushConfigVersion(twice, "0.3");
    expect(pushConfigVersionOf(twice)).toBe("0.3");
    expect(twice.$unknown).toHaveLength(1);
  });
});
