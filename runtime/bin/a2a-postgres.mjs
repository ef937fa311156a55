#!/usr/bin/env node
// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// a2a-postgres migrate|status <postgres://url>: the PostgreSQL task store's schema (see src/postgres/cli.ts).
const { main } = await import("../dist/postgres/cli.js");
process.exitCode = await main(process.argv.slice(2));
