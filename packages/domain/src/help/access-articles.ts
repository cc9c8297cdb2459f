// Help articles on access: assistants, OAuth, REST credentials, limits, errors, webhooks, subscriptions.

import { pageLimits } from '../core/paging.ts';
import { assistantAccessLifetimes } from '../identity/assistant-access.ts';
import type { HelpArticleSource } from './help.ts';

const { accessTokenSeconds, refreshTokenDays, grantDays } = assistantAccessLifetimes;
const accessTokenMinutes = accessTokenSeconds / 60;

/** Connecting an MCP client (OAuth discovery, consent, owner-only) and disconnecting it. */
export const connectAnAiAssistantArticle: HelpArticleSource = {
  slug: 'connect-an-ai-assistant',
  title: 'Connect an AI assistant to Innkeep',
  collection: 'ai-assistants',
  summary:
    'Add Innkeep to Claude, ChatGPT, Cursor or any MCP client with one URL, approve access, and disconnect again.',
  body: `Innkeep has a tool server for AI assistants that speak the Model Context Protocol (MCP). Once connected, an
assistant can read your listings, calendars, reservations, messages and reviews, answer questions such as "how
did March go?", and (if you allow it) reply to guests or change prices.

## What you need

- The **MCP URL**: \`{base_url}/mcp\`, where \`{base_url}\` is the address you open Innkeep at. If Innkeep runs at
  \`https://innkeep.example.com\`, the URL is \`https://innkeep.example.com/mcp\`; on a laptop install it is
  \`http://localhost:3000/mcp\`.
- To be the **account owner**. Team members (sub-users) cannot connect an assistant to the owner's account:
  their tokens are refused with \`invalid_token\`. A team member who wants an assistant connects it to their own
  Innkeep account.
- A subscription in good standing (\`trialing\` or \`active\`).

You do not need a client id, a client secret or an API key.

## Connect

1. In your assistant, add a custom connector or remote MCP server, and paste the MCP URL.
2. The client finds everything else by itself (OAuth discovery): it reads
   \`/.well-known/oauth-protected-resource/mcp\` to learn which authorization server protects \`/mcp\`, then
   \`/.well-known/oauth-authorization-server\`, registers itself at \`/oauth/register\`, and opens Innkeep's
   consent page.
3. Sign in to Innkeep and review what the assistant asks for. Each permission is a scope such as
   \`reservations:read\` or \`messages:write\` (see *OAuth scopes*). Approve to finish.
4. The client exchanges the authorization code for tokens (PKCE with S256) and is ready.

Access tokens last ${accessTokenMinutes} minutes and refresh tokens ${refreshTokenDays} days; clients refresh in the
background, and each refresh issues a new refresh token. A client that stays unused for more than
${refreshTokenDays} days has to be connected again.

**A connection lasts ${grantDays} days.** However often the assistant is used, what you approved ends
${grantDays} days after you first approved it: the assistant can no longer refresh its tokens, its requests are
refused once its last access token expires, and you connect it again (the steps above) to go on.

## What the assistant gets

- **49 tools**, always all listed: 39 that read (for example \`list_listings\`, \`get_calendar\`,
  \`get_reservations\`, \`get_quote\`, and analytics such as \`get_headline_kpis\`) and 10 that change things
  (for example \`send_message\` and \`set_prices\`). A tool outside the scopes you granted answers with an
  \`insufficient_scope\` error; connect again and approve the missing scope to use it.
- **2 resources**, \`service://user\` and \`service://listings\`, plus templates for a single listing, a listing's
  calendar and a single reservation.
- **3 prompts**: \`daily_briefing\` (check-ins, check-outs, turnovers, unanswered messages and open gaps of a
  day), \`guest_response\` (drafts a reply to a guest's latest message) and \`pricing_review\` (proposes price and
  rule changes for you to approve).

Two checks run on every request, not only when you connect: the token must belong to the account owner, and
the subscription must be in good standing. If the subscription lapses, requests are refused with
\`subscription_inactive\` until it is back in good standing; nothing has to be reconnected.

## Disconnect

Remove the connector in your assistant's settings. Clients that support token revocation revoke their tokens
at \`/oauth/token/revoke\` when you do. A refresh token that is never used again expires after
${refreshTokenDays} days, and an access token after ${accessTokenMinutes} minutes.
`,
};

