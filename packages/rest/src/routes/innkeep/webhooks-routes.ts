import {
  createWebhookOperation,
  deleteWebhookOperation,
  listWebhookDeliveriesOperation,
  listWebhooksOperation,
  redeliverWebhookDeliveryOperation,
  rotateWebhookSecretOperation,
  sendWebhookTestOperation,
  updateWebhookOperation,
} from '@innkeep/operations';
import { defineRoute, type RestRoute } from '../../route-definition.ts';

/**
 * Webhook subscriptions: any number of URLs, each with its events and signing secret (the Host Tools
 * single URL of setWebhook is one of them, listed with format `hosttools`), and each one's delivery log.
 */
export const webhooksRoutes: readonly RestRoute[] = [
  defineRoute({
    operation: listWebhooksOperation,
    method: 'GET',
    path: '/listWebhookSubscriptions',
    summary: 'Lists the webhook subscriptions, oldest first, without their secrets.',
    description: 'A page of subscriptions with their events, state and failures, with nextCursor/hasMore.',
    tag: 'Webhooks',
    paging: 'page',
  }),
  defineRoute({
    operation: createWebhookOperation,
    method: 'POST',
    path: '/createWebhookSubscription',
    summary: 'Subscribes a URL to events (all of them unless events is given).',
    description: 'The subscription with its signing secret, shown this once: store it.',
    tag: 'Webhooks',
    successStatus: 201,
  }),
  defineRoute({
    operation: updateWebhookOperation,
    method: 'POST',
    path: '/updateWebhookSubscription/:webhookId',
    summary: 'Changes a subscription’s URL or events, or turns its deliveries off or on.',
    description: 'The subscription as changed (without its secret).',
    tag: 'Webhooks',
  }),
  defineRoute({
    operation: rotateWebhookSecretOperation,
    method: 'POST',
    path: '/rotateWebhookSecret/:webhookId',
    summary:
      'Gives a subscription a new signing secret; the old one keeps signing beside it for overlapHours ' +
      '(default 24, 0 to stop it at once).',
    description:
      'The subscription with its new secret, shown this once: store it. previousSecretExpiresAt says until ' +
      'when the old secret also signs; deliveries carry one v1 signature per secret meanwhile.',
    tag: 'Webhooks',
  }),
  defineRoute({
    operation: sendWebhookTestOperation,
    method: 'POST',
    path: '/testWebhookSubscription/:webhookId',
    summary:
      'Sends a webhook.test event to this subscription only, even while it is turned off; attempted once, ' +
      'never retried, and never counted as a failure of the subscription.',
    description:
      'The test delivery as listed, pending and due now; its outcome shows in listWebhookDeliveries.',
    tag: 'Webhooks',
  }),
  defineRoute({
    operation: deleteWebhookOperation,
    method: 'DELETE',
    path: '/deleteWebhookSubscription/:webhookId',
    summary: 'Deletes a subscription; deliveries to it stop at once.',
    description: 'The id of the deleted subscription and deleted: true.',
    tag: 'Webhooks',
  }),
  defineRoute({
    operation: listWebhookDeliveriesOperation,
    method: 'GET',
    path: '/listWebhookDeliveries',
    summary: 'Lists a subscription’s deliveries (webhookId), newest first.',
    description:
      'A page of deliveries with nextCursor/hasMore: each with its event id and kind, status, attempts, next ' +
      'attempt, and the last attempt’s time, status code, latency and error.',
    tag: 'Webhooks',
    paging: 'page',
  }),
  defineRoute({
    operation: redeliverWebhookDeliveryOperation,
    method: 'POST',
    path: '/redeliverWebhookDelivery',
    summary: 'Sends a delivered or failed delivery (deliveryId) again, due now with a new retry schedule.',
    description: 'The delivery as listed, pending again; 422 failed_precondition while it is still pending.',
    tag: 'Webhooks',
  }),
];
