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
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['64:ff9b::', 96], // NAT64 of IPv4 addresses
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

/** IPv4 written inside IPv6 (::ffff:a.b.c.d, ::a.b.c.d): judged as the IPv4 address it carries. */
function embeddedIpv4(address: string): string | undefined {
  const match = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (match) return match[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Whether an IP address is one production mode must not call. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = net.isIP(bare);
  if (family === 4) return BLOCKED.check(bare, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(bare);
    return v4 !== undefined ? BLOCKED.check(v4, 'ipv4') : BLOCKED.check(bare, 'ipv6');
  }
  return true;
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
  if (host === 'localhost' || host.endsWith('.localhost')) throw refused(`${host} is a loopback name, refused in production mode`);
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
