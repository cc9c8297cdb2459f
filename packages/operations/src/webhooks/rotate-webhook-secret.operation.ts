import { rotatedWebhookSchema, rotateWebhookSecretInputSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';

/**
 * rotate_webhook_secret: gives a subscription a new signing secret, returned this once, while the old one keeps
 * signing for the overlap.
 */
export const rotateWebhookSecretOperation = defineOperation({
  id: 'rotate_webhook_secret',
  scopes: ['webhooks:manage'],
  access: 'write',
  input: rotateWebhookSecretInputSchema,
  output: rotatedWebhookSchema,
  run: (input, { actor, domain }) => domain.webhooks.rotateSecret(actor, input),
});
