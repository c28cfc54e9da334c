import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * The one guard of every request the API sends to a URL someone else chose (a webhook's, an automation step's, a client
 * ID metadata document's): what may be reached before the host is resolved, and the DNS lookup the connection itself
 * uses, so the address checked is the address connected to.
 */

type Subnet = readonly [network: string, prefix: number];

function subnets(list: readonly Subnet[], family: 'ipv4' | 'ipv6'): BlockList {
  const blocks = new BlockList();
  for (const [network, prefix] of list) blocks.addSubnet(network, prefix, family);
  return blocks;
}

/**
 * IPv4 never reached: every block of IANA's special-purpose registry that is not globally reachable unicast. Private,
 * loopback, link-local (the metadata endpoint), "this network", shared (carrier-grade NAT), IETF protocol assignments,
 * documentation (TEST-NET-1/2/3), the 6to4 relay, benchmarking, multicast, reserved and broadcast.
 */
const BLOCKED_IPV4: readonly Subnet[] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

/**
 * IPv6 may reach only global unicast (2000::/3): that leaves out loopback, unspecified, IPv4-compatible (::/96),
 * NAT64 (64:ff9b::/96, which would reach IPv4 through a translator), discard, unique-local (fc00::/7), link-local
 * and multicast. Within it, these are not globally reachable unicast: IETF protocol assignments with Teredo
 * (2001::/23), documentation (2001:db8::/32, 3fff::/20) and 6to4 (2002::/16, which embeds an IPv4 address).
 */
const GLOBAL_UNICAST_IPV6: readonly Subnet[] = [['2000::', 3]];
const BLOCKED_IPV6: readonly Subnet[] = [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
];

let blockLists: { blockedIPv4: BlockList; globalUnicastIPv6: BlockList; blockedIPv6: BlockList } | undefined;

/** The lists as the runtime checks them, made on the first address checked: most functions that hold this module check none. */
const lists = () =>
  (blockLists ??= { blockedIPv4: subnets(BLOCKED_IPV4, 'ipv4'), globalUnicastIPv6: subnets(GLOBAL_UNICAST_IPV6, 'ipv6'), blockedIPv6: subnets(BLOCKED_IPV6, 'ipv6') });

/** An IPv6 address as URLs write it: lower case, hex, zeros compressed (::ffff:127.0.0.1 is ::ffff:7f00:1); undefined if it is none. */
function canonicalIPv6(address: string): string | undefined {
  const url = `http://[${address}]`;
  return URL.canParse(url) ? new URL(url).hostname.slice(1, -1) : undefined;
}

/** The IPv4 address an IPv4-mapped IPv6 address (::ffff:0:0/96) stands for. */
function mappedIPv4(canonical: string): string | undefined {
  const [, high, low] = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical) ?? [];
  if (high === undefined || low === undefined) return undefined;
  const [a, b] = [parseInt(high, 16), parseInt(low, 16)];
  return [a >> 8, a & 255, b >> 8, b & 255].join('.');
}

/**
 * Whether an address is one never to reach: anything but globally routable unicast. An IPv4-mapped IPv6 address,
 * however written, is judged as its IPv4 address; what is not an IP address is refused.
 */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  const { blockedIPv4, globalUnicastIPv6, blockedIPv6 } = lists();
  if (family === 4) return blockedIPv4.check(address, 'ipv4');
  const canonical = family === 6 ? canonicalIPv6(address) : undefined;
  if (canonical === undefined) return true;
  const mapped = mappedIPv4(canonical);
  if (mapped) return blockedIPv4.check(mapped, 'ipv4');
  return !globalUnicastIPv6.check(canonical, 'ipv6') || blockedIPv6.check(canonical, 'ipv6');
}

/**
 * A host as DNS means it, for every check: lower case, without the trailing dots of a fully qualified name
 * (`LOCALHOST.` is `localhost`, `10.0.0.1..` is `10.0.0.1`) and without an IPv6 literal's brackets. What is
 * left is read as a URL's host again, so an IPv4 address the dots hid, in any form (`0x7f.1..`), reads as one.
 */
