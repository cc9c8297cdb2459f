import type { Channel, ReservationStatus } from '@innkeep/domain';
import { monthNames, weekdayNames } from '@innkeep/domain';
import type { MessageRulesTable } from '@innkeep/storage';
import type { Insertable } from 'kysely';
import {
  duringStayQuestions,
  hostApologies,
  hostThanks,
  preArrivalQuestions,
  privateFeedbackNotes,
  reviewClosings,
  reviewComplaints,
  reviewOpenings,
  reviewPraise,
  thankYouNotes,
  thankYouReplies,
  tripPurposes,
} from './demo-catalog.ts';
import type {
  DemoAccountPlan,
  DemoMessageRule,
  DemoMessageRules,
  DemoSpan,
  ListingPlan,
} from './demo-model.ts';
import { type DemoRandom, type IdSource, weightTable } from './demo-random.ts';
import { dateOfDay, isoOf, monthOf, msPerHour, msPerMinute, weekdayOf, type ZoneTime } from './demo-time.ts';
import type { DemoRows } from './demo-writer.ts';

// Guest threads, automated messages and reviews. Hosts answer most messages within the hour, some hours
// later, overnight messages the next morning; replies that would fall after "now" are simply not there yet,
// which leaves a few recent threads waiting for an answer, as in any real inbox.

/** What a conversation needs to know of a reservation. */
export interface StayFacts {
  readonly id: string;
  readonly channel: Channel;
  readonly status: ReservationStatus;
  /** How it began: booked at once, requested, or asked about first. */
  readonly flow: 'instant' | 'request' | 'inquiry';
  readonly startDay: number;
  /** Check-out day. */
  readonly endDay: number;
  readonly createdAt: number;
  readonly confirmedAt: number | null;
  readonly declinedAt: number | null;
  readonly expiredAt: number | null;
  readonly cancelledAt: number | null;
  readonly guestFirstName: string;
  readonly party: number;
  readonly checkInTime: number;
  readonly checkOutTime: number;
  readonly accessCode: string | null;
}

/** Everything the message and review writers share for one listing. */
export interface ActivityContext {
  readonly span: DemoSpan;
  readonly account: DemoAccountPlan;
  readonly listing: ListingPlan;
  readonly zone: ZoneTime;
  readonly rng: DemoRandom;
  readonly ids: IdSource;
  readonly rows: DemoRows;
}

const ratingTable = weightTable([
  [5, 70],
  [4, 21],
  [3, 5.5],
  [2, 2],
  [1, 1.5],
]);
const categoryShift = weightTable([
  [0, 70],
  [1, 12],
  [-1, 15],
  [-2, 3],
]);
const reviewShare: Readonly<Record<Channel, number>> = {
  airbnb: 0.7,
  vrbo: 0.55,
  booking: 0.62,
  direct: 0.25,
};

