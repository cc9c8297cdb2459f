import { webhookDeliverySchema, webhookRefInputSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';

/** send_webhook_test: sends a webhook.test event to one subscription, even a turned-off one, attempted once. */
export const sendWebhookTestOperation = defineOperation({
  id: 'send_webhook_test',
  scopes: ['webhooks:manage'],
  access: 'write',
  input: webhookRefInputSchema,
  output: webhookDeliverySchema,
  run: (input, { actor, domain }) => domain.webhookDeliveries.sendTest(actor, input),
});
