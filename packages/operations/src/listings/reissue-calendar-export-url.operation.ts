import { listingChannelLinkSchema, reissueCalendarExportUrlInputSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';

/**
 * reissue_calendar_export_url: gives one channel link of a listing a new secret iCal URL; the old URL stops
 * working at once. REST only: the MCP tool count stays fixed, and the URL shows in the listing results.
 */
export const reissueCalendarExportUrlOperation = defineOperation({
  id: 'reissue_calendar_export_url',
  scopes: ['listings:write'],
  access: 'write',
  input: reissueCalendarExportUrlInputSchema,
  output: listingChannelLinkSchema,
  run: (input, { actor, domain }) => domain.listings.reissueCalendarExportUrl(actor, input),
});