/** The account's message rules: what they say, when they send, and which stays they cover. */
export function messageRuleRows(
  accountId: string,
  ids: IdSource,
  lockedListingIds: readonly string[],
  unlockedListingIds: readonly string[],
  createdAt: number,
): { rules: DemoMessageRules; rows: Insertable<MessageRulesTable>[] } {
  const rows: Insertable<MessageRulesTable>[] = [];
  const stamp = isoOf(createdAt);
  const add = (
    row: Pick<Insertable<MessageRulesTable>, 'name' | 'trigger' | 'offset_days' | 'send_time' | 'body'> &
      Partial<Insertable<MessageRulesTable>>,
  ): DemoMessageRule => {
    const id = ids.next('messageRule');
    rows.push({
      last_minute_body: null,
      listing_ids: null,
      channels: null,
      paused: false,
      paused_at: null,
      created_at: stamp,
      updated_at: stamp,
      ...row,
      id,
      account_id: accountId,
    });
    return {
      id,
      body: row.body,
      lastMinuteBody: row.last_minute_body ?? null,
      channels: (row.channels as Channel[] | null | undefined) ?? null,
      listingIds: row.listing_ids ? new Set(row.listing_ids) : null,
    };
  };
  const confirmation = add({
    name: 'Booking confirmation',
    trigger: 'booking_confirmed',
    offset_days: 0,
    send_time: null,
    body:
      'Hi {{guest_first_name}}, thank you for booking {{listing_name}}! We look forward to welcoming you on ' +
      '{{check_in_date}}. Check-in is from {{check_in_time}}; I will send arrival details the day before. ' +
      '– {{host_first_name}}',
  });
  const arrivalWithCode = add({
    name: 'Arrival instructions (smart lock)',
    trigger: 'check_in',
    offset_days: -1,
    send_time: '10:00',
    body:
      'Hi {{guest_first_name}}, we are all set for your arrival at {{listing_name}} tomorrow! Check-in is from ' +
      '{{check_in_time}} and your door code is {{access_code}}. Wi-Fi and parking details are in the house ' +
      'manual by the door. Safe travels!',
    last_minute_body:
      'Hi {{guest_first_name}}, welcome! You can check in at {{listing_name}} from {{check_in_time}}; your ' +
      'door code is {{access_code}}.',
    listing_ids: lockedListingIds.length > 0 ? [...lockedListingIds] : null,
  });
  const arrivalWithKeyBox = add({
    name: 'Arrival instructions (key box)',
    trigger: 'check_in',
    offset_days: -1,
    send_time: '10:00',
    body:
      'Hi {{guest_first_name}}, we are all set for your arrival at {{listing_name}} tomorrow! Check-in is from ' +
      '{{check_in_time}}. The key is in the key box next to the front door; I will text you its code in the ' +
      'morning.',
    last_minute_body:
      'Hi {{guest_first_name}}, welcome! You can check in at {{listing_name}} from {{check_in_time}}; the key ' +
      'is in the key box next to the front door.',
    listing_ids: unlockedListingIds.length > 0 ? [...unlockedListingIds] : null,
  });
  const checkoutReminder = add({
    name: 'Checkout reminder',
    trigger: 'check_out',
    offset_days: -1,
    send_time: '18:00',
    body:
      'Hi {{guest_first_name}}, a quick reminder that check-out is at {{check_out_time}} tomorrow. Please ' +
      'leave used towels in the bathroom and start the dishwasher. Thank you for staying with us!',
  });
  const reviewRequest = add({
    name: 'Review request',
    trigger: 'review_request',
    offset_days: 1,
    send_time: '11:00',
    body:
      'Hi {{guest_first_name}}, thank you again for staying at {{listing_name}}. If you enjoyed your stay, a ' +
      'review would mean a lot to us!',
    channels: ['airbnb', 'vrbo', 'booking'],
  });
  const cancellation = add({
    name: 'Cancellation note',
    trigger: 'cancelled',
    offset_days: 0,
    send_time: null,
    body:
      'Hi {{guest_first_name}}, your reservation at {{listing_name}} for {{check_in_date}} is cancelled. We ' +
      'hope to host you another time.',
  });
  // A rule the host tried and paused the same day: it never sent anything.
  add({
    name: 'Mid-stay check-in',
    trigger: 'during_stay',
    offset_days: 1,
    send_time: '12:00',
    body: 'Hi {{guest_first_name}}, just checking in: is everything good at {{listing_name}}?',
    paused: true,
    paused_at: new Date(createdAt + 3 * msPerHour),
    updated_at: isoOf(createdAt + 3 * msPerHour),
  });
  return {
    rules: {
      confirmation,
      arrivalWithCode,
      arrivalWithKeyBox,
      checkoutReminder,
      reviewRequest,
      cancellation,
    },
    rows,
  };
}

function formatDate(day: number, european: boolean): string {
  const dayOfMonth = Number(dateOfDay(day).slice(8, 10));
  const month = monthNames[monthOf(day)] ?? '';
  const weekday = weekdayNames[weekdayOf(day)] ?? '';
  return european ? `${weekday}, ${dayOfMonth} ${month}` : `${weekday}, ${month} ${dayOfMonth}`;
}

function formatHour(hour: number, european: boolean): string {
  if (european) return `${String(hour).padStart(2, '0')}:00`;
  const suffix = hour < 12 ? 'AM' : 'PM';
  return `${hour % 12 === 0 ? 12 : hour % 12} ${suffix}`;
}

