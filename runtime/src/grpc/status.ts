// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * A2A errors ↔ gRPC statuses (spec §10.6): the status code of the error table, the
 * message, and a google.rpc.ErrorInfo (plus a google.rpc.BadRequest for validation
 * failures) in `grpc-status-details-bin`, packed and unpacked by Connect.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { DescMessage, MessageInitShape } from "@bufbuild/protobuf";
import {
  BAD_REQUEST_TYPE,
  ERROR_INFO_TYPE,
  type A2AError,
  type ErrorDetail,
  type ErrorRegistry,
} from "../errors/a2a-error.js";
import type { StatusDetailSchemas } from "../grpc-wire/status-detail-schemas.js";

/**
 * An A2A error as the ConnectError Connect turns into grpc-status, grpc-message and grpc-status-details-bin.
 * `authChallenge`: for UNAUTHENTICATED, sent as `WWW-Authenticate` (a response header of the Connect
 * protocol's HTTP 401, RFC 9110 §15.5.2; a trailer on gRPC and gRPC-web).
 */
export function toConnectError(
  err: A2AError,
  schemas: StatusDetailSchemas,
  authChallenge?: string,
): ConnectError {
  const details: { desc: DescMessage; value: MessageInitShape<DescMessage> }[] = [
    {
      desc: schemas.errorInfo,
      value: {
        reason: err.reason,
        domain: "a2a-protocol.org",
        metadata: { ...err.metadata },
      } as MessageInitShape<DescMessage>,
    },
  ];
  if (err.fieldViolations.length > 0) {
    details.push({
      desc: schemas.badRequest,
      value: {
        fieldViolations: err.fieldViolations.map((v) => ({
          field: v.field,
          description: v.description,
        })),
      } as MessageInitShape<DescMessage>,
    });
  }
  const metadata =
    authChallenge !== undefined && err.spec.grpcCode === Code.Unauthenticated
      ? { "www-authenticate": authChallenge }
      : undefined;
  return new ConnectError(err.message, err.spec.grpcCode as Code, metadata, details, err);
}

/** A ConnectError from the wire as the generated A2A error class (by ErrorInfo reason, then by code). */
export function fromConnectError(
  err: ConnectError,
  schemas: StatusDetailSchemas,
  errors: ErrorRegistry,
): A2AError {
  const details: ErrorDetail[] = [];
  for (const info of err.findDetails(schemas.errorInfo) as unknown as {
    reason: string;
    domain: string;
    metadata: Record<string, string>;
  }[]) {
    details.push({
      "@type": ERROR_INFO_TYPE,
      reason: info.reason,
      domain: info.domain,
      metadata: { ...info.metadata },
    });
  }
  for (const bad of err.findDetails(schemas.badRequest) as unknown as {
    fieldViolations: { field: string; description: string }[];
  }[]) {
    details.push({
      "@type": BAD_REQUEST_TYPE,
      fieldViolations: bad.fieldViolations.map((v) => ({
        field: v.field,
        description: v.description,
      })),
    });
  }
  return errors.fromGrpcStatus(err.code, err.rawMessage, details);
}

/** True for the codes a caller's own cancellation or deadline produces. */
export function isCancellation(err: ConnectError): boolean {
  return err.code === Code.Canceled || err.code === Code.DeadlineExceeded;
}
