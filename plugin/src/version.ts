// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/** The plugin's version, as in package.json (a test keeps the two in step). */
export const version = "0.1.0";
