// Help articles on dates, availability, prices and quotes.

import { defaultCalendarImportIntervalMinutes } from '../calendar-imports/calendar-imports.ts';
import type { HelpArticleSource } from './help.ts';

/** Listing-local dates, nights, check-out endDate, inclusive ranges and UTC timestamps. */
export const datesAndTimeZonesArticle: HelpArticleSource = {
  slug: 'dates-and-time-zones',
  title: 'Dates, nights and time zones',
  collection: 'getting-started',
  summary:
    "Stay dates are the listing's local YYYY-MM-DD dates, a night is named by the date it starts, and endDate is the check-out date; timestamps are UTC.",
  body: `## Stay dates are local to the listing

Every calendar and stay date is a plain \`YYYY-MM-DD\` date in the **listing's own time zone** (shown as
\`timeZone\` on the listing and the calendar). Dates are never converted to UTC, so a night in Lisbon stays the
same night wherever you or your assistant are.

- A **night** is named by the date it starts: the night of \`2026-03-10\` is the evening of 10 March to the
  morning of 11 March.
- A stay's \`startDate\` is the **check-in** date and its \`endDate\` is the **check-out** date. The check-out day
  is not a night of the stay.

Example: \`startDate 2026-03-10\`, \`endDate 2026-03-13\` is **3 nights** (10, 11 and 12 March). The same nights
are free again for a guest checking in on 13 March, so back-to-back stays fit without a gap.

## Ranges that name nights

Some inputs name the nights themselves rather than a stay, and then both ends are included:

- \`get_calendar\`: \`startDate\` and \`endDate\` are the first and last **dates returned** (at most 92 days).
- \`set_availability\`: \`endDate\` is the **last night** blocked or opened, not a check-out date. To block the
  nights of 10, 11 and 12 March, send \`startDate 2026-03-10\`, \`endDate 2026-03-12\`.
- Pricing rules: \`startDate\` and \`endDate\` are the first and last nights the rule applies to.

## "Today"

"Today" is the listing's local date at that moment. It decides which nights count as last-minute for pricing
rules, and prices and availability cannot be changed for nights before the listing's today. Listings in
different time zones can have different todays at the same moment. The \`daily_briefing\` prompt uses the
account's time zone.

## Times and timestamps

- Check-in and check-out times are **local hours**, 0–23 (for example 16 for 4 pm), set on the listing and
  optionally per reservation.
- Timestamps, such as when a reservation was created, a message sent or a review submitted, are **UTC** in
  ISO 8601 (\`2026-03-10T14:05:00.000Z\`). Convert them to local time for display.
- The validity window of a smart-lock access code (\`validFrom\`, \`validTo\`) is given as UTC timestamps too.
`,
};

