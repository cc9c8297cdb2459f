import type { DueMessageEmail } from '@innkeep/domain';

/** The addresses every message email is sent with. */
export interface MessageEmailAddresses {
  /** The `From` of every email, e.g. `"Seaside Stays" <stays@example.com>`. */
  readonly from: string;
  /** Where a guest's answer goes, when not to `from`. */
  readonly replyTo?: string | undefined;
}

/** One message as nodemailer sends it: plain text, to the guest. */
export interface MessageEmail {
  readonly from: string;
  readonly replyTo?: string;
  readonly to: { readonly name: string; readonly address: string };
  readonly subject: string;
  readonly text: string;
}

/**
 * The email of one claimed message to `guestEmail`: the subject names the listing and the stay, so the guest
 * knows which booking it is about; the text is the message's body as stored.
 */
export function messageEmail(
  message: DueMessageEmail,
  guestEmail: string,
  addresses: MessageEmailAddresses,
): MessageEmail {
  return {
    from: addresses.from,
    ...(addresses.replyTo === undefined ? {} : { replyTo: addresses.replyTo }),
    to: { name: message.guestName, address: guestEmail },
    subject: `Your stay at ${message.listingName}, ${message.startDate} to ${message.endDate}`,
    text: message.body,
  };
}
