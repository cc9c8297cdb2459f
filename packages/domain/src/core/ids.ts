import { randomBytes } from 'node:crypto';

/** Prefixes make ids self-describing in logs and support tickets (`lst_…` is a listing). */
export const idPrefixes = {
  account: 'acc',
  user: 'usr',
  channelAccount: 'cha',
  listing: 'lst',
  listingGroup: 'grp',
  block: 'blk',
  reservation: 'res',
  lineItem: 'lit',
  message: 'msg',
  messageRule: 'mru',
  pricingRule: 'pru',
  lock: 'lck',
  accessCode: 'acd',
  review: 'rev',
  helpArticle: 'hlp',
  webhook: 'whk',
  webhookEvent: 'evt',
  webhookDelivery: 'whd',
  apiKey: 'key',
} as const;

/** A kind of record that has an id. */
export type IdKind = keyof typeof idPrefixes;

const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';

/** Encodes 10 bytes as 16 characters of Crockford-style base32 (lower case, no i, l, o, u). */
export function encodeIdBytes(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

/** A new random id such as `lst_3k9x…`. */
export function newId(kind: IdKind): string {
  return `${idPrefixes[kind]}_${encodeIdBytes(randomBytes(10))}`;
}