/** Every OAuth scope and the scopes each tool and resource needs. */
export const oauthScopesArticle: HelpArticleSource = {
  slug: 'oauth-scopes',
  title: 'OAuth scopes and what each tool needs',
  collection: 'ai-assistants',
  summary:
    'The scopes you can grant an assistant or an OAuth app, what each allows, and which scopes every tool requires.',
  body: `When an assistant or app connects with OAuth, you approve a set of **scopes**. Scopes are checked each time a
tool or operation runs. Every tool stays listed whatever you granted; calling one outside the grant returns an
\`insufficient_scope\` error naming the scope that is missing. To grant more, connect the client again.

## Scopes

| Scope | Grants |
|---|---|
| \`listings:read\`, \`listings:write\` | read, update listing details |
| \`reservations:read\`, \`reservations:write\` | read reservations; create, update, cancel them |
| \`calendar:read\`, \`calendar:write\` | read, update availability and prices |
| \`messages:read\`, \`messages:write\` | read message threads and response times; send messages to guests |
| \`messageRules:read\`, \`messageRules:write\` | read, manage automated message rules |
| \`pricing:read\`, \`pricing:write\` | read, create pricing rules |
| \`listingGroups:read\`, \`listingGroups:write\` | read, manage listing groups and owner import links |
| \`locks:read\`, \`locks:write\` | read, manage smart lock settings |
| \`reviews:read\` | read guest reviews and review figures |
| \`accounts:read\` | read connected channel accounts |
| \`user:read\` | read the user's profile |
| \`help:read\` | read the service's help-center articles |
| \`webhooks:manage\` | create and manage webhook subscriptions |

## Scopes per tool

A tool needs all the scopes in its row.

| Tools | Scopes |
|---|---|
| \`list_listings\`, \`get_listing\` | \`listings:read\` |
| \`get_calendar\`, \`get_quote\`, \`get_pricing_stats\` | \`calendar:read\` |
| \`get_reservations\`, \`get_reservation\`, \`get_upcoming_reservations\`, \`get_check_ins_check_outs\`, \`get_booking_pattern_stats\`, \`get_cancellation_stats\`, \`get_reservation_status_stats\`, \`get_channel_performance\`, \`get_pace_stats\`, \`get_revenue_stats\`, \`get_adr_stats\`, \`get_turnover_stats\` | \`reservations:read\` |
| \`get_headline_kpis\`, \`get_occupancy_stats\`, \`get_revpar_stats\`, \`get_timeseries_stats\`, \`get_listing_breakdown_stats\`, \`get_gap_analysis\` | \`reservations:read\` and \`calendar:read\` |
| \`get_message_thread\`, \`get_response_time_stats\`, \`get_response_time_breakdown\` | \`messages:read\` |
| \`get_message_rules\` | \`messageRules:read\` |
| \`get_pricing_rules\` | \`pricing:read\` |
| \`get_reviews\`, \`get_review_stats\`, \`get_review_analytics\` | \`reviews:read\` |
| \`list_accounts\`, \`get_account\` | \`accounts:read\` |
| \`get_user\` | \`user:read\` |
| \`list_help_articles\`, \`get_help_article\` | \`help:read\` |
| \`list_listing_groups\` | \`listingGroups:read\` |
| \`collect_date_range\`, \`get_metric_definitions\` | none |
| \`send_message\` | \`messages:write\` |
| \`set_prices\`, \`set_availability\` | \`calendar:write\` |
| \`create_reservation\`, \`update_reservation\`, \`cancel_reservation\` | \`reservations:write\` |
| \`update_listing\` | \`listings:write\` |
| \`create_message_rule\`, \`pause_message_rule\` | \`messageRules:write\` |
| \`create_pricing_rule\` | \`pricing:write\` |

Resources follow the same rules: \`service://user\` needs \`user:read\`; \`service://listings\` and the listing
template need \`listings:read\`; the calendar template needs \`calendar:read\`; the reservation template needs
\`reservations:read\`.

On the REST API, an OAuth Bearer token needs the scope of the operation it calls. \`authToken\` credentials are
not limited by scopes; they act with the role of the user they belong to.

## Granting little

Grant what the assistant needs for the job: an assistant that only reports on performance needs
\`reservations:read\` and \`calendar:read\`. Write scopes let it change live data that guests and channels see.
`,
};

