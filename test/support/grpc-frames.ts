/** gRPC message framing for the tests that speak raw HTTP/2 to our gRPC servers. */

/** A gRPC length-prefixed message: flag byte, 4-byte big-endian length, payload. `length` may lie. */
export function frame(payload: Uint8Array, length = payload.length, flag = 0): Buffer {
  const out = Buffer.alloc(5 + payload.length);
  out[0] = flag;
  out.writeUInt32BE(length, 1);
  Buffer.from(payload).copy(out, 5);
  return out;
}
