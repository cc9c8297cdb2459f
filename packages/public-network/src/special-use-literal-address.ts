import { isIP } from 'node:net';
import { isSpecialUseAddress } from '@innkeep/domain';

/**
 * The address written as `url`'s host when it is a special-use one (loopback, private, link-local…), without
 * the brackets of an IPv6 address; undefined for a public address or a name. Node connects to an address
 * written in the URL without any lookup, so `publicAddressLookup` never sees it: check it before connecting.
 */
export function specialUseLiteralAddress(url: URL): string | undefined {
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(literal) !== 0 && isSpecialUseAddress(literal) ? literal : undefined;
}