/** REST credentials: authToken, partner apiKey and OAuth Bearer tokens. */
export const restApiAuthenticationArticle: HelpArticleSource = {
  slug: 'rest-api-authentication',
  title: 'Authenticate to the REST API (authToken, apiKey, Bearer)',
  collection: 'api-and-integrations',
  summary:
    'Generate an authToken at the bottom of Settings, send it in the authToken header, add an apiKey if you are a partner, or use an OAuth Bearer token.',
  body: `The REST API lives under \`{base_url}/api/\` (for example \`https://innkeep.example.com/api/getListings\`), with one
endpoint per operation. Send \`accept: application/json\` and one of the credentials below, and request bodies
as JSON (\`content-type: application/json\`). Answers are always JSON, errors and unknown paths included, never
an HTML page.

Every operation, with its parameters, answers, errors and the scopes it needs, is described in an OpenAPI 3.1
document at \`{base_url}/api/openapi.json\` and on a reference page at \`{base_url}/api/docs\`; neither needs a
credential. The Host Tools operations (\`getListings\`, \`getReservations\`, \`setPrices\` …) keep Host Tools'
paths, bodies and answers, so an existing Host Tools integration works with only its base URL changed. Operation
names match in any letter case (\`/api/getlistings\` works) and a trailing slash is ignored.

## authToken

Each user has one authToken. It selects the account and acts as that user.

1. Open **Settings** and scroll to the bottom.
2. Generate the token and copy it right away: it is **shown once**. Innkeep keeps only a hash of it, so
   nobody can show it to you again.
3. Send it on every call in the \`authToken\` header:

\`\`\`sh
curl -H 'accept: application/json' -H 'authToken: <your authToken>' '{base_url}/api/getListings'
\`\`\`

Generating a new token **revokes the old one at once**: update every integration that used it. Do the same if
the token may have leaked.

Team members (sub-users) can have their own authToken, which works on the account they belong to, with their
role: owners and managers can read and change data, viewers can only read.

On a self-hosted install the operator can also print a new token for a user with
\`npm run innkeep -- new-auth-token --email <email>\` (this too revokes the old one).

## apiKey (partners)

Approved partners receive an \`apiKey\`. It does not select an account on its own: send it **together with** an
authToken in the \`apiKey\` header. It raises the rate limit from 120 to 1,200 requests a minute (see
*Rate limits*). Ask support for a key; on a self-hosted install the operator issues one with
\`npm run innkeep -- issue-api-key --partner <name>\`, and it is printed once.

\`\`\`sh
curl -H 'authToken: <authToken>' -H 'apiKey: <apiKey>' '{base_url}/api/getReservations/<listingId>/2027-07-01/2027-07-31'
\`\`\`

## OAuth Bearer token

Instead of an authToken you can send an OAuth access token: \`Authorization: Bearer <access token>\`. Only the
account owner can authorize an app this way; team members use their authToken. The token must have been asked
for with \`resource={base_url}/api\`, or with no resource at all (as older clients and Host Tools integrations
do); a token asked for \`{base_url}/mcp\` works only on \`/mcp\`. It needs the scope of each operation it calls
(see *OAuth scopes*; the Host Tools operations also accept the scopes Host Tools clients ask for, such as
\`listings:write\` for \`setPrices\`); a missing scope gives 403 \`insufficient_scope\` with a
\`WWW-Authenticate\` header naming the scopes to ask for. An authToken sent as a Bearer token works too.
\`authToken\` and \`apiKey\` do not work on the assistant endpoint \`/mcp\`, which accepts only OAuth Bearer
tokens.

## Lists

- The Host Tools operations (\`getListings\`, \`getReservations\`, \`getReviews\` …) answer the **whole** list,
  as Host Tools clients expect. To page them instead, send \`limit\` (at most ${pageLimits.max}) or \`cursor\`: the
  answer then carries \`nextCursor\` and \`hasMore\` beside the list.
- Innkeep's own list operations (\`listListings\`, \`listWebhookSubscriptions\` …) always page: \`limit\` items
  (default ${pageLimits.default}, at most ${pageLimits.max}) with \`nextCursor\` and \`hasMore\`. Pass \`nextCursor\` as
  \`cursor\` to get the next page. Nothing is cut off silently.

## Retrying writes safely

Writes accept an \`Idempotency-Key\` header (1 to 255 characters; a UUID is ideal). The first request with a key
runs; a repeat with the same key, path and body within 24 hours gets the first answer again, with the header
\`Idempotent-Replayed: true\`, and changes nothing. The same key with another path or body is refused with 409
\`conflict\`, as is a repeat while the first request is still running. Failed requests are not remembered, so they
can be retried with the same key. Keys belong to the account.

A missing, unknown or revoked credential gets status 401 with \`code\` \`unauthenticated\`.
`,
};

