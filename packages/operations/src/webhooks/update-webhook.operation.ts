import { updateWebhookInputSchema, webhookSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';

/** update_webhook: changes a subscription's URL or events, or turns its deliveries off or on. */
export const updateWebhookOperation = defineOperation({
  id: 'update_webhook',
  scopes: ['webhooks:manage'],
  access: 'write',
  input: updateWebhookInputSchema,
  output: webhookSchema,
  run: (input, { actor, domain }) => domain.webhooks.update(actor, input),
});