export function canonicalHost(hostname: string): string {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  const reparsed = URL.canParse(`http://${name}`) ? new URL(`http://${name}`).hostname : name;
  return reparsed.replace(/^\[|\]$/g, '');
}

/**
 * What a caller may reach beyond the public internet. `local`: plain http, and hosts on this machine or a private
 * network (a developer's receiver under `npm start`, the tests' hosts); never deployed. Each caller decides it: for
 * every URL from one switch (webhooks), or for the hosts a test names (client documents).
 */
export interface OutboundReach {
  local: boolean;
}

/** Why a URL is refused: not https, a host that is an address never reached (or localhost), or a name resolving to one. */
export type OutboundRefusal = 'NOT_HTTPS' | 'PRIVATE_HOST' | 'RESOLVES_PRIVATE';

/** Why a URL may not be reached, judged before its host is resolved, or undefined when it may. */
export function refusalBeforeLookup(url: URL, reach: OutboundReach): OutboundRefusal | undefined {
  if (reach.local) return undefined;
  if (url.protocol !== 'https:') return 'NOT_HTTPS';
  const host = canonicalHost(url.hostname);
  if (host === 'localhost' || host.endsWith('.localhost')) return 'PRIVATE_HOST';
  return isIP(host) && isBlockedAddress(host) ? 'PRIVATE_HOST' : undefined;
}

/** How names are resolved: every address of the name (of one family when asked). A seam for the tests, which have no DNS of their own. */
export const outboundDns = {
  resolve: (hostname: string, family?: number): Promise<LookupAddress[]> => lookup(hostname, { all: true, family: family ?? 0 }),
};

/**
 * Why a URL may not be reached after resolving its host now, or undefined: for a URL being saved. A name that does
 * not resolve now is accepted (DNS can fail briefly); every request resolves it again as it connects.
 */
export async function refusalAfterLookup(url: URL, reach: OutboundReach): Promise<OutboundRefusal | undefined> {
  const refusal = refusalBeforeLookup(url, reach);
  const host = canonicalHost(url.hostname);
  if (refusal || reach.local || isIP(host)) return refusal;
  const addresses = await outboundDns.resolve(host).catch(() => []);
  return addresses.some(({ address }) => isBlockedAddress(address)) ? 'RESOLVES_PRIVATE' : undefined;
}

/** A connection refused by the guard's lookup: its name has no address, or one never reached. */
export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKEDADDRESS';
  constructor(hostname: string) {
    super(`${hostname} resolves to a private, loopback or link-local address`);
  }
}

/**
 * The DNS lookup a request connects with: it resolves the name (as `canonicalHost` writes it) and refuses the name if
 * any address is one never reached (the connection may use any of them), in the same step, so the address checked
 * is the address connected to (DNS rebinding gets no second answer).
 */
export const guardedLookup =
  (reach: OutboundReach): LookupFunction =>
  (hostname, options, callback) => {
    outboundDns.resolve(canonicalHost(hostname), options.family as number | undefined).then(
      (addresses) => {
        if (addresses.length === 0 || (!reach.local && addresses.some(({ address }) => isBlockedAddress(address)))) return callback(new BlockedAddressError(hostname), '', 4);
        if (options.all) return (callback as unknown as (error: null, all: LookupAddress[]) => void)(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };

/** Thrown by `outboundRequest` for a URL refused before its host is resolved: a caller checks first and words why. */
export class OutboundRefusedError extends Error {
  constructor(readonly refusal: OutboundRefusal) {
    super(`The request was refused by the outbound guard (${refusal})`);
  }
}

/**
 * Opens a request to a URL under the guard, the only way the API reaches a URL someone else chose: refused before the
 * host is resolved (OutboundRefusedError), or connected through `guardedLookup`.
 */
export function outboundRequest(url: URL, reach: OutboundReach, options: RequestOptions, onAnswer: (answer: IncomingMessage) => void): ClientRequest {
  const refusal = refusalBeforeLookup(url, reach);
  if (refusal) throw new OutboundRefusedError(refusal);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return send(url, { ...options, lookup: guardedLookup(reach) }, onAnswer);
}
