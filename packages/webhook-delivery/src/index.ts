// Innkeep's webhook sender: signing, the body by subscription format, one attempt over HTTP to a public
// receiver, and the tick that drives the delivery queue. The queue itself (SQL) is given to it as the domain port.

export type { RunWebhookDeliveriesOptions, WebhookDeliveryTick } from './run-webhook-deliveries.ts';
export { runWebhookDeliveries } from './run-webhook-deliveries.ts';
export type { SendWebhookOptions } from './send-webhook.ts';
export { maxWebhookAnswerBytes, sendWebhook, webhookTimeoutMs, webhookUserAgent } from './send-webhook.ts';
export type { VerifyWebhookSignatureOptions } from './sign-webhook.ts';
export { signWebhook, verifyWebhookSignature } from './sign-webhook.ts';
export type { HostToolsBodyReader, HostToolsWebhookBody } from './webhook-body.ts';
export { webhookBody } from './webhook-body.ts';
