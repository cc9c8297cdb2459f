import { webhookRefInputSchema } from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

/** delete_webhook: deletes a subscription; deliveries to it stop at once. */
export const deleteWebhookOperation = defineOperation({
  id: 'delete_webhook',
  scopes: ['webhooks:manage'],
  access: 'write',
  input: webhookRefInputSchema,
  output: z.object({
    id: z.string().describe('Id of the deleted subscription.'),
    deleted: z.literal(true),
  }),
  run: (input, { actor, domain }) => domain.webhooks.delete(actor, input),
});
