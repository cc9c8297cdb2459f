import { getMessageThreadInputSchema, messageSchema, threadReservationSchema } from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import { pageOutput } from '../page-output.ts';
import { fetchPageThatFits, modelLimit } from '../read-paging.ts';

/** get_message_thread: a reservation's conversation with its guest. */
export const getMessageThreadOperation = defineOperation({
  id: 'get_message_thread',
  scopes: ['messages:read'],
  access: 'read',
  input: getMessageThreadInputSchema.extend({ limit: modelLimit('messages') }),
  output: z.object({
    reservation: threadReservationSchema.describe('The reservation the conversation belongs to.'),
    messages: pageOutput(messageSchema).describe('Messages, oldest first.'),
    needsReply: z.boolean().describe('True when the guest’s latest message is newer than the host’s latest.'),
    lastGuestMessageAt: z
      .string()
      .nullable()
      .describe('When the guest last wrote (UTC ISO 8601); null if they never did.'),
  }),
  run: (input, { actor, domain }) =>
    fetchPageThatFits(
      input.limit,
      (limit) => domain.messages.getThread(actor, { ...input, limit }),
      (thread) => thread.messages,
    ),
});
