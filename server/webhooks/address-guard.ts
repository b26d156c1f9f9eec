// The SSRF guard of webhook deliveries (docs/api.md, "Webhooks"): webhook URLs must be absolute http(s), and
// unless the server runs with --allow-private-webhooks a delivery may only reach public
// addresses — never loopback, private, link-local, multicast, reserved or otherwise special
// ranges, including IPv4 addresses hidden inside IPv6 (IPv4-mapped, NAT64, 6to4, Teredo). Host
// names are resolved here and every address they resolve to is checked; the delivery then
// connects to the checked address only, so DNS cannot change the answer in between.

import { promises as dns } from 'node:dns';
import { isIP, isIPv4, isIPv6 } from 'node:net';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Resolves a host name to all its addresses (the shape of dns.promises.lookup with all: true). */
export type LookupAll = (hostname: string) => Promise<{ address: string; family: number }[]>;

/**
 * Most system lookups at once. getaddrinfo runs on libuv's thread pool (4 threads), which file
 * I/O (the WAL's writes and syncs) needs too: a receiver whose DNS hangs may hold at most this
 * many of those threads.
 */
const MAX_CONCURRENT_LOOKUPS = 2;
let lookupsRunning = 0;
const lookupQueue: (() => void)[] = [];

/** The operating system's resolver (getaddrinfo), all addresses in the order it returns them. */
export const systemLookup: LookupAll = async (hostname) => {
  // A finishing lookup hands its slot straight to the next one waiting.
  if (lookupsRunning < MAX_CONCURRENT_LOOKUPS) lookupsRunning++;
  else await new Promise<void>((resolve) => lookupQueue.push(resolve));
  try {
    return await dns.lookup(hostname, { all: true, verbatim: true });
  } finally {
    const next = lookupQueue.shift();
    if (next !== undefined) next();
    else lookupsRunning--;
  }
};

/** A delivery refused by the guard; `message` is user-facing and says how to allow it. */
export class WebhookAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookAddressError';
  }
}

const ALLOW_HINT = 'start the server with --allow-private-webhooks to allow it';

// ---- IPv4 ----------------------------------------------------------------------------------

/** [network, prefix length, kind]; the first match wins, so narrower ranges come first. */
const IPV4_RANGES: readonly [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments (DS-Lite, NAT64 discovery, …)
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'], // the deprecated 6to4 relay anycast
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['255.255.255.255', 32, 'broadcast'],
  ['240.0.0.0', 4, 'reserved'],
];

/** A dotted quad (already validated by net.isIPv4) as an unsigned 32-bit number. */
function ipv4Number(text: string): number {
  return text.split('.').reduce((value, part) => value * 256 + Number(part), 0);
}

