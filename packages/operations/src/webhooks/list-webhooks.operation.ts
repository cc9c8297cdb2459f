import { listWebhooksInputSchema, webhookSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';
import { pageOutput } from '../page-output.ts';

/** list_webhooks: the account's webhook subscriptions, oldest first, without their secrets. */
export const listWebhooksOperation = defineOperation({
  id: 'list_webhooks',
  scopes: ['webhooks:manage'],
  access: 'read',
  input: listWebhooksInputSchema,
  output: pageOutput(webhookSchema),
  run: (input, { actor, domain }) => domain.webhooks.list(actor, input),
});
