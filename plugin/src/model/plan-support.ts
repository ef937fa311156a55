// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/** What the per-file plans of generated functions (the JSON readers and writers) share. */
import type { FileModel } from "./service-model.js";

/** `build`, run once per file model: the plan is kept for as long as the model lives. */
export function planOncePerModel<P>(build: (model: FileModel) => P): (model: FileModel) => P {
  const plans = new WeakMap<FileModel, P>();
  return (model) => {
    let plan = plans.get(model);
    if (plan === undefined) plans.set(model, (plan = build(model)));
    return plan;
  };
}

/** Names unique within one generated file: a base name already given gets the first free 2, 3, …. */
export function uniqueNamer(): (base: string) => string {
  const usedNames = new Set<string>();
  return (base) => {
    let name = base;
    for (let i = 2; usedNames.has(name); i++) name = `${base}${i}`;
    usedNames.add(name);
    return name;
  };
}
