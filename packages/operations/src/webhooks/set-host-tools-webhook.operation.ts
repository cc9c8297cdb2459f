import { setHostToolsWebhookInputSchema, webhookSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';

/** set_host_tools_webhook: sets (or replaces) the single URL that receives Host Tools-shaped deliveries. */
export const setHostToolsWebhookOperation = defineOperation({
  id: 'set_host_tools_webhook',
  scopes: ['webhooks:manage'],
  access: 'write',
  input: setHostToolsWebhookInputSchema,
  output: webhookSchema,
  run: (input, { actor, domain }) => domain.webhooks.setHostToolsUrl(actor, input),
});
