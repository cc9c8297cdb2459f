import { z } from 'zod';
import { defineOperation } from '../operation.ts';

/** delete_host_tools_webhook: removes the Host Tools URL; harmless when none is set. */
export const deleteHostToolsWebhookOperation = defineOperation({
  id: 'delete_host_tools_webhook',
  scopes: ['webhooks:manage'],
  access: 'write',
  input: z.object({}),
  output: z.object({
    deleted: z.boolean().describe('False when no URL was set, so nothing was deleted.'),
  }),
  run: (_input, { actor, domain }) => domain.webhooks.deleteHostToolsUrl(actor),
});