/** Fills a rule's `{{variables}}` for one stay, as the message sender would. */
function render(context: ActivityContext, stay: StayFacts, text: string): string {
  const european = context.listing.city.currency === 'EUR';
  const values: Record<string, string> = {
    guest_first_name: stay.guestFirstName,
    listing_name: context.listing.name,
    check_in_date: formatDate(stay.startDay, european),
    check_in_time: formatHour(stay.checkInTime, european),
    check_out_time: formatHour(stay.checkOutTime, european),
    access_code: stay.accessCode ?? '',
    host_first_name: context.account.hostFirstName,
  };
  return text.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (_, name: string) => values[name] ?? '');
}

function ruleApplies(rule: DemoMessageRule, listingId: string, channel: Channel): boolean {
  return (
    (rule.listingIds === null || rule.listingIds.has(listingId)) &&
    (rule.channels === null || rule.channels.includes(channel))
  );
}

/** Local wall-clock hour of an instant. */
function localHour(zone: ZoneTime, instant: number): number {
  const day = zone.localDay(instant);
  return Math.floor((instant - zone.instant(day, 0)) / msPerHour);
}

/**
 * When the host answers a guest message sent at `sentAt`: most within the hour, some hours later, a few
 * the next day; a message sent overnight waits for the morning.
 */
function replyTime(context: ActivityContext, sentAt: number): number {
  const { rng, zone } = context;
  const roll = rng.next();
  let minutes: number;
  if (roll < 0.58) minutes = Math.min(59, 1 + rng.logNormal(9, 0.8));
  else if (roll < 0.82) minutes = Math.min(8 * 60, 60 + rng.logNormal(110, 0.7));
  else if (roll < 0.96) minutes = rng.int(8 * 60, 20 * 60);
  else minutes = rng.int(20 * 60, 40 * 60);
  // Whole seconds, as channels report them.
  const reply = sentAt + Math.round(minutes * 60) * 1000;
  const hour = localHour(zone, sentAt);
  if (hour >= 23 || hour < 7) {
    const morningDay = hour >= 23 ? zone.localDay(sentAt) + 1 : zone.localDay(sentAt);
    const morning = zone.instant(morningDay, 7 * 60 + 30 + rng.int(0, 90));
    return Math.max(reply, morning);
  }
  return reply;
}

/** Adds one message if it has already been sent by "now"; returns whether it was. */
function addMessage(
  context: ActivityContext,
  stay: StayFacts,
  message: { sender: 'guest' | 'host' | 'automation'; body: string; sentAt: number; ruleId?: string },
): boolean {
  if (message.sentAt > context.span.nowMs) return false;
  const { account, rng } = context;
  const author =
    message.sender === 'host'
      ? account.managerUserId !== null && rng.chance(0.4)
        ? account.managerUserId
        : account.ownerUserId
      : null;
  context.rows.messages.push({
    id: context.ids.next('message'),
    account_id: account.accountId,
    reservation_id: stay.id,
    sender: message.sender,
    body: message.body,
    sent_at: isoOf(message.sentAt),
    message_rule_id: message.ruleId ?? null,
    author_user_id: author,
    delivery_status:
      message.sender === 'guest'
        ? 'received'
        : message.sender === 'automation' && rng.chance(0.004)
          ? 'failed'
          : 'sent',
  });
  return true;
}

/** A guest message and, when the host has answered by now, the answer. */
function addExchange(
  context: ActivityContext,
  stay: StayFacts,
  question: string,
  answer: string,
  sentAt: number,
) {
  if (!addMessage(context, stay, { sender: 'guest', body: question, sentAt })) return;
  addMessage(context, stay, { sender: 'host', body: answer, sentAt: replyTime(context, sentAt) });
}

function automated(
  context: ActivityContext,
  stay: StayFacts,
  rule: DemoMessageRule,
  sentAt: number,
  body?: string,
) {
  if (!ruleApplies(rule, context.listing.id, stay.channel)) return;
  addMessage(context, stay, {
    sender: 'automation',
    body: render(context, stay, body ?? rule.body),
    sentAt,
    ruleId: rule.id,
  });
}

