import { listWebhookDeliveriesInputSchema, webhookDeliverySchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';
import { pageOutput } from '../page-output.ts';

/** list_webhook_deliveries: a subscription's delivery log, newest first, with each delivery's last outcome. */
export const listWebhookDeliveriesOperation = defineOperation({
  id: 'list_webhook_deliveries',
  scopes: ['webhooks:manage'],
  access: 'read',
  input: listWebhookDeliveriesInputSchema,
  output: pageOutput(webhookDeliverySchema),
  run: (input, { actor, domain }) => domain.webhookDeliveries.listDeliveries(actor, input),
});
