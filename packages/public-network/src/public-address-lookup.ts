import { type LookupAddress, lookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isSpecialUseAddress } from '@innkeep/domain';

/**
 * Words the refusal of `address`, which `hostname` resolved to (the two are equal for an address written in
 * the URL). Each caller says what the host can change in its own terms (webhooks, calendars).
 */
export type RefusedAddressMessage = (hostname: string, address: string) => string;

/**
 * Raised by {@link publicAddressLookup} when a name resolves to a special-use address, so the connection is
 * never made; its message is the caller's {@link RefusedAddressMessage}, and names no more than the host.
 */
export class RefusedAddressError extends Error {}

/**
 * A `lookup` for `http(s).Agent` or request options that resolves like Node does (`dns.lookup`), then
 * refuses the name when any of its addresses is loopback, private, link-local or otherwise special-use
 * (`isSpecialUseAddress`), unless `allowPrivate` (tests and local development). Node calls it for every new
 * connection, after DNS, so a name that later resolves elsewhere (DNS rebinding) is caught on its next
 * connection. Node skips it for an address written in the URL: check those with `specialUseLiteralAddress`.
 */
export function publicAddressLookup(allowPrivate: boolean, refusal: RefusedAddressMessage): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      // Any special-use address refuses the name: Node may try the next address when one fails.
      const refused = allowPrivate
        ? undefined
        : addresses.find((entry) => isSpecialUseAddress(entry.address));
      if (refused !== undefined) {
        return callback(new RefusedAddressError(refusal(hostname, refused.address)), '', 0);
      }
      if (options.all === true) return callback(null, addresses);
      const first = addresses[0];
      if (first === undefined) return callback(new Error(`${hostname} resolves to no address.`), '', 0);
      return callback(null, first.address, first.family);
    });
  };
}
