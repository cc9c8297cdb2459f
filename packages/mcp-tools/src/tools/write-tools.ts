import type { ToolDefinition } from '../tool-definition.ts';
import { setAvailabilityTool } from './calendar/set-availability.tool.ts';
import { setPricesTool } from './calendar/set-prices.tool.ts';
import { updateListingTool } from './listings/update-listing.tool.ts';
import { sendMessageTool } from './messages/send-message.tool.ts';
import { cancelReservationTool } from './reservations/cancel-reservation.tool.ts';
import { createReservationTool } from './reservations/create-reservation.tool.ts';
import { updateReservationTool } from './reservations/update-reservation.tool.ts';
import { createMessageRuleTool } from './rules/create-message-rule.tool.ts';
import { createPricingRuleTool } from './rules/create-pricing-rule.tool.ts';
import { pauseMessageRuleTool } from './rules/pause-message-rule.tool.ts';

/** The write tools, in the order tools/list shows them. */
export const writeTools: readonly ToolDefinition[] = [
  sendMessageTool,
  setPricesTool,
  setAvailabilityTool,
  createReservationTool,
  updateReservationTool,
  cancelReservationTool,
  updateListingTool,
  createMessageRuleTool,
  pauseMessageRuleTool,
  createPricingRuleTool,
];
