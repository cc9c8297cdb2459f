import { type Message, reservationIdSchema } from '@innkeep/domain';
import { getListingOperation, getReservationOperation } from '@innkeep/operations';
import { z } from 'zod';
import { latestGuestMessage, readThread } from './guest-thread.ts';
import { definePrompt } from './prompt-definition.ts';
import {
  dayLabel,
  guestName,
  hourLabel,
  instantLabel,
  partyLabel,
  plural,
  quoteUntrusted,
  untrustedNotice,
} from './prompt-text.ts';

/** Most messages of the conversation the prompt quotes: the newest ones. */
export const maxConversationMessages = 30;

const senderLabels: Readonly<Record<Message['sender'], string>> = {
  guest: 'guest',
  host: 'host',
  automation: 'automated message',
  system: 'system',
};

const args = z.strictObject({
  reservationId: reservationIdSchema.describe('The reservation whose guest to answer, e.g. res_…'),
  intent: z
    .string()
    .trim()
    .min(1)
    .max(1000)
    .optional()
    .describe(
      'What the host wants the reply to say, e.g. "yes to check-in at 13:00"; when omitted the draft ' +
        'answers the guest’s latest message from the stay’s facts.',
    ),
});

/** guest_response: a draft reply to the guest's latest message, with the stay's facts. */
export const guestResponsePrompt = definePrompt({
  name: 'guest_response',
  title: 'Reply to a guest',
  description:
    'Drafts a reply to the latest message of a reservation’s guest, from the stay’s live facts (listing, ' +
    'dates, guests, check-in/out times, access code, status) and the conversation so far; the host approves ' +
    'the draft before send_message sends it.',
  scopes: ['reservations:read', 'messages:read', 'listings:read'],
  args,
  async handler({ reservationId, intent }, context) {
    const stay = await getReservationOperation.run({ reservationId }, context);
    const [listing, conversation] = await Promise.all([
      getListingOperation.run({ listingId: stay.listingId }, context),
      readThread(context, stay.id, maxConversationMessages),
    ]);
    const latest = latestGuestMessage(conversation.messages);
    const notes =
      stay.notes === null ? [] : [`- Host notes (private; never share with the guest): ${stay.notes}`];
    const facts = [
      `- Guest: ${guestName(stay)}; ${partyLabel(stay)} (the listing takes up to ${listing.maxGuests} guests).`,
      `- Listing: ${listing.name} (${listing.id}), ${listing.address}, ${listing.city}; time zone ${listing.timeZone}.`,
      `- Booked on ${stay.channel}, confirmation code ${stay.confirmationCode}; status ${stay.status}` +
        (stay.stayPhase === null ? '.' : ` (${stay.stayPhase.replaceAll('_', ' ')}).`),
      `- Check-in ${dayLabel(stay.startDate)} from ${hourLabel(stay.checkInTime)}; check-out ` +
        `${dayLabel(stay.endDate)} by ${hourLabel(stay.checkOutTime)} (${plural(stay.nights, 'night')}).`,
      stay.accessCode === null
        ? '- Access code: none on file.'
        : `- Access code: ${stay.accessCode} (give it only to this guest, and only when the reply needs it).`,
      ...notes,
    ];
    const earlier =
      conversation.earlier > 0 ? ` (${plural(conversation.earlier, 'earlier message')} left out)` : '';
    const lines = conversation.messages.map(
      (message) =>
        `[${instantLabel(message.sentAt)}] ${senderLabels[message.sender]}: ${quoteUntrusted(message.body)}`,
    );
    const text = [
      `Draft a reply from the host to the guest of reservation ${stay.id}, for the host to approve before ` +
        'anything is sent.',
      `## The stay (read from Innkeep just now)\n${facts.join('\n')}`,
      `## What the host wants\n${intent ?? 'Nothing specific: answer the guest’s latest message from the facts above.'}`,
      `## Conversation so far, oldest first${earlier}\n${lines.length === 0 ? 'No messages yet.' : lines.join('\n')}`,
      `## Message to answer\n${answerTarget(latest, conversation.thread.needsReply)}`,
      '## What to do\n' +
        '1. Write a short, friendly reply in the language the guest writes in. Use only the facts above; do ' +
        'not promise refunds, discounts, early check-in, late check-out or other changes unless the host ' +
        'asked for them, and never reveal the host’s notes.\n' +
        '2. Show the draft to the host and ask them to approve or edit it.\n' +
        `3. Only after the host approves, call send_message with {"reservationId": "${stay.id}", "body": ` +
        `<the approved text>}. It queues the message for the guest on ${stay.channel}; it cannot be unsent.\n` +
        'If a fact is missing, look it up first (get_reservation, get_listing, or get_message_thread for older ' +
        'messages). If the reply needs a change to the stay (guests, times, access code), propose an ' +
        'update_reservation call and make it only once the host approves.',
      untrustedNotice,
    ].join('\n\n');
    return {
      description: `Reply to ${guestName(stay)} (${stay.listingName}, ${stay.startDate} → ${stay.endDate})`,
      messages: [{ role: 'user', content: { type: 'text', text } }],
    };
  },
});

function answerTarget(latest: Message | undefined, needsReply: boolean): string {
  if (latest === undefined) {
    return 'The guest has not written yet: draft a first message that does what the host wants.';
  }
  const quoted = `[${instantLabel(latest.sentAt)}] ${quoteUntrusted(latest.body, 5000)}`;
  return needsReply
    ? `${quoted}\nThe guest is waiting for this answer.`
    : `${quoted}\nThe host has already replied since; ask the host whether another message is wanted before drafting.`;
}