/** Request limits of /mcp and the REST API, and recovering from 429. */
export const rateLimitsArticle: HelpArticleSource = {
  slug: 'rate-limits',
  title: 'Rate limits',
  collection: 'api-and-integrations',
  summary:
    'How many requests a minute the assistant endpoint and the REST API accept, and what to do on status 429.',
  body: `| Route | Limit | Counted per |
|---|---|---|
| Assistant tool server (\`POST /mcp\`) | 300 requests a minute | OAuth access token |
| REST API with an \`authToken\` | 120 requests a minute | authToken |
| REST API with an \`authToken\` and a partner \`apiKey\` | 1,200 requests a minute | authToken |
| REST API with an OAuth \`Bearer\` token | 120 requests a minute | access token |

An apiKey raises the ceiling of the authToken it comes with; it does not add a second count. When Innkeep runs on
several servers sharing Redis (as an installation with more than one server should), they share the counts:
spreading requests over several connections or servers does not raise the limit. These are the defaults; the
operator of a self-hosted install can change them (\`MCP_RATE_LIMIT\`, \`REST_RATE_LIMIT\`,
\`REST_PARTNER_RATE_LIMIT\`).

## Seeing where you stand (REST API)

Every request to an operation is counted, and its answer (a 429 included) carries three headers:

- \`RateLimit-Limit\`: the requests allowed per minute on this credential.
- \`RateLimit-Remaining\`: how many are left in the current minute.
- \`RateLimit-Reset\`: seconds until the count starts again.

Requests refused before they reach an operation are not counted and carry none of these: a missing or unknown
credential (401), an account whose subscription is not in good standing (403), an unknown path (404), and the
API description at \`/api/openapi.json\` and \`/api/docs\`.

## When you go over

The request is refused with HTTP status **429** and a \`Retry-After\` header giving the number of seconds to
wait. On the REST API the JSON body is \`{message, code: "rate_limited", details: {retryAfterSeconds}}\`; on
\`/mcp\` the answer is a JSON-RPC error with code \`-32012\` and the id of your request. Nothing was done, so the
same request can be sent again once the wait is over.

## Staying under

- Wait for \`Retry-After\` before retrying, rather than retrying in a loop; slow down as \`RateLimit-Remaining\`
  nears 0.
- Ask for more per request: the Host Tools lists answer whole; Innkeep's own REST lists take \`limit\` up to
  ${pageLimits.max}, and the assistant tools' lists up to 100. The Host Tools \`getCalendar\` covers up to 731 days
  per call; \`get_calendar\` and the REST \`getCalendarDays\` cover up to 92 days per call.
- If your product needs more than 120 requests a minute, ask support for a partner \`apiKey\`.
`,
};

