import { createdWebhookSchema, createWebhookInputSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';

/** create_webhook: subscribes a URL to events and returns its signing secret, this once. */
export const createWebhookOperation = defineOperation({
  id: 'create_webhook',
  scopes: ['webhooks:manage'],
  access: 'write',
  input: createWebhookInputSchema,
  output: createdWebhookSchema,
  run: (input, { actor, domain }) => domain.webhooks.create(actor, input),
});
