// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Messages whose ProtoJSON form is not an object of their fields (the well-known types with a JSON
 * mapping of their own, Struct, Any): the runtime's own table (runtime/src/protojson/json-form.ts), so that
 * the documents and the servers decide alike. A request of such a type is its HTTP+JSON body as it
 * is, and a non-object one travels on JSON-RPC as `params: [value]`.
 */
export { hasObjectJson, hasOwnJsonForm } from "../../../runtime/src/protojson/json-form.js";