/** The closed set of error codes, their HTTP statuses and how to recover. */
export const errorsArticle: HelpArticleSource = {
  slug: 'errors',
  title: 'Errors and what to do about them',
  collection: 'api-and-integrations',
  summary:
    'Every error Innkeep returns has one of ten stable codes; what each means, its HTTP status, and how to recover.',
  body: `Every failure carries a stable \`code\`, a \`message\` written for people and assistants (what is wrong and what to
do), and often \`details\` with structured facts, such as the fields that failed or the dates that clash.
Messages never contain database or server internals.

| Code | HTTP | Meaning | What to do |
|---|---|---|---|
| \`invalid_argument\` | 400 | The input is malformed or out of range. The message names every offending field at once. | Fix all the named fields and send again. Nothing was written. |
| \`unauthenticated\` | 401 | No valid credential: missing, unknown, revoked or expired token. | Send a valid authToken or Bearer token; refresh or reconnect OAuth clients. |
| \`permission_denied\` | 403 | The user may not do this, e.g. a viewer trying to change data. | Use an account with the right role. |
| \`insufficient_scope\` | 403 | The OAuth grant lacks a needed scope. | Connect again and approve the scope named in the error. |
| \`subscription_inactive\` | 403 | The subscription is not in good standing. | Bring the subscription back to trialing or active. |
| \`not_found\` | 404 | No such record in this account. Ids from other accounts look the same as ids that do not exist. | Check the id, e.g. list the records first. |
| \`conflict\` | 409 | The change clashes with existing data, e.g. the dates are already booked or blocked. | Read the clash in \`details\` (such as \`details.clashes\`) and choose other dates or values. |
| \`failed_precondition\` | 422 | The record is not in a state that allows this, e.g. the listing is disabled, the stay is shorter than the minimum, or the review already has a response. | Change the state first, or do something else; retrying alone will not help. |
| \`rate_limited\` | 429 | Too many requests. | Wait the seconds in \`Retry-After\`, then retry. |
| \`internal\` | 500 | An unexpected failure; nothing was changed. The answer carries a reference id. | Retry later; if it persists, give support the reference id. |

Only \`rate_limited\` and \`internal\` are worth retrying unchanged.

## On the REST API

Every error, unknown paths included, is a JSON body with the HTTP status from the table:

\`\`\`json
{
  "message": "Invalid input — endDate: endDate (check-out) must be after startDate.",
  "code": "invalid_argument",
  "details": { "issues": [{ "path": "endDate", "message": "endDate (check-out) must be after startDate." }] }
}
\`\`\`

- \`message\` comes first, since Host Tools clients read it; \`code\` is one of the ten codes; \`details\` is there
  only when there are facts to act on: \`issues\` (every field that failed), \`retryAfterSeconds\`, \`required\`
  (the missing scopes), \`status\` (of the subscription), or the \`reference\` of an \`internal\` failure.
- The body itself can be refused before any operation runs, with code \`invalid_argument\`: 400 for JSON that
  does not parse, 413 for a body over 1 MB, 415 for a body that is not \`application/json\`.
- A path that names no operation gets 404 \`not_found\`; the operations are listed at \`/api/openapi.json\`.
- 401 and \`insufficient_scope\` answers carry a \`WWW-Authenticate\` header, and 429 a \`Retry-After\` header.
- Reusing an \`Idempotency-Key\` with another body gets 409 \`conflict\` (see *Authenticate to the REST API*).

## On the assistant endpoint (/mcp)

- Problems with a tool call itself (bad input, a record not found, dates taken, a state that does not allow
  it) come back as a normal tool result with \`isError: true\` whose text is
  \`{"error": {code, message, details}}\`, so the assistant can read it and correct itself. A misspelt
  argument is one of them: the result names it and the arguments the tool takes.
- Problems with the request as a whole are answered before any tool runs: 401 for a missing or invalid token
  (with a \`WWW-Authenticate\` header pointing to the OAuth metadata), 403 with JSON-RPC error \`-32010\` for
  \`subscription_inactive\`, 403 with \`-32011\` for \`insufficient_scope\`, and 429 with \`-32012\` for
  \`rate_limited\` (codes 1010, 1011 and 1012 for a client speaking MCP 2026-07-28).
- A first connection is asked for read access. A tool that needs more answers 403 \`insufficient_scope\`,
  and the assistant's app sends the host back to the consent page, which shows what is new.
`,
};

