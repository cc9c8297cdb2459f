import { BlockList, isIP } from 'node:net';

// The one list of addresses Innkeep never calls out to: webhook receivers (@innkeep/webhook-delivery) and
// client metadata documents (@innkeep/auth) are both checked against it after DNS resolution.
// Addresses that are not a public host on the internet (IANA special-purpose registries): this machine,
// private and carrier networks, link-local (cloud metadata services live at 169.254.169.254), documentation,
// multicast, reserved, and IPv6 forms that embed IPv4 addresses. IPv4-mapped IPv6 addresses (::ffff:a.b.c.d)
// are matched against the IPv4 rules by BlockList itself.
const specialUseAddresses = new BlockList();
for (const [network, prefix] of [
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
] as const) {
  specialUseAddresses.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  specialUseAddresses.addSubnet(network, prefix, 'ipv6');
}

/** Whether `address` (IPv4 or IPv6) is loopback, private, link-local or otherwise not a public host. */
export function isSpecialUseAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return specialUseAddresses.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
