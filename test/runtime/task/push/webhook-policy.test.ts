/**
 * The webhook URL policy (runtime/src/task/push/webhook-policy.ts, spec §13.2), as a unit: tables of URLs,
 * policies, DNS answers and addresses with what the policy makes of them; then fast-check over
 * textual forms of addresses (WHATWG IPv4 forms — shorthand, decimal, hex, octal, a trailing dot,
 * percent-encoding, full-width characters — and IPv6 forms — compressed or not, zero-padded, upper
 * case, with a dotted IPv4 tail, IPv4-mapped, NAT64, 6to4, bracketed, with a zone), judged against a
 * reference table of the blocked ranges written here: every blocked address is refused, as an IP
 * literal and as a DNS answer, unless allowed (`allowHosts`, `allowPrivateNetworks`), and every
 * public one is accepted.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseIp } from "../../../../runtime/src/task/push/ip-address.js";
import {
  checkResolvedAddresses,
  checkWebhookUrl,
  isBlockedAddress,
  screenWebhookUrl,
  type HostResolver,
  type WebhookUrlPolicy,
  WebhookUrlError,
} from "../../../../runtime/src/task/push/webhook-policy.js";

type Code = WebhookUrlError["code"];

/** A resolver that fails the test when called: the policy decides without DNS. */
const noDns: HostResolver = async (host) => {
  throw new Error(`must not resolve ${host}`);
};

/** The error code `run` throws or rejects with, or "ok". */
async function outcomeOf(run: () => unknown): Promise<Code | "ok"> {
  try {
    await run();
    return "ok";
  } catch (e) {
    if (e instanceof WebhookUrlError) return e.code;
    throw e;
  }
}

