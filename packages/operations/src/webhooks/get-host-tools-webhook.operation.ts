import { z } from 'zod';
import { defineOperation } from '../operation.ts';

/** get_host_tools_webhook: the single URL a Host Tools integration set, or null. */
export const getHostToolsWebhookOperation = defineOperation({
  id: 'get_host_tools_webhook',
  scopes: ['webhooks:manage'],
  access: 'read',
  input: z.object({}),
  output: z.object({
    webhookURL: z
      .string()
      .nullable()
      .describe('The URL receiving Host Tools-shaped deliveries; null when none is set.'),
  }),
  run: (_input, { actor, domain }) => domain.webhooks.getHostToolsUrl(actor),
});
