import { listingChannelLinkSchema, setCalendarImportUrlInputSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';

/**
 * set_calendar_import_url: sets (or with null removes) the channel's own iCal URL a listing's channel link
 * polls for the channel's stays. REST only, like the export URL: a one-time setup step, and the MCP tool count
 * stays fixed; the import's health shows in the listing results.
 */
export const setCalendarImportUrlOperation = defineOperation({
  id: 'set_calendar_import_url',
  scopes: ['listings:write'],
  access: 'write',
  input: setCalendarImportUrlInputSchema,
  output: listingChannelLinkSchema,
  run: (input, { actor, domain }) => domain.listings.setCalendarImportUrl(actor, input),
});