/** Webhook events, delivery and the Webhook-Signature scheme. */
export const webhooksArticle: HelpArticleSource = {
  slug: 'webhooks',
  title: 'Webhooks: events, payloads and signatures',
  collection: 'api-and-integrations',
  summary:
    'Subscribe a URL to reservation, message, review, calendar and listing events; how deliveries are signed (Webhook-Signature), retried and listed.',
  body: `A webhook subscription names a URL that Innkeep is to POST a JSON message to when something happens in the
account. Subscriptions are managed through the REST API, with an authToken or an OAuth token that has the
\`webhooks:manage\` scope.

## Events

| Event | When |
|---|---|
| \`reservation.created\` | A reservation is created. |
| \`reservation.updated\` | A reservation changes; the payload says what changed. |
| \`reservation.cancelled\` | A reservation is cancelled. |
| \`message.created\` | A guest or host message is added to a thread. |
| \`review.created\` | A guest review arrives. Reviews come from channels, and this build connects to none, so it is not sent yet. |
| \`calendar.updated\` | Availability or prices of a listing change. |
| \`calendar.import_conflict\` | A stay in a channel's calendar clashes with a booking or block here (sent once). |
| \`listing.updated\` | A listing's details change. |

## Subscribing

\`POST /api/createWebhookSubscription\` with a JSON body \`{"url": …, "events": […]}\`; without \`events\` you get
all of them. \`GET /api/listWebhookSubscriptions\` lists them, \`POST /api/updateWebhookSubscription/{webhookId}\`
changes one and \`DELETE /api/deleteWebhookSubscription/{webhookId}\` deletes it.

- The URL must use **https**. Plain http is accepted only for \`localhost\` and \`127.0.0.1\`, for testing on
  your own machine.
- The answer includes a **signing secret** (\`whsec_…\`). It is shown **only this once**: store it now. Lists of
  subscriptions never show it. To replace it, rotate it (below).
- You can change the URL or the events later, turn a subscription off (\`active: false\`) and on again, or
  delete it. An account can have up to 20 subscriptions.

## Rotating the secret

\`POST /api/rotateWebhookSecret/{webhookId}\` with \`{"overlapHours": …}\` (0 to 168, default 24) gives the
subscription a new secret, shown only in that answer. Until the overlap ends (\`previousSecretExpiresAt\` in the
list), every delivery carries two signatures, one per secret, so a receiver that accepts a delivery when
**either** matches keeps working while you move it to the new secret. \`overlapHours: 0\` stops the old secret at
once, and rotating again during an overlap stops the oldest one at once: never more than two sign.

## Host Tools integrations (setWebhook)

\`POST /api/setWebhook\` with \`{"webhookURL": …}\` stores one URL per account (each call replaces it; the same URL
rules apply), \`GET /api/getWebhook\` answers \`{"webhookURL": …}\` (\`null\` when none is set), and
\`DELETE /api/deleteWebhook\` removes it. The URL is kept as one more subscription, listed with \`format\`
\`hosttools\` and counted among the 20, for the reservation and message events. Its deliveries carry the Host
Tools body \`{"type": "reservation" | "message", "document": …}\`: the reservation as \`getReservation\` answers
it when the delivery is sent (read what changed from its status and dates), or the new message as
\`getReservation\`'s \`posts\` show it, with its \`reservationID\`. A test sends
\`{"type": "test", "document": {"webhookId": …}}\`. The \`Webhook-Id\` and signature headers are the same as on
every delivery.

## Deliveries

Each delivery is a POST with a JSON body, a \`Webhook-Id\` header holding the event's id, and the signature:

\`\`\`json
{ "id": "…", "event": "reservation.created", "created": "…", "data": { … } }
\`\`\`

- Answer with a 2xx status quickly, and do slow work afterwards.
- Only https URLs on public addresses are delivered to; redirects are not followed, an answer must come within
  10 seconds, and only its first 64 KB are read.
- A delivery that fails (a timeout, a refused connection, any status other than 2xx) is retried with backoff,
  5–10 seconds at first and at most an hour apart, for a day. Delivery is **at least once**: the same event can
  arrive more than once, always with the same \`id\`, so ignore ids you have already processed.
- A subscription whose deliveries all failed for a day is disabled: it shows \`active: false\` and a
  \`disabledReason\` saying why. Fix the receiver, then set \`active\` back to \`true\`; that also resets the
  failure count.
- \`GET /api/listWebhookDeliveries?webhookId=…\` lists a subscription's deliveries, newest first: status,
  attempts, the next attempt, the last answer's status, latency and error. \`POST /api/redeliverWebhookDelivery\`
  with \`{"deliveryId": …}\` sends a delivered or failed one again.

\`POST /api/testWebhookSubscription/{webhookId}\` sends a \`webhook.test\` event, with data \`{"webhookId": …}\`
and signed like any delivery, to that subscription only, even while it is turned off: check a fixed receiver
before setting \`active\` back to \`true\`. A test is attempted once, is not retried, and never counts toward the
failures that disable a subscription; its outcome shows in the delivery list, and redelivering it tries once more.

## Verifying the signature

Every delivery carries a header such as

\`\`\`
Webhook-Signature: t=1767225600,v1=5f0c…
\`\`\`

\`t\` is the time of sending in Unix seconds; \`v1\` is the lowercase hex HMAC-SHA256 of the string \`t.body\` (the
value of \`t\`, a dot, then the raw request body exactly as received), keyed with your whole secret, \`whsec_\`
prefix included. To verify:

1. Read \`t\` and every \`v1\` from the header: there are two while a secret rotation overlaps.
2. Compute the HMAC over \`\` \`\${t}.\${rawBody}\` \`\` and compare it with each \`v1\` in constant time.
3. Refuse the delivery if none matches, or if \`t\` is more than 5 minutes away from your clock (a replay).

\`\`\`js
import { createHmac, timingSafeEqual } from 'node:crypto';

function verify(rawBody, header, secret, now = Date.now() / 1000) {
  const parts = header.split(',').map((part) => part.split('='));
  const t = parts.find(([key]) => key === 't')?.[1];
  const expected = Buffer.from(createHmac('sha256', secret).update(\`\${t}.\${rawBody}\`).digest('hex'), 'utf8');
  const matches = parts
    .filter(([key]) => key === 'v1')
    .some(([, value]) => {
      const given = Buffer.from(value ?? '', 'utf8');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
  return Math.abs(now - Number(t)) <= 300 && matches;
}
\`\`\`

Compute the signature over the raw bytes you received: parsing the JSON and serialising it again changes the
text and breaks the signature.
`,
};