/** The message thread of one reservation, up to "now". */
export function addConversation(context: ActivityContext, stay: StayFacts): void {
  const { rng, zone, listing } = context;
  const rules = context.account.messageRules;
  const first = stay.guestFirstName;
  const host = context.account.hostFirstName;
  const cancelledAt = stay.cancelledAt ?? Number.POSITIVE_INFINITY;
  const dates = `${formatDate(stay.startDay, false)} to ${formatDate(stay.endDay, false)}`;
  const guestsWord = `${stay.party} ${stay.party === 1 ? 'guest' : 'guests'}`;

  // Before a booking the host's answer is what moved the status: it comes just before the
  // acceptance or the decline, or at the usual pace when the guest went quiet afterwards.
  const decidedAt = stay.confirmedAt ?? stay.declinedAt;
  if (stay.flow === 'inquiry') {
    const asked = `Hi ${host}, is ${listing.name} available from ${dates}? We would be ${guestsWord}.`;
    if (addMessage(context, stay, { sender: 'guest', body: asked, sentAt: stay.createdAt })) {
      const answer =
        stay.declinedAt !== null
          ? `Hi ${first}, thanks for reaching out! Unfortunately we cannot host you on those dates.`
          : `Hi ${first}, yes, those dates are open and I have pre-approved you. Let me know if you have any questions!`;
      const usual = replyTime(context, stay.createdAt);
      const repliedAt =
        decidedAt === null
          ? usual
          : Math.max(stay.createdAt + msPerMinute, Math.min(usual, decidedAt - msPerMinute));
      // Some inquiries expire because nobody answered them.
      if (stay.expiredAt === null || rng.chance(0.6)) {
        addMessage(context, stay, { sender: 'host', body: answer, sentAt: repliedAt });
      }
    }
  } else if (stay.flow === 'request') {
    const purpose = rng.pick(tripPurposes);
    const asked = `Hi ${host}! We would love to stay at ${listing.name}. We are ${purpose}.`;
    const answer =
      stay.declinedAt !== null
        ? `Hi ${first}, thank you for your request. I am sorry, but we cannot accept it for those dates.`
        : `Hi ${first}, happy to host you! Your booking is confirmed.`;
    const askedAt = stay.createdAt + msPerMinute;
    if (addMessage(context, stay, { sender: 'guest', body: asked, sentAt: askedAt }) && decidedAt !== null) {
      addMessage(context, stay, {
        sender: 'host',
        body: answer,
        sentAt: Math.max(askedAt, decidedAt) + msPerMinute,
      });
    }
  } else if (rng.chance(0.45)) {
    const purpose = rng.pick(tripPurposes);
    addExchange(
      context,
      stay,
      `Hi ${host}! We are ${purpose}. Looking forward to staying at ${listing.name}.`,
      `Hi ${first}, thank you for booking! Let me know if there is anything I can do to make your stay great.`,
      stay.createdAt + rng.int(2, 30) * msPerMinute,
    );
  }

  const confirmedAt = stay.confirmedAt;
  if (confirmedAt === null) return;
  if (rules) automated(context, stay, rules.confirmation, confirmedAt + rng.int(1, 4) * msPerMinute);

  if (stay.cancelledAt !== null) {
    if (rng.chance(0.4)) {
      const askedAt = Math.max(confirmedAt + msPerMinute, stay.cancelledAt - rng.int(5, 60) * msPerMinute);
      addExchange(
        context,
        stay,
        `Hi ${host}, unfortunately our plans changed and we have to cancel. Sorry for the trouble!`,
        `No problem at all, ${first}. I hope we can host you another time!`,
        askedAt,
      );
    }
    if (rules) automated(context, stay, rules.cancellation, stay.cancelledAt + 2 * msPerMinute);
    return;
  }

  const checkIn = zone.instant(stay.startDay, stay.checkInTime * 60);
  if (rng.chance(0.35)) {
    const { question, answer } = rng.pick(preArrivalQuestions);
    const day = stay.startDay - rng.int(1, 10);
    const askedAt = Math.max(confirmedAt + 20 * msPerMinute, zone.instant(day, rng.int(8 * 60, 22 * 60)));
    if (askedAt < checkIn && askedAt < cancelledAt) addExchange(context, stay, question, answer, askedAt);
  }
  if (rules) {
    const arrival = listing.lock ? rules.arrivalWithCode : rules.arrivalWithKeyBox;
    const scheduled = zone.instant(stay.startDay - 1, 10 * 60);
    if (confirmedAt <= scheduled) automated(context, stay, arrival, scheduled);
    else
      automated(
        context,
        stay,
        arrival,
        confirmedAt + 5 * msPerMinute,
        arrival.lastMinuteBody ?? arrival.body,
      );
  }
  const nights = stay.endDay - stay.startDay;
  if (rng.chance(0.12)) {
    const { question, answer } = rng.pick(duringStayQuestions);
    const day = stay.startDay + rng.int(0, nights - 1);
    const askedAt = Math.max(checkIn + 2 * msPerHour, zone.instant(day, rng.int(8 * 60, 22 * 60 + 30)));
    addExchange(context, stay, question, answer, askedAt);
  }
  if (rules) {
    const reminderAt = Math.max(checkIn + msPerHour, zone.instant(stay.endDay - 1, 18 * 60));
    automated(context, stay, rules.checkoutReminder, reminderAt);
  }
  if (rng.chance(0.18)) {
    const sentAt = zone.instant(stay.endDay, rng.int(stay.checkOutTime * 60, 15 * 60));
    if (
      addMessage(context, stay, { sender: 'guest', body: rng.pick(thankYouNotes), sentAt }) &&
      rng.chance(0.6)
    ) {
      addMessage(context, stay, {
        sender: 'host',
        body: rng.pick(thankYouReplies),
        sentAt: replyTime(context, sentAt),
      });
    }
  }
  if (rules) automated(context, stay, rules.reviewRequest, zone.instant(stay.endDay + 1, 11 * 60));
}

