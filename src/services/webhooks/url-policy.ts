/**
 * Which webhook URLs the service will call (SSRF). Always: an absolute http(s) URL without
 * credentials. In production mode also: no loopback, link-local, private, shared, multicast or
 * otherwise reserved address, neither written in the URL nor resolved from its host name, unless
 * WEBHOOK_ALLOW_PRIVATE_URLS says so. The same address check runs again when a delivery connects
 * (guardedLookup), so a name that resolves elsewhere later (DNS rebinding) is refused then.
 */
import dns from 'node:dns';
import net from 'node:net';
import { DomainError } from '../../errors.js';

export const MAX_URL_LENGTH = 2048;

const BLOCKED = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv4');
}
// IPv6 forms that carry an IPv4 address (below) are judged by that address, not listed here.
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215)
  ['100::', 64], // discard-only
  ['2001:2::', 48], // benchmarking
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed inside some networks)
  ['ff00::', 8], // multicast
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a trailing dotted IPv4 as two groups); undefined when it is none. */
function ipv6Groups(address: string): number[] | undefined {
  if (net.isIPv6(address) === false) return undefined;
  let text = address.toLowerCase();
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[2]!.split('.').map(Number) as [number, number, number, number];
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  const groups = tail === undefined ? front : [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
  return groups.length === 8 ? groups : undefined;
}

const ipv4Of = (high: number, low: number): string => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * The IPv4 addresses an IPv6 address carries, to be judged as those: IPv4-compatible (::a.b.c.d,
 * ::/96), IPv4-mapped (::ffff:a.b.c.d) and -translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96),
 * 6to4 (2002::/16, the relay's IPv4 in bits 16-47) and Teredo (2001::/32: the server in bits 32-63,
 * the client's address inverted in the last 32 bits). Empty for any other address.
 */
export function embeddedIpv4(address: string): string[] {
  const g = ipv6Groups(address.replace(/^\[|\]$/g, ''));
  if (!g) return [];
  const zero = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  if (zero(0, 6) && !(g[6] === 0 && g[7]! <= 1)) return [ipv4Of(g[6]!, g[7]!)]; // ::a.b.c.d (not :: and ::1)
  if (zero(0, 5) && g[5] === 0xffff) return [ipv4Of(g[6]!, g[7]!)];
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return [ipv4Of(g[6]!, g[7]!)];
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return [ipv4Of(g[6]!, g[7]!)];
  if (g[0] === 0x2002) return [ipv4Of(g[1]!, g[2]!)];
  if (g[0] === 0x2001 && g[1] === 0) return [ipv4Of(g[2]!, g[3]!), ipv4Of(g[6]! ^ 0xffff, g[7]! ^ 0xffff)];
  return [];
}

/** Whether an IP address is one production mode must not call (anything that is no IP address is refused too). */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = net.isIP(bare);
  if (family === 4) return BLOCKED.check(bare, 'ipv4');
  if (family === 6) {
    const carried = embeddedIpv4(bare);
    return carried.length > 0 ? carried.some((v4) => BLOCKED.check(v4, 'ipv4')) : BLOCKED.check(bare, 'ipv6');
  }
  return true;
}

/**
 * Host names that name this machine whatever DNS says: `localhost` and its subdomains (RFC 6761),
 * with or without the trailing dot of a fully qualified name, and the loopback names of common
 * hosts files.
 */
export function isLoopbackName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || ['localhost.localdomain', 'ip6-localhost', 'ip6-loopback'].includes(name);
}

const refused = (message: string): DomainError => new DomainError('unprocessable', 'webhook_url_not_allowed', `url: ${message}`, { field: 'url' });

/** The URL's syntax rules, for every mode: a parsed absolute http(s) URL, or a 422 naming the rule. */
export function parseEndpointUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refused('must be an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refused('must be an absolute http:// or https:// URL');
  if (url.username !== '' || url.password !== '') throw refused('must not carry credentials (user:password@)');
  if (url.hash !== '') throw refused('must not have a fragment (#…)');
  return url;
}

/**
 * Checks an endpoint URL before it is stored. With private addresses refused, a host written as an
 * address is checked directly and a host name by every address it resolves to now; a name that does
 * not resolve yet is accepted (each delivery checks again when it connects).
 */
export async function checkEndpointUrl(text: string, allowPrivate: boolean): Promise<string> {
  const url = parseEndpointUrl(text);
  if (allowPrivate) return url.href;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) !== 0) {
    if (isPrivateAddress(host)) throw refused(`${host} is a loopback, link-local or private address, refused in production mode`);
    return url.href;
  }
  if (isLoopbackName(host)) throw refused(`${host} is a loopback name, refused in production mode`);
  const addresses = await dns.promises.lookup(host, { all: true }).catch(() => []);
  const blocked = addresses.find((a) => isPrivateAddress(a.address));
  if (blocked) throw refused(`${host} resolves to ${blocked.address}, a loopback, link-local or private address, refused in production mode`);
  return url.href;
}

/** The error a delivery reports when its host resolves to an address it may not call. */
export class BlockedAddressError extends Error {
  override readonly name = 'BlockedAddressError';
}

/**
 * A `lookup` for http.request that refuses blocked addresses: the check and the connection use the
 * same resolution, so there is no window for the name to move in between.
 */
export const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list = addresses as dns.LookupAddress[];
    const blocked = list.find((a) => isPrivateAddress(a.address));
    if (blocked) return callback(new BlockedAddressError(`${hostname} resolves to ${blocked.address}, a private address`), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    const first = list[0];
    if (!first) return callback(new BlockedAddressError(`${hostname} did not resolve`), '', 0);
    return callback(null, first.address, first.family);
  });
};