/** Subscription statuses and what they mean for access. */
export const subscriptionsArticle: HelpArticleSource = {
  slug: 'subscriptions',
  title: 'Subscription status and access',
  collection: 'account-and-billing',
  summary:
    'Which subscription statuses keep access (trialing, active) and which do not (past_due, canceled, unpaid), and what happens when a subscription lapses.',
  body: `A subscription belongs to the account, not to a user: the owner and every team member share it.

| Status | Meaning | Access |
|---|---|---|
| \`trialing\` | In the trial period. | Yes |
| \`active\` | Paid and current. | Yes |
| \`past_due\` | A payment failed and is being retried. | No |
| \`canceled\` | The subscription was cancelled. | No |
| \`unpaid\` | Payment attempts have stopped. | No |

Only \`trialing\` and \`active\` are in **good standing**.

## What happens when a subscription lapses

- The assistant tool server (\`/mcp\`) checks the subscription on **every request**, not only when an assistant
  connects. While it is not in good standing, each request is refused with status 403 and a JSON-RPC error
  (code \`-32010\`) whose message starts with \`subscription_inactive\`.
- The REST API checks it on every request too: each is refused with status 403 and a JSON body whose \`code\` is
  \`subscription_inactive\`, whatever the credential.
- Nothing is deleted. Listings, reservations, messages, rules and settings stay as they were, and assistants and
  integrations work again as soon as the subscription is back in good standing; they do not have to be
  reconnected, and authTokens stay valid.

## Self-hosted installs

The operator sets an account's status from the command line, for example
\`npm run innkeep -- set-subscription --account-email <owner email> --status active\`.
New accounts start as \`trialing\`.
`,
};