/**
 * A guest review for a completed stay, for about 60% of them, submitted days after check-out; hosts
 * answer most critical reviews and some good ones.
 */
export function addReview(context: ActivityContext, stay: StayFacts): void {
  const { rng, zone, listing, span } = context;
  if (stay.status !== 'accepted' || stay.endDay > span.todayDay) return;
  if (!rng.chance(reviewShare[stay.channel])) return;
  const delayDays = Math.min(14, Math.round(rng.logNormal(3, 0.8)));
  const submittedAt = zone.instant(stay.endDay + delayDays, rng.int(8 * 60, 22 * 60));
  if (submittedAt > span.nowMs) return;

  let overall = rng.fromTable(ratingTable);
  if (overall === 5 && listing.quality < 0.9 && rng.chance(0.25)) overall = 4;
  const category = () => Math.min(5, Math.max(1, overall + rng.fromTable(categoryShift)));
  const all = stay.channel === 'airbnb';
  const some = stay.channel === 'booking' || stay.channel === 'vrbo';
  const sentences: string[] = [rng.pick(reviewOpenings[overall - 1] ?? [''])];
  const praise = () => rng.pick(reviewPraise).replace('{highlight}', rng.pick(listing.city.highlights));
  if (overall >= 4) {
    sentences.push(praise());
    if (rng.chance(0.5)) sentences.push(praise());
    if (overall === 4 && rng.chance(0.4)) sentences.push(rng.pick(reviewComplaints));
    sentences.push(rng.pick(reviewClosings));
  } else {
    sentences.push(rng.pick(reviewComplaints));
    if (overall === 3) sentences.push(praise());
    else sentences.push(rng.pick(reviewComplaints));
  }
  const publicText = rng.chance(0.08) ? null : [...new Set(sentences)].filter(Boolean).join(' ');
  const answers = rng.chance(overall <= 3 ? 0.85 : 0.3);
  const respondedAt = submittedAt + Math.round(Math.min(7 * 24, rng.logNormal(10, 1)) * msPerHour);
  const responded = answers && publicText !== null && respondedAt <= span.nowMs;
  context.rows.reviews.push({
    id: context.ids.next('review'),
    account_id: context.account.accountId,
    listing_id: listing.id,
    reservation_id: stay.id,
    channel: stay.channel,
    overall_rating: overall,
    cleanliness_rating: all || some ? category() : null,
    accuracy_rating: all ? category() : null,
    check_in_rating: all || stay.channel === 'vrbo' ? category() : null,
    communication_rating: all || some ? category() : null,
    location_rating: all || some ? category() : null,
    value_rating: all || some ? category() : null,
    public_text: publicText,
    private_feedback: rng.chance(0.12) ? rng.pick(privateFeedbackNotes) : null,
    host_response: responded ? rng.pick(overall <= 3 ? hostApologies : hostThanks) : null,
    responded_at: responded ? new Date(respondedAt) : null,
    submitted_at: isoOf(submittedAt),
  });
}
