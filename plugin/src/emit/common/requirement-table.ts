import type { GeneratedFile } from "@bufbuild/protoplugin";
import type { ServiceModel } from "../../model/service-model.js";
import { runtimeModule } from "../runtime-files.js";

/**
 * Emits the precompiled REQUIRED-field table of a service (google.api.field_behavior),
 * consumed by `findMissingFields` of the runtime.
 */
export function emitRequirementTable(f: GeneratedFile, service: ServiceModel, name: string): void {
  const RequirementTable = f.import("RequirementTable", runtimeModule("required-fields"), true);
  f.print(
    f.jsDoc(
      [
        `REQUIRED fields (google.api.field_behavior) of the messages reachable from the requests of ${service.typeName},`,
        "with the nested messages to descend into. Validate a decoded request with",
        "`findMissingFields(table, request.$typeName, request)`.",
      ].join("\n"),
    ),
  );
  f.print(f.export("const", name), ": ", RequirementTable, " = {");
  for (const [typeName, { fields }] of service.requirements) {
    f.print("  ", f.string(typeName), ": [");
    for (const r of fields) {
      const parts = [`name: ${JSON.stringify(r.field.localName)}`, `json: ${JSON.stringify(r.field.jsonName)}`];
      if (r.required !== undefined) parts.push(`check: ${JSON.stringify(r.required)}`);
      if (r.nested !== undefined) parts.push(`nested: ${JSON.stringify(r.nested.typeName)}`);
      if (r.field.oneof !== undefined) parts.push(`oneof: ${JSON.stringify(r.field.oneof.localName)}`);
      f.print("    { ", parts.join(", "), " },");
    }
    f.print("  ],");
  }
  f.print("};");
  f.print();
}
