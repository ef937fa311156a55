// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// Stand-in for `@typescript/vfs` in the plugin bundle: protoc-gen-a2a never transpiles.
const fail = () => {
  throw new Error("protoc-gen-a2a emits TypeScript only: use target=ts");
};
export const createDefaultMapFromNodeModules = fail;
export const createSystem = fail;
export const createVirtualCompilerHost = fail;
