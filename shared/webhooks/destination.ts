import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { webhookSettings } from './settings';

/** Addresses no webhook may reach: private, loopback, link-local (the metadata endpoint), shared, multicast, reserved. */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) BLOCKED.addSubnet(network, prefix, 'ipv6');

/** Whether an address is one a webhook must never reach; an IPv4-mapped IPv6 address is judged as IPv4. */
export function isBlockedAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return BLOCKED.check(mapped, 'ipv4');
  return BLOCKED.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/** Why a URL may not receive webhooks, or undefined when it may. */
export function refusalOf(url: URL): string | undefined {
  if (webhookSettings.allowPrivateUrls) return undefined;
  if (url.protocol !== 'https:') return 'url must be an https URL';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'url must not point at a private, loopback or link-local address';
  if (isIP(host) && isBlockedAddress(host)) return 'url must not point at a private, loopback or link-local address';
  return undefined;
}

/**
 * Why a URL's host may not receive webhooks after resolving it, or undefined. A name that does not resolve
 * now is accepted (DNS can fail briefly); every delivery resolves it again.
 */
export async function resolvedRefusalOf(url: URL): Promise<string | undefined> {
  const refusal = refusalOf(url);
  if (refusal || webhookSettings.allowPrivateUrls || isIP(url.hostname.replace(/^\[|\]$/g, ''))) return refusal;
  const addresses = await lookup(url.hostname, { all: true }).catch(() => []);
  return addresses.some(({ address }) => isBlockedAddress(address)) ? 'url must not resolve to a private, loopback or link-local address' : undefined;
}

/**
 * The DNS lookup a delivery connects with: it resolves the name and refuses a blocked address in the same
 * step, so the address checked is the address connected to (DNS rebinding gets no second answer).
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { all: true, family: options.family as number | undefined }).then(
    (addresses) => {
      const refused = !webhookSettings.allowPrivateUrls && addresses.some(({ address }) => isBlockedAddress(address));
      if (refused || addresses.length === 0) {
        const error = Object.assign(new Error(`${hostname} resolves to a private, loopback or link-local address`), { code: 'EBLOCKEDADDRESS' });
        return callback(error, '', 4);
      }
      if (options.all) return (callback as unknown as (error: null, all: { address: string; family: number }[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    },
    (error: NodeJS.ErrnoException) => callback(error, '', 4),
  );
};
