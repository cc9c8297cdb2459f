import type { StoreDeps } from '../store-deps.ts';

/** What the stores that write messages to guests need besides the database and the clock. */
export interface MessageStoreDeps extends StoreDeps {
  /**
   * True when the server emails messages to direct guests (it has SMTP configured): only then are they
   * stored `queued`. Default false: every new message is stored `not_delivered`, with the reason.
   */
  readonly emailDelivery?: boolean | undefined;
}