function ipv4Text(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

const IPV4_TABLE = IPV4_RANGES.map(([network, bits, kind]) => {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { network: (ipv4Number(network) & mask) >>> 0, mask, kind };
});

function ipv4Kind(value: number): string | null {
  for (const range of IPV4_TABLE) {
    if (((value & range.mask) >>> 0) === range.network) return range.kind;
  }
  return null;
}

// ---- IPv6 ----------------------------------------------------------------------------------

/** An IPv6 address (validated by net.isIPv6, zone removed) as its eight 16-bit groups. */
function ipv6Groups(text: string): number[] {
  let hex = text;
  const lastColon = hex.lastIndexOf(':');
  if (hex.includes('.', lastColon)) {
    // A dotted IPv4 tail (::ffff:1.2.3.4) becomes the last two groups.
    const v4 = ipv4Number(hex.slice(lastColon + 1));
    hex = `${hex.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [left, right] = hex.split('::');
  const head = left === '' ? [] : left.split(':');
  const tail = right === undefined || right === '' ? [] : right.split(':');
  const zeros = right === undefined ? [] : new Array<string>(8 - head.length - tail.length).fill('0');
  return [...head, ...zeros, ...tail].map((group) => parseInt(group, 16));
}

/** Whether the first `bits` bits of `groups` equal those of `prefix` (given as groups). */
function hasPrefix(groups: number[], prefix: readonly number[], bits: number): boolean {
  for (let i = 0; bits > 0; i++, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    if ((groups[i] & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** [prefix groups, prefix length, kind]; narrower first. Checked after the embedded forms. */
const IPV6_RANGES: readonly [number[], number, string][] = [
  [[0, 0, 0, 0, 0, 0, 0, 0], 128, 'unspecified'],
  [[0, 0, 0, 0, 0, 0, 0, 1], 128, 'loopback'],
  [[0x0064, 0xff9b, 0x0001], 48, 'private'], // local-use NAT64 (RFC 8215)
  [[0x0100, 0, 0, 0], 64, 'reserved'], // discard-only
  [[0x2001, 0x0002, 0], 48, 'benchmarking'],
  [[0x2001, 0x0010], 28, 'reserved'], // ORCHID
  [[0x2001, 0x0020], 28, 'reserved'], // ORCHIDv2
  [[0x2001, 0x0db8], 32, 'documentation'],
  [[0x3fff], 20, 'documentation'],
  [[0xfc00], 7, 'private'], // unique local
  [[0xfe80], 10, 'link-local'],
  [[0xfec0], 10, 'site-local'],
  [[0xff00], 8, 'multicast'],
];

/** How an IPv6 address refers to an IPv4 one: [prefix, length, where the IPv4 sits, what it is]. */
const IPV4_EMBEDDINGS: readonly [number[], number, (g: number[]) => number, string][] = [
  [[0, 0, 0, 0, 0, 0xffff], 96, (g) => g[6] * 0x10000 + g[7], 'IPv4-mapped'],
  [[0x0064, 0xff9b, 0, 0, 0, 0], 96, (g) => g[6] * 0x10000 + g[7], 'NAT64'],
  [[0x2002], 16, (g) => g[1] * 0x10000 + g[2], '6to4'],
  // Teredo: the client's IPv4 address is stored with every bit inverted.
  [[0x2001, 0x0000], 32, (g) => (~(g[6] * 0x10000 + g[7])) >>> 0, 'Teredo'],
];

/** Why an IPv6 address is forbidden (a phrase with its article), or null when it is public. */
function ipv6Reason(groups: number[]): string | null {
  for (const [prefix, bits, kind] of IPV6_RANGES.slice(0, 2)) {
    if (hasPrefix(groups, prefix, bits)) return withArticle(kind);
  }
  for (const [prefix, bits, embedded, form] of IPV4_EMBEDDINGS) {
    if (!hasPrefix(groups, prefix, bits)) continue;
    const v4 = embedded(groups);
    const kind = ipv4Kind(v4);
    return kind === null ? null : `${withArticle(kind)} (IPv4 ${ipv4Text(v4)}, ${form})`;
  }
  for (const [prefix, bits, kind] of IPV6_RANGES.slice(2)) {
    if (hasPrefix(groups, prefix, bits)) return withArticle(kind);
  }
  // Only 2000::/3 is allocated for global unicast; everything else (IPv4-compatible ::/96,
  // SIIT ::ffff:0:0:0/96, 100::/8, …) is reserved, unassigned or special.
  if (!hasPrefix(groups, [0x2000], 3)) return withArticle('reserved');
  return null;
}

function withArticle(kind: string): string {
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} address`;
}

/**
 * Why `ip` may not receive webhooks without --allow-private-webhooks, as a phrase such as
 * "a private address" or "a loopback address (IPv4 127.0.0.1, IPv4-mapped)"; null when it is a
 * public address. Anything that is not a valid IP address is refused ("not an IP address").
 */
export function forbiddenAddressReason(ip: string): string | null {
  if (typeof ip !== 'string') return 'not an IP address';
  if (isIPv4(ip)) {
    const kind = ipv4Kind(ipv4Number(ip));
    return kind === null ? null : withArticle(kind);
  }
  const address = ip.split('%')[0]; // a zone (fe80::1%eth0) does not change the address
  if (isIPv6(address)) return ipv6Reason(ipv6Groups(address));
  return 'not an IP address';
}

/** True when `ip` is not a public unicast address (or not an IP address at all). */
export function isForbiddenAddress(ip: string): boolean {
  return forbiddenAddressReason(ip) !== null;
}

// ---- URLs and resolution -------------------------------------------------------------------

/** Checks a webhook URL as given by a user; errors are user-facing. */
export function parseWebhookUrl(text: string): { url: URL } | { error: string } {
  if (typeof text !== 'string' || text.length === 0) return { error: 'url must be an absolute http or https URL' };
  if (text.length > MAX_WEBHOOK_URL_LENGTH) {
    return { error: `url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { error: 'url must be an absolute http or https URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { error: 'url must be an absolute http or https URL' };
  }
  if (url.hostname === '') return { error: 'url must include a host name' };
  if (url.username !== '' || url.password !== '') {
    return { error: 'url must not contain a user name or password' };
  }
  return { url };
}

/** The host of a URL as an address or name: IPv6 literals lose their brackets. */
function urlHost(url: URL): string {
  const host = url.hostname;
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * The addresses a delivery to `url` may connect to, all checked, in resolver order. An IP literal
 * is checked as it is; a host name is resolved with `lookup` and every address it resolves to
 * must be allowed (one forbidden address refuses the host, so an attacker cannot mix a private
 * address into a public name's answer). With `allowPrivate` nothing is refused. Throws a
 * WebhookAddressError when refused, and a plain Error when the name does not resolve.
 */
export async function resolveDeliveryAddresses(
  url: URL,
  allowPrivate: boolean,
  lookup: LookupAll = systemLookup,
): Promise<{ address: string; family: 4 | 6 }[]> {
  const host = urlHost(url);
  const literal = isIP(host);
  if (literal !== 0) {
    const reason = allowPrivate ? null : forbiddenAddressReason(host);
    if (reason !== null) throw new WebhookAddressError(`webhook address ${host} is ${reason}; ${ALLOW_HINT}`);
    return [{ address: host, family: literal === 4 ? 4 : 6 }];
  }
  let answers: { address: string; family: number }[];
  try {
    answers = await lookup(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | null)?.code;
    const detail = code === 'ENOTFOUND' ? 'no such host' : code ?? (error instanceof Error ? error.message : String(error));
    throw new Error(`could not resolve webhook host ${host} (${detail})`);
  }
  if (!Array.isArray(answers) || answers.length === 0) {
    throw new Error(`could not resolve webhook host ${host} (no addresses)`);
  }
  const checked: { address: string; family: 4 | 6 }[] = [];
  for (const { address } of answers) {
    const family = isIP(address);
    if (family === 0) throw new Error(`could not resolve webhook host ${host} (invalid address ${address})`);
    const reason = allowPrivate ? null : forbiddenAddressReason(address);
    if (reason !== null) {
      throw new WebhookAddressError(`webhook host ${host} resolves to ${address}, ${reason}; ${ALLOW_HINT}`);
    }
    if (!checked.some((seen) => seen.address === address)) checked.push({ address, family: family === 4 ? 4 : 6 });
  }
  return checked;
}

/** The first of resolveDeliveryAddresses(): the one address a delivery would connect to first. */
export async function resolveDeliveryAddress(
  url: URL,
  allowPrivate: boolean,
  lookup: LookupAll = systemLookup,
): Promise<{ address: string; family: 4 | 6 }> {
  return (await resolveDeliveryAddresses(url, allowPrivate, lookup))[0];
}