/** Blocking and opening nights, per-date restrictions, and the no-double-booking guarantee. */
export const availabilityAndBlocksArticle: HelpArticleSource = {
  slug: 'availability-and-blocks',
  title: 'Availability, blocks and why double bookings cannot happen',
  collection: 'calendar-and-pricing',
  summary:
    'Block and open nights for owner stays, maintenance or anything else, set per-date stay restrictions, and how Innkeep rules out double bookings.',
  body: `Each night of a listing's calendar is **available**, **booked** (a reservation holds it) or **blocked**.
\`get_calendar\` shows the status of every night with the reservation or the block's reason and note.

## Blocking and opening nights

\`set_availability\` blocks or opens a range of nights of one listing:

- \`startDate\` and \`endDate\` are the **first and last nights** to change, both included (up to 1,125 nights at
  a time, none before the listing's today).
- \`available: false\` blocks the nights; \`available: true\` removes blocks from them.
- \`reason\` says why nights are blocked:
  - \`owner\`: the owner stays there;
  - \`maintenance\`: repairs, deep cleaning and the like;
  - \`manual\`: anything else (the default).
- \`note\` (up to 500 characters) is shown on the blocked nights.

Blocking never touches reservations: if any night of the range is booked, the whole request is refused with
a \`conflict\` naming the reservation, and nothing is blocked. Opening removes blocks only; nights a reservation
holds stay booked, and the answer lists them under \`stillBookedNights\`. Reservations are changed or cancelled
with the reservation tools instead.

## Channel calendars

Each listing's link to a channel account has two iCal calendars. Its **export** (\`calendarExportUrl\`, a secret
URL) lists the listing's booked and blocked nights without guest details; paste it into the channel's calendar
import and the channel closes those nights when it next polls. Its **import** is the channel's own export URL of
the listing, set with the REST call \`setCalendarImportUrl\`: Innkeep polls it (every ${defaultCalendarImportIntervalMinutes}
minutes unless the server says otherwise) and holds each stay in it as **blocked** nights with the reason
\`channel\`, moved or freed when the channel's calendar changes. \`set_availability\` cannot open those nights
(they are listed under \`stillBookedNights\`): change them on the channel.

A stay in the channel's calendar that clashes with a reservation or block here is not written over it: the
listing's \`calendarImport.conflicts\` lists it (and a \`calendar.import_conflict\` webhook event announces it
once), which usually means a double booking to sort out with the guest. A feed that cannot be read (a web page
instead of a calendar, a broken file, over 2 MiB, too slow, or at a private address) leaves the held nights as
they were and sets the import's \`status\` to \`error\` with the reason in \`lastError\`.

## Stay restrictions per date

With \`set_prices\` you can also set, for given dates:

- \`minNights\`: the minimum stay for guests **arriving** that day (null goes back to the listing's minimum);
- \`closedToArrival\`: no check-ins that day;
- \`closedToDeparture\`: no check-outs that day.

Quotes and bookings check these, together with the listing's maximum stay and guest count.

## No double bookings

Every live reservation and every block takes its nights in one place, and the database itself refuses two
holds on the same night of the same listing. This holds however many Innkeep servers run and however many
requests arrive at the same moment: of two overlapping bookings, or a booking and a block, only one can
succeed. The other is refused with a \`conflict\` that names the clashing dates and what holds them, and nothing
of it is written.
`,
};

/** How a night is priced: start price, pricing rules in order, minimum-price floor. */
export const pricingRulesArticle: HelpArticleSource = {
  slug: 'pricing-rules',
  title: 'How nightly prices are calculated: base price, overrides and pricing rules',
  collection: 'calendar-and-pricing',
  summary:
    "Each night's price is the base price or a per-date price, then your pricing rules in order, then the minimum-price floor; with a worked example.",
  body: `Innkeep's pricing is rule-based: you decide the rules, and every night's price follows from them the same way
each time. The calendar shows the result for each night (\`price\`) and which rules changed it
(\`appliedRuleIds\`), so you can always see why a night costs what it does.

## The calculation, for each night

1. **Start price**: the per-date price set for that night with \`set_prices\`, or else the listing's base price.
2. **Pricing rules**, in order (lower \`position\` first; a new rule goes after all existing ones). A rule
   changes the night when it is enabled, covers the listing, and **every** condition it has holds. Each rule
   works on the price left by the rules before it.
3. **Floor**: the result never goes below the listing's minimum price (\`minPrice\`), nor below zero.

## What a rule does

A rule makes one adjustment:

- **percent**: a signed percent of the price so far, from −90 to +500. \`15\` raises the price 15%; \`-10\`
  takes 10% off. Results are rounded to the cent (or the currency's smallest unit).
- **fixed**: a signed amount of the listing's currency, e.g. \`20\` adds 20.00 and \`-5\` takes 5.00 off.

## When a rule applies

A rule can have any of these conditions; with none, it applies to every night of its listings.

| Condition | The night must… |
|---|---|
| \`daysOfWeek\` | fall on one of these days (0 = Sunday … 6 = Saturday; a night is named by the date it starts, so Friday night is 5). |
| \`startDate\`, \`endDate\` | fall between these dates, both included. |
| \`lastMinuteDays\` | be between the listing's today and this many days ahead (0 = tonight only). |
| \`orphanGapMaxNights\` | be open and sit in a gap of at most this many nights between two booked or blocked nights. |

A rule applies to the listings in \`listingIds\`, or to every listing of the account, including future ones,
when \`listingIds\` is omitted.

## Example

Base price 100.00, minimum price 90.00, and two rules in this order:

1. "Weekend uplift": percent \`+20\`, \`daysOfWeek [5, 6]\` (Friday and Saturday nights).
2. "Last minute": fixed \`-10\`, \`lastMinuteDays 3\`.

| Night | Calculation | Price |
|---|---|---|
| Friday, 2 weeks ahead | 100 + 20% | 120.00 |
| Friday, tomorrow | 100 + 20% = 120, then − 10 | 110.00 |
| Tuesday, tomorrow | 100 − 10 = 90; floor 90 | 90.00 |
| Tuesday, with a per-date price of 80 | 80 − 10 = 70; floor 90 | 90.00 |

Order matters: with the two rules swapped, Friday tomorrow would be (100 − 10) + 20% = 108.00.

## Per-date and per-channel prices

\`set_prices\` sets a price for specific dates; pricing rules still apply on top of it, and \`null\` removes it.
A price set for one channel only (e.g. Airbnb) replaces the calculated price on that channel; the minimum
price still applies. Per-date minimum stays and closed arrival or departure days are set the same way.

## Tools and API

\`get_pricing_rules\` lists the rules in the order they apply, \`create_pricing_rule\` adds one at the end, and
\`get_calendar\` shows the resulting prices night by night. The \`pricing_review\` prompt proposes concrete
\`set_prices\` and \`create_pricing_rule\` changes for you to approve.

The REST API also changes and removes rules: \`POST /api/updatePricingRule/{ruleId}\` (the same checks as
creating one, on the rule as it would become), \`DELETE /api/deletePricingRule/{ruleId}\`, and
\`POST /api/reorderPricingRules\` with every rule id once, in the new order.
`,
};

