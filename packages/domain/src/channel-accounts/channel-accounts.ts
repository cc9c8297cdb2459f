import { z } from 'zod';
import type { Actor } from '../core/actor.ts';
import { type Page, pageInputShape } from '../core/paging.ts';
import { channelSchema } from '../listings/listings.ts';

/** How a channel account connects: API sync (no connector in this build), iCal calendars, or messages only. */
export const connectionTypes = ['api', 'ical', 'messaging_only'] as const;
/** One of {@link connectionTypes}. */
export type ConnectionType = (typeof connectionTypes)[number];

/** Health of a channel connection. Anything but `connected` means syncing has stopped or is failing. */
export const channelAccountStatuses = ['connected', 'needs_reauth', 'disconnected', 'error'] as const;
/** One of {@link channelAccountStatuses}. */
export type ChannelAccountStatus = (typeof channelAccountStatuses)[number];

/** Validates a channel account id. */
export const channelAccountIdSchema = z
  .string()
  .min(1)
  .max(64)
  .describe('Connected channel account id, e.g. cha_…');

/** A host's account on a booking channel (Airbnb, Vrbo, Booking.com) or the direct-booking channel. */
export const channelAccountSchema = z.object({
  id: z.string(),
  channel: channelSchema,
  displayName: z.string().describe('The name the host sees for this connection.'),
  externalAccountId: z.string().nullable().describe("The channel's own id for the host account."),
  email: z.string().nullable().describe('Login email of the channel account, when known.'),
  connectionType: z
    .enum(connectionTypes)
    .describe(
      'api (no connector in this build); ical (calendars both ways: channels poll calendarExportUrl, Innkeep ' +
        'polls calendarImport.url); messaging_only.',
    ),
  status: z
    .enum(channelAccountStatuses)
    .describe('connected; needs_reauth (the host must log in to the channel again); disconnected; error.'),
  lastSyncAt: z
    .string()
    .nullable()
    .describe(
      'Last successful calendar import of its listings (UTC ISO 8601); api connections: as recorded, not synced.',
    ),
  lastError: z.string().nullable().describe('What went wrong on the last failed sync; null when none.'),
  listingCount: z.number().describe('How many Innkeep listings are linked to this channel account.'),
  createdAt: z.string(),
});
/** A connected channel account. */
export type ChannelAccount = z.infer<typeof channelAccountSchema>;

/** Paging for {@link ChannelAccountUseCases.list}. */
export const listChannelAccountsInputSchema = z.object({ ...pageInputShape });
/** Input of {@link ChannelAccountUseCases.list}. */
export type ListChannelAccountsInput = z.input<typeof listChannelAccountsInputSchema>;

/** Reads the account's connected channel accounts. */
export interface ChannelAccountUseCases {
  /** Lists the connected channel accounts by display name. */
  list(actor: Actor, input: ListChannelAccountsInput): Promise<Page<ChannelAccount>>;
  /** One channel account; `not_found` for ids outside the account. */
  get(actor: Actor, channelAccountId: string): Promise<ChannelAccount>;
}
