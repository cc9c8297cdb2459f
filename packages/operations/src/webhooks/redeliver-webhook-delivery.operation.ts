import { webhookDeliveryRefInputSchema, webhookDeliverySchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';

/** redeliver_webhook_delivery: sends a delivered or failed delivery again, on a new schedule, due now. */
export const redeliverWebhookDeliveryOperation = defineOperation({
  id: 'redeliver_webhook_delivery',
  scopes: ['webhooks:manage'],
  access: 'write',
  input: webhookDeliveryRefInputSchema,
  output: webhookDeliverySchema,
  run: (input, { actor, domain }) => domain.webhookDeliveries.redeliver(actor, input),
});