/** How a quote adds up: accommodation, length-of-stay discount, fees and taxes. */
export const quotesAndDiscountsArticle: HelpArticleSource = {
  slug: 'quotes-and-discounts',
  title: 'Quotes, fees, taxes and length-of-stay discounts',
  collection: 'calendar-and-pricing',
  summary:
    'How a quote totals nightly prices, weekly (7+ nights) or monthly (28+ nights) discounts, cleaning and extra-guest fees and taxes, and why a quote can be refused.',
  body: `A quote (\`get_quote\`, with \`listingId\`, \`startDate\` = check-in, \`endDate\` = check-out and \`guests\`) prices a
stay exactly as a booking would be priced, in the listing's currency.

## How the total is built

1. **Accommodation**: the sum of the nightly prices of every night of the stay (each night priced as in
   *How nightly prices are calculated*). The quote lists each night's price under \`nightly\`.
2. **Length-of-stay discount**, a percent of accommodation set on the listing:
   - stays of **28 nights or more** get the **monthly** discount;
   - stays of **7 to 27 nights** get the **weekly** discount;
   - shorter stays get none. The two never add up: a 30-night stay gets only the monthly discount.
3. **Cleaning fee**: once per stay.
4. **Extra-guest fee**: per night, for each guest above the number included in the price
   (\`guestsIncluded\`).
5. **Taxes**: the listing's tax rate, as a percent of accommodation after the discount plus the fees.
6. **Total** = accommodation − discount + cleaning fee + extra-guest fee + taxes.

Amounts are exact to the cent and rounded half away from zero where a percent is taken. The \`lineItems\` add up
to the total; the discount line is negative, and zero lines are left out.

## Example

7 nights at 100.00, weekly discount 10%, cleaning fee 80.00, 4 guests with 2 included and an extra-guest fee
of 15.00, tax 12%:

| Line | Amount |
|---|---|
| Accommodation, 7 nights | 700.00 |
| Weekly discount (10%) | −70.00 |
| Cleaning fee | 80.00 |
| Extra-guest fee (2 × 7 nights × 15.00) | 210.00 |
| Tax (12% of 920.00) | 110.40 |
| **Total** | **1,030.40** |

## When a quote is refused

A quote is refused, with a message saying what to change, when the stay cannot be booked:

- the listing is disabled;
- the stay is shorter than the minimum stay for its arrival date (a per-date minimum, or the listing's) or
  longer than the listing's maximum; a stay can never exceed 1,125 nights;
- there are more guests than the listing takes;
- arrivals are closed on the check-in date, or departures on the check-out date;
- any night is already booked or blocked: a \`conflict\` that names the clashing reservations and blocks.

These are the same checks a booking goes through.
`,
};