function codeOfSync(run: () => unknown): Code | "ok" {
  try {
    run();
    return "ok";
  } catch (e) {
    if (e instanceof WebhookUrlError) return e.code;
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// Tables

/** [url, policy, what screenWebhookUrl makes of it: a refusal code, "ok" (accepted without DNS) or { resolve: host }]. */
const SCREEN: readonly (readonly [
  url: string,
  policy: WebhookUrlPolicy,
  expected: Code | "ok" | { readonly resolve: string },
])[] = [
  // Schemes and credentials: refused whatever the policy relaxes.
  ["https://hooks.example.com/x", {}, { resolve: "hooks.example.com" }],
  ["http://hooks.example.com/x", {}, { resolve: "hooks.example.com" }],
  ["HTTPS://HOOKS.Example.COM/x", {}, { resolve: "hooks.example.com" }],
  ["http://hooks.example.com/x", { requireHttps: true }, "scheme"],
  ["https://hooks.example.com/x", { requireHttps: true }, { resolve: "hooks.example.com" }],
  ["ftp://hooks.example.com/x", { allowPrivateNetworks: true }, "scheme"],
  ["file:///etc/passwd", { allowPrivateNetworks: true }, "scheme"],
  ["javascript:alert(1)", { allowPrivateNetworks: true }, "scheme"],
  ["data:text/plain,hi", { allowPrivateNetworks: true }, "scheme"],
  ["ws://hooks.example.com/", { allowPrivateNetworks: true }, "scheme"],
  ["wss://hooks.example.com/", {}, "scheme"],
  ["gopher://hooks.example.com/", {}, "scheme"],
  ["https://user:pass@hooks.example.com/", { allowPrivateNetworks: true }, "credentials"],
  ["https://user@hooks.example.com/", {}, "credentials"],
  ["https://:pass@hooks.example.com/", {}, "credentials"],
  ["https://u:p@8.8.8.8/", { allowHosts: ["8.8.8.8"] }, "credentials"],
  ["/relative", {}, "invalid-url"],
  ["", {}, "invalid-url"],
  ["http://", {}, "invalid-url"],
  ["http://[::1/", {}, "invalid-url"],
  ["http://[fe80::1%25eth0]/", {}, "invalid-url"],
  ["http://1.2.3.4.5/", {}, "invalid-url"],
  // localhost, by name: refused before any DNS.
  ["http://localhost/", {}, "blocked-host"],
  ["http://LOCALHOST:8080/", {}, "blocked-host"],
  ["http://localhost./", {}, "blocked-host"],
  ["http://api.localhost/", {}, "blocked-host"],
  ["http://a.b.LocalHost/", {}, "blocked-host"],
  // A subdomain of localhost with a trailing dot is left to DNS (its answer decides): see the DNS table.
  ["http://api.localhost./", {}, { resolve: "api.localhost." }],
  ["http://localhost.example.com/", {}, { resolve: "localhost.example.com" }],
  ["http://hooks.example.com./", {}, { resolve: "hooks.example.com." }],
  // Two trailing dots: not an IPv4 address for the URL parser (a name), so DNS decides.
  ["http://127.0.0.1../", {}, { resolve: "127.0.0.1.." }],
  // IP literals, in every form the URL parser reads (it canonicalizes them): no DNS.
  ["http://127.0.0.1:8080/", {}, "blocked-address"],
  ["http://127.1/", {}, "blocked-address"],
  ["http://127.0.0.1./", {}, "blocked-address"],
  ["http://2130706433/", {}, "blocked-address"],
  ["http://0x7f000001/", {}, "blocked-address"],
  ["http://0X7F.0.0.1/", {}, "blocked-address"],
  ["http://0177.0.0.1/", {}, "blocked-address"],
  ["http://0300.0250.0.1/", {}, "blocked-address"],
  ["http://%31%32%37.0.0.1/", {}, "blocked-address"],
  ["http://１２７．０．０．１/", {}, "blocked-address"],
  ["http://0/", {}, "blocked-address"],
  ["http://0.0.0.0/", {}, "blocked-address"],
  ["http://10.1.2.3/", {}, "blocked-address"],
  ["http://172.16.0.1/", {}, "blocked-address"],
  ["http://192.168.1.1/", {}, "blocked-address"],
  ["http://100.64.0.1/", {}, "blocked-address"],
  ["http://169.254.169.254/latest/meta-data", {}, "blocked-address"],
  ["http://224.0.0.1/", {}, "blocked-address"],
  ["http://255.255.255.255/", {}, "blocked-address"],
  ["http://[::1]/", {}, "blocked-address"],
  ["http://[::]/", {}, "blocked-address"],
  ["http://[0:0:0:0:0:0:0:1]/", {}, "blocked-address"],
  ["http://[::FFFF:127.0.0.1]/", {}, "blocked-address"],
  ["http://[0000:0000:0000:0000:0000:ffff:a9fe:a9fe]/", {}, "blocked-address"],
  ["http://[64:ff9b::10.0.0.1]/", {}, "blocked-address"],
  ["http://[2002:c0a8:101::1]/", {}, "blocked-address"],
  ["http://[fe80::1]/", {}, "blocked-address"],
  ["http://[FD00::1]/", {}, "blocked-address"],
  ["http://[ff02::1]/", {}, "blocked-address"],
  ["http://[2001:db8::1]/", {}, "blocked-address"],
  // Public literals: accepted without DNS.
  ["https://8.8.8.8/", {}, "ok"],
  ["http://93.184.216.34:8080/x?q=1", {}, "ok"],
  ["https://0x08080808/", {}, "ok"],
  ["https://[2606:4700:4700::1111]/", {}, "ok"],
  ["https://[::ffff:8.8.8.8]/", {}, "ok"],
  ["https://[64:ff9b::8.8.8.8]/", {}, "ok"],
  ["https://[2002:808:808::1]/", {}, "ok"],
  // allowPrivateNetworks: no address check at all (localhost included), no DNS.
  ["http://10.0.0.1/", { allowPrivateNetworks: true }, "ok"],
  ["http://localhost:3000/", { allowPrivateNetworks: true }, "ok"],
  ["http://internal.example.com/", { allowPrivateNetworks: true }, "ok"],
  // allowHosts: the host as the URL spells it once parsed (lowercase, IPv6 with or without brackets), no DNS.
  ["http://127.0.0.1:1234/x", { allowHosts: ["127.0.0.1"] }, "ok"],
  ["http://127.1/x", { allowHosts: ["127.0.0.1"] }, "ok"],
  ["http://[::1]:1234/x", { allowHosts: ["[::1]"] }, "ok"],
  ["http://[::1]:1234/x", { allowHosts: ["::1"] }, "ok"],
  ["http://[0:0::1]/x", { allowHosts: ["::1"] }, "ok"],
  ["http://localhost/x", { allowHosts: ["LOCALHOST"] }, "ok"],
  ["http://internal.example.com/", { allowHosts: ["internal.example.com"] }, "ok"],
  ["http://10.0.0.1/x", { allowHosts: ["127.0.0.1"] }, "blocked-address"],
  ["http://[::1]/x", { allowHosts: ["0:0:0:0:0:0:0:1"] }, "blocked-address"],
  ["http://api.localhost/x", { allowHosts: ["localhost"] }, "blocked-host"],
];

/** [host's DNS answer, verdict of checkResolvedAddresses]. */
const RESOLVED: readonly (readonly [addresses: readonly string[], expected: Code | "ok"])[] = [
  [[], "unresolvable"],
  [["93.184.216.34"], "ok"],
  [["8.8.8.8", "2606:4700:4700::1111"], "ok"],
  [["93.184.216.34", "10.0.0.5"], "blocked-address"],
  [["10.0.0.5", "93.184.216.34"], "blocked-address"],
  [["127.0.0.1"], "blocked-address"],
  [["::1"], "blocked-address"],
  [["fe80::1%eth0"], "blocked-address"],
  [["::ffff:169.254.169.254"], "blocked-address"],
  [["not an address"], "blocked-address"],
  [[""], "blocked-address"],
];

/** [address, blocked?] for isBlockedAddress: range edges, every special form, and text that is not a canonical address. */
const ADDRESSES: readonly (readonly [address: string, blocked: boolean])[] = [
  ["0.0.0.0", true],
  ["0.255.255.255", true],
  ["1.0.0.0", false],
  ["9.255.255.255", false],
  ["10.0.0.0", true],
  ["10.255.255.255", true],
  ["11.0.0.0", false],
  ["100.63.255.255", false],
  ["100.64.0.0", true],
  ["100.127.255.255", true],
  ["100.128.0.0", false],
  ["126.255.255.255", false],
  ["127.0.0.0", true],
  ["127.255.255.255", true],
  ["128.0.0.0", false],
  ["169.253.255.255", false],
  ["169.254.0.0", true],
  ["169.254.169.254", true],
  ["169.255.0.0", false],
  ["172.15.255.255", false],
  ["172.16.0.0", true],
  ["172.31.255.255", true],
  ["172.32.0.0", false],
  ["192.0.0.0", true],
  ["192.0.0.255", true],
  ["192.0.1.0", false],
  ["192.0.2.1", false],
  ["192.167.255.255", false],
  ["192.168.0.0", true],
  ["192.168.255.255", true],
  ["192.169.0.0", false],
  ["198.17.255.255", false],
  ["198.18.0.0", true],
  ["198.19.255.255", true],
  ["198.20.0.0", false],
  ["223.255.255.255", false],
  ["224.0.0.0", true],
  ["240.0.0.1", true],
  ["255.255.255.255", true],
  ["8.8.8.8", false],
  ["::", true],
  ["::1", true],
  ["[::1]", true],
  ["::7f00:1", true],
  ["::ffff:127.0.0.1", true],
  ["::FFFF:7F00:1", true],
  ["::ffff:0:7f00:1", true],
  ["::ffff:8.8.8.8", false],
  ["[::ffff:808:808]", false],
  ["64:ff9b::a00:1", true],
  ["64:ff9b::808:808", false],
  ["64:ff9b:1::808:808", true],
  ["100::1", true],
  ["1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", true],
  ["2000::", false],
  ["2001::1", true],
  ["2001:1ff:ffff::1", true],
  ["2001:200::1", false],
  ["2001:db8::1", true],
  ["2001:db9::1", false],
  ["2002:a00:1::", true],
  ["2002:808:808::", false],
  ["2606:4700:4700::1111", false],
  ["3fff::1", true],
  ["3fff:fff::1", true],
  ["3fff:1000::1", false],
  ["4000::1", true],
  ["fc00::1", true],
  ["fe80::1", true],
  ["fe80::1%eth0", true],
  ["fec0::1", true],
  ["ff02::1", true],
  // Not an address in canonical form: blocked (fail closed).
  ["", true],
  ["localhost", true],
  ["hooks.example.com", true],
  ["1.2.3", true],
  ["1.2.3.4.5", true],
  ["256.1.1.1", true],
  ["8.8.8.8.", true],
  ["0x8.8.8.8", true],
  ["134744072", true],
  // A leading zero is octal to inet_aton (dns.lookup("012.0.0.1") is 10.0.0.1): not read as decimal.
  ["012.0.0.1", true],
  ["08.8.8.8", true],
  ["::ffff:010.0.0.1", true],
  ["1::2::3", true],
  ["1:2:3:4:5:6:7:8:9", true],
  ["12345::1", true],
  ["[2606:4700:4700::1111", true],
];

describe("webhook policy: tables", () => {
  it.each(SCREEN)("screenWebhookUrl(%j, %j) → %j", (url, policy, expected) => {
    const outcome = codeOfSync(() => screenWebhookUrl(url, policy));
    if (typeof expected === "object") {
      expect(outcome).toBe("ok");
      expect(screenWebhookUrl(url, policy).resolve).toBe(expected.resolve);
    } else {
      expect(outcome).toBe(expected);
      if (expected === "ok") expect(screenWebhookUrl(url, policy).resolve).toBeUndefined();
    }
  });

  it.each(SCREEN)(
    "checkWebhookUrl(%j, %j) agrees with the screen (DNS answering a public address)",
    async (url, policy, expected) => {
      const asked: string[] = [];
      const resolveHost: HostResolver = async (host) => {
        asked.push(host);
        return [{ address: "93.184.216.34", family: 4 }];
      };
      expect(await outcomeOf(() => checkWebhookUrl(url, { ...policy, resolveHost }))).toBe(
        typeof expected === "object" ? "ok" : expected,
      );
      expect(asked).toEqual(typeof expected === "object" ? [expected.resolve] : []);
    },
  );

  it.each(RESOLVED)(
    "checkResolvedAddresses(%j) → %s, and so does checkWebhookUrl",
    async (addresses, expected) => {
      const answer = addresses.map((address) => ({ address }));
      expect(codeOfSync(() => checkResolvedAddresses("hooks.example.com", answer))).toBe(expected);
      expect(
        await outcomeOf(() =>
          checkWebhookUrl("https://hooks.example.com/x", { resolveHost: async () => answer }),
        ),
      ).toBe(expected);
    },
  );

  it.each(ADDRESSES)("isBlockedAddress(%j) is %s", (address, blocked) => {
    expect(isBlockedAddress(address)).toBe(blocked);
  });

  it("a resolver that throws makes the host unresolvable, with its message", async () => {
    const err = await checkWebhookUrl("https://hooks.example.com/x", {
      resolveHost: async () => {
        throw new Error("ENOTFOUND");
      },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebhookUrlError);
    expect((err as WebhookUrlError).code).toBe("unresolvable");
    expect((err as WebhookUrlError).message).toContain("ENOTFOUND");
  });

  it("checkWebhookUrl resolves with the parsed URL", async () => {
    const url = await checkWebhookUrl("https://Hooks.Example.com:8443/a?b=c", {
      resolveHost: async () => [{ address: "8.8.8.8" }],
    });
    expect(url).toBeInstanceOf(URL);
    expect(url.href).toBe("https://hooks.example.com:8443/a?b=c");
    expect(
      (
        await checkWebhookUrl("http://127.0.0.1/x", {
          allowHosts: ["127.0.0.1"],
          resolveHost: noDns,
        })
      ).hostname,
    ).toBe("127.0.0.1");
  });
});

// ---------------------------------------------------------------------------------------------
// The reference: the blocked ranges as a table, independent of the code under test.

type Bytes = readonly number[];

/** [network, prefix length] of every IPv4 range refused. */
const BLOCKED_V4: readonly (readonly [Bytes, number])[] = [
  [[0, 0, 0, 0], 8],
  [[10, 0, 0, 0], 8],
  [[127, 0, 0, 0], 8],
  [[100, 64, 0, 0], 10],
  [[169, 254, 0, 0], 16],
  [[172, 16, 0, 0], 12],
  [[192, 168, 0, 0], 16],
  [[192, 0, 0, 0], 24],
  [[198, 18, 0, 0], 15],
  [[224, 0, 0, 0], 3],
];

/** IPv6 ranges refused inside 2000::/3 (everything outside it is refused). */
const BLOCKED_V6_IN_GLOBAL: readonly (readonly [Bytes, number])[] = [
  [[0x20, 0x01, 0, 0], 23],
  [[0x20, 0x01, 0x0d, 0xb8], 32],
  [[0x3f, 0xff, 0, 0], 20],
];

function inPrefix(bytes: Bytes, [network, length]: readonly [Bytes, number]): boolean {
  for (let bit = 0; bit < length; bit++) {
    const i = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if (((bytes[i] ?? 0) & mask) !== ((network[i] ?? 0) & mask)) return false;
  }
  return true;
}

const referenceBlockedV4 = (b: Bytes): boolean => BLOCKED_V4.some((range) => inPrefix(b, range));

function referenceBlockedV6(b: Bytes): boolean {
  const isZero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (isZero(0, 10) && b[10] === 0xff && b[11] === 0xff) return referenceBlockedV4(b.slice(12));
  if (inPrefix(b, [[0, 0x64, 0xff, 0x9b], 32]) && isZero(4, 12))
    return referenceBlockedV4(b.slice(12));
  if (inPrefix(b, [[0x20, 0x02], 16])) return referenceBlockedV4(b.slice(2, 6));
  if (!inPrefix(b, [[0x20], 3])) return true;
  return BLOCKED_V6_IN_GLOBAL.some((range) => inPrefix(b, range));
}

// ---------------------------------------------------------------------------------------------
// Generators of addresses and their textual forms.

const byte = fc.integer({ min: 0, max: 255 });
const ipv4 = fc.tuple(byte, byte, byte, byte);

/** An address of one of the ranges: its network bits, random host bits. */
function inRange(
  [network, length]: readonly [Bytes, number],
  size: number,
): fc.Arbitrary<number[]> {
  return fc.array(byte, { minLength: size, maxLength: size }).map((random) =>
    random.map((r, i) => {
      const bits = Math.max(0, Math.min(8, length - i * 8));
      const mask = (0xff << (8 - bits)) & 0xff;
      return ((network[i] ?? 0) & mask) | (r & ~mask & 0xff);
    }),
  );
}

const blockedV4 = fc.oneof(...BLOCKED_V4.map((range) => inRange(range, 4)));
const publicV4 = ipv4.filter((b) => !referenceBlockedV4(b));

/** An integer in one of the radices the WHATWG IPv4 parser reads. */
function numberText(value: number, radix: "dec" | "hex" | "oct", upper: boolean): string {
  if (radix === "hex")
    return `${upper ? "0X" : "0x"}${upper ? value.toString(16).toUpperCase() : value.toString(16)}`;
  if (radix === "oct") return `0${value.toString(8)}`;
  return String(value);
}

/** Full-width forms of ASCII letters, digits and dots (IDNA maps them back). */
const fullWidth = (text: string): string =>
  text.replace(/[0-9A-Za-z.]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));

/** Textual forms of an IPv4 address as a URL host: 1 to 4 parts (the last holding the remaining bytes), each in any radix; a trailing dot; percent-encoding; full width. */
function ipv4HostText(b: Bytes): fc.Arbitrary<string> {
  const radix = fc.constantFrom("dec" as const, "hex" as const, "oct" as const);
  return fc
    .record({
      parts: fc.integer({ min: 1, max: 4 }),
      radices: fc.array(radix, { minLength: 4, maxLength: 4 }),
      upper: fc.boolean(),
      trailingDot: fc.boolean(),
      encoding: fc.constantFrom("none" as const, "percent" as const, "full-width" as const),
    })
    .map(({ parts, radices, upper, trailingDot, encoding }) => {
      const values = b.slice(0, parts - 1);
      const last = b.slice(parts - 1).reduce((n, x) => n * 256 + x, 0);
      const text =
        [...values, last].map((v, i) => numberText(v, radices[i] ?? "dec", upper)).join(".") +
        (trailingDot ? "." : "");
      if (encoding === "percent")
        return [...text]
          .map((c, i) => (i % 2 === 0 ? `%${c.charCodeAt(0).toString(16).padStart(2, "0")}` : c))
          .join("");
      return encoding === "full-width" ? fullWidth(text) : text;
    });
}

/** The 8 groups of an IPv6 address. */
const groupsOf = (b: Bytes): number[] =>
  Array.from({ length: 8 }, (_, i) => ((b[2 * i] ?? 0) << 8) | (b[2 * i + 1] ?? 0));

/** The form the WHATWG URL serializer writes (RFC 5952): the first longest run of 2+ zero groups as "::", lowercase, no padding. */
function canonicalIpv6(b: Bytes): string {
  const groups = groupsOf(b);
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [best, bestLength] = [i, j - i];
  }
  const hex = (gs: number[]) => gs.map((g) => g.toString(16)).join(":");
  return best < 0
    ? hex(groups)
    : `${hex(groups.slice(0, best))}::${hex(groups.slice(best + bestLength))}`;
}

/** Textual forms of an IPv6 address: any run of zero groups as "::" (or none), zero-padded groups, upper case, a dotted IPv4 tail. */
function ipv6Text(b: Bytes): fc.Arbitrary<string> {
  const groups = groupsOf(b);
  const zeroRuns: [number, number][] = [];
  for (let i = 0; i < 8; i++)
    for (let j = i + 1; j <= 8 && groups[j - 1] === 0; j++) zeroRuns.push([i, j]);
  return fc
    .record({
      run: fc.option(
        fc.constantFrom(...(zeroRuns.length > 0 ? zeroRuns : [[0, 0] as [number, number]])),
        { nil: undefined },
      ),
      pad: fc.boolean(),
      upper: fc.boolean(),
      dottedTail: fc.boolean(),
    })
    .map(({ run, pad, upper, dottedTail }) => {
      const text = (g: number) => {
        const t = pad ? g.toString(16).padStart(4, "0") : g.toString(16);
        return upper ? t.toUpperCase() : t;
      };
      const tail = dottedTail
        ? [b.slice(12).join(".")]
        : [text(groups[6] ?? 0), text(groups[7] ?? 0)];
      const cells = [...groups.slice(0, 6).map(text), ...tail];
      // A dotted tail takes two groups' places: a run ending inside it is not compressible.
      const end = dottedTail ? 6 : 8;
      if (run === undefined || run[0] === run[1] || run[1] > end) return cells.join(":");
      const index = (i: number) => (dottedTail && i >= 6 ? 6 : i);
      return `${cells.slice(0, index(run[0])).join(":")}::${cells.slice(index(run[1])).join(":")}`;
    });
}

/** IPv6 addresses standing for an IPv4 address: IPv4-mapped, NAT64 well-known prefix, 6to4 (random bits after the embedded address). */
function embedding(v4: Bytes): fc.Arbitrary<number[]> {
  return fc.oneof(
    fc.constant<number[]>([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4]),
    fc.constant<number[]>([0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0, ...v4]),
    fc.array(byte, { minLength: 10, maxLength: 10 }).map((rest) => [0x20, 0x02, ...v4, ...rest]),
  );
}

const ipv6 = fc.array(byte, { minLength: 16, maxLength: 16 });
/** Mostly in 2000::/3 (where the interesting ranges are), some anywhere. */
const ipv6Global = fc.oneof(
  ipv6.map((b) => [0x20 | ((b[0] ?? 0) & 0x1f), ...b.slice(1)]),
  ipv6,
  inRange([[0x20, 0x01, 0, 0], 23], 16),
  inRange([[0x20, 0x01, 0x0d, 0xb8], 32], 16),
  inRange([[0x3f, 0xff, 0, 0], 20], 16),
);

const RUNS = { numRuns: 400 };

describe("webhook policy: properties (fast-check)", () => {
  it("the test's own IPv6 formatter writes what the address parser reads", () => {
    fc.assert(
      fc.property(
        ipv6.chain((b) => fc.tuple(fc.constant(b), ipv6Text(b))),
        ([b, text]) => {
          expect(parseIp(text), text).toEqual(b);
        },
      ),
    );
  });

  it("every blocked IPv4 address, in any form a URL host can take, is refused without DNS, unless allowed", async () => {
    await fc.assert(
      fc.asyncProperty(
        blockedV4.chain((b) => fc.tuple(fc.constant(b), ipv4HostText(b))),
        fc.constantFrom("", ":8080"),
        async ([b, host], port) => {
          const url = `http://${host}${port}/hook?x=1`;
          expect(await outcomeOf(() => checkWebhookUrl(url, { resolveHost: noDns })), url).toBe(
            "blocked-address",
          );
          expect(
            await outcomeOf(() =>
              checkWebhookUrl(url, { resolveHost: noDns, allowHosts: [b.join(".")] }),
            ),
            url,
          ).toBe("ok");
          expect(
            await outcomeOf(() =>
              checkWebhookUrl(url, { resolveHost: noDns, allowPrivateNetworks: true }),
            ),
            url,
          ).toBe("ok");
          expect(
            await outcomeOf(() =>
              checkWebhookUrl(url.replace(/^http/, "ftp"), {
                resolveHost: noDns,
                allowPrivateNetworks: true,
              }),
            ),
            url,
          ).toBe("scheme");
        },
      ),
      RUNS,
    );
  });

  it("every public IPv4 address, in any form a URL host can take, is accepted without DNS", async () => {
    await fc.assert(
      fc.asyncProperty(
        publicV4.chain((b) => fc.tuple(fc.constant(b), ipv4HostText(b))),
        async ([b, host]) => {
          const url = `https://${host}/hook`;
          const parsed = await checkWebhookUrl(url, { resolveHost: noDns });
          expect(parsed.hostname, url).toBe(b.join("."));
        },
      ),
      RUNS,
    );
  });

  it("an IPv6 literal (bracketed, any textual form) is refused exactly when the reference ranges say so, unless allowed", async () => {
    const address = fc.oneof(ipv6Global, blockedV4.chain(embedding), publicV4.chain(embedding));
    await fc.assert(
      fc.asyncProperty(
        address.chain((b) => fc.tuple(fc.constant(b), ipv6Text(b))),
        async ([b, text]) => {
          const url = `http://[${text}]/hook`;
          const blocked = referenceBlockedV6(b);
          expect(isBlockedAddress(text), text).toBe(blocked);
          expect(isBlockedAddress(`[${text}]`), text).toBe(blocked);
          expect(await outcomeOf(() => checkWebhookUrl(url, { resolveHost: noDns })), url).toBe(
            blocked ? "blocked-address" : "ok",
          );
          expect(
            await outcomeOf(() =>
              checkWebhookUrl(url, { resolveHost: noDns, allowHosts: [canonicalIpv6(b)] }),
            ),
            url,
          ).toBe("ok");
          expect(
            await outcomeOf(() =>
              checkWebhookUrl(url, {
                resolveHost: noDns,
                allowHosts: [`[${canonicalIpv6(b).toUpperCase()}]`],
              }),
            ),
            url,
          ).toBe("ok");
          expect(
            await outcomeOf(() =>
              checkWebhookUrl(url, { resolveHost: noDns, allowPrivateNetworks: true }),
            ),
            url,
          ).toBe("ok");
        },
      ),
      RUNS,
    );
  });

  it("a host name is refused when any address of its DNS answer is blocked (in any textual form, zone included), accepted when none is", async () => {
    const v4 = fc
      .oneof(blockedV4, publicV4)
      .map((b) => ({ blocked: referenceBlockedV4(b), text: fc.constant(b.join(".")) }));
    const v6 = fc
      .oneof(ipv6Global, blockedV4.chain(embedding), publicV4.chain(embedding))
      .map((b) => ({
        blocked: referenceBlockedV6(b),
        text: ipv6Text(b).chain((t) => fc.constantFrom(t, `[${t}]`, `${t}%eth0`)),
      }));
    const answer = fc.array(
      fc.oneof(v4, v6).chain(({ blocked, text }) => text.map((address) => ({ blocked, address }))),
      { minLength: 1, maxLength: 5 },
    );
    await fc.assert(
      fc.asyncProperty(
        answer,
        fc.constantFrom("hooks.example.com", "HOOKS.example.com.", "xn--bcher-kva.example"),
        async (addresses, name) => {
          const url = `https://${name}/hook`;
          const resolveHost: HostResolver = async () =>
            addresses.map(({ address }) => ({ address }));
          const blocked = addresses.some((a) => a.blocked);
          expect(
            await outcomeOf(() => checkWebhookUrl(url, { resolveHost })),
            JSON.stringify(addresses),
          ).toBe(blocked ? "blocked-address" : "ok");
          expect(
            await outcomeOf(() =>
              checkWebhookUrl(url, { resolveHost: noDns, allowHosts: [new URL(url).hostname] }),
            ),
          ).toBe("ok");
          expect(
            await outcomeOf(() =>
              checkWebhookUrl(url, { resolveHost: noDns, allowPrivateNetworks: true }),
            ),
          ).toBe("ok");
        },
      ),
      RUNS,
    );
  });

  it("text that is not a canonical address (other IPv4 radices, shorthand, leading zeros, a trailing dot) is blocked as a DNS answer", () => {
    const nonCanonical = ipv4.chain((b) => ipv4HostText(b).filter((text) => text !== b.join(".")));
    fc.assert(
      fc.property(nonCanonical, (text) => {
        expect(isBlockedAddress(text), text).toBe(true);
        expect(
          codeOfSync(() => checkResolvedAddresses("hooks.example.com", [{ address: text }])),
          text,
        ).toBe("blocked-address");
      }),
      RUNS,
    );
  });

  it("localhost and every name under it, in any case, is refused by name without DNS, unless allowed", async () => {
    // No hyphens: an "xn--" label would have to be valid punycode.
    const label = fc.stringMatching(/^[a-z0-9]{1,12}$/);
    const name = fc
      .record({
        labels: fc.array(label, { maxLength: 3 }),
        upper: fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
      })
      .map(({ labels, upper }) =>
        [...labels, "localhost"]
          .join(".")
          .replace(/./g, (c, i: number) => (upper[i % 40] ? c.toUpperCase() : c)),
      );
    await fc.assert(
      fc.asyncProperty(name, fc.constantFrom("", ":8080"), async (host, port) => {
        const url = `http://${host}${port}/hook`;
        expect(await outcomeOf(() => checkWebhookUrl(url, { resolveHost: noDns })), url).toBe(
          "blocked-host",
        );
        expect(
          await outcomeOf(() => checkWebhookUrl(url, { resolveHost: noDns, allowHosts: [host] })),
          url,
        ).toBe("ok");
        expect(
          await outcomeOf(() =>
            checkWebhookUrl(url, { resolveHost: noDns, allowPrivateNetworks: true }),
          ),
          url,
        ).toBe("ok");
      }),
      RUNS,
    );
  });
});
