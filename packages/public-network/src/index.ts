// The public surface of @innkeep/public-network: the checks that keep requests to addresses users gave
// (webhook receivers, channels' calendars) off loopback, private and other special-use addresses.

export type { RefusedAddressMessage } from './public-address-lookup.ts';
export { publicAddressLookup, RefusedAddressError } from './public-address-lookup.ts';
export { specialUseLiteralAddress } from './special-use-literal-address.ts';
