import { STATUS_CODES } from 'node:http';
import { protectedResourceMetadataUrl, resourceUrl } from '@innkeep/auth';
import {
  type ErrorCode,
  errorCatalogue,
  errorCodes,
  idempotencyRequestSchema,
  type Scope,
  scopeCatalogue,
} from '@innkeep/domain';
import { z } from 'zod';
import type { RestRoute } from '../route-definition.ts';
import {
  type ConvertedSchema,
  convertSchema,
  type JsonSchema,
  schemaComponentsPath,
} from './json-schemas.ts';
import type { OpenApiReference, OpenApiResponse } from './openapi-types.ts';

/** The body of every error answer, as `sendRestError` writes it. */
const restErrorSchema = z.object({
  message: z
    .string()
    .describe('What went wrong and what to do, in words for people; starts with the code (`not_found: …`).'),
  code: z.enum(errorCodes).describe('The error code, one of a closed set; branch on this, not on `message`.'),
  details: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Facts to act on: the invalid fields (`issues`), the seconds to wait, a reference id.'),
});

/** Name of the error body's schema component. */
const errorSchemaName = 'Error';

/** One error status a route answers, and the codes its body carries. */
interface ErrorStatus {
  readonly status: number;
  readonly codes: readonly ErrorCode[];
  /** The statuses HTTP has for a request Fastify refused before any route ran: body too large, not JSON. */
  readonly refusal?: string;
}

/**
 * Every error status a REST route answers: one per status of the wire table (`errorCatalogue`), plus the
 * two HTTP has for a body the server cannot take.
 */
const errorStatuses: readonly ErrorStatus[] = [...wireTableStatuses(), ...bodyRefusals()].sort(
  (left, right) => left.status - right.status,
);

/** The statuses HTTP has for a body the server cannot take; their code is `invalid_argument`. */
function bodyRefusals(): ErrorStatus[] {
  return [
    { status: 413, codes: ['invalid_argument'], refusal: 'The request body is too large.' },
    {
      status: 415,
      codes: ['invalid_argument'],
      refusal: 'The request body is not JSON (send Content-Type: application/json).',
    },
  ];
}

/** The statuses of the wire table, each with the codes that answer with it, in the table's order. */
function wireTableStatuses(): ErrorStatus[] {
  const codesByStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodes) {
    const status = errorCatalogue[code].httpStatus;
    codesByStatus.set(status, [...(codesByStatus.get(status) ?? []), code]);
  }
  return [...codesByStatus].map(([status, codes]) => ({ status, codes }));
}

/** The component name of an error status's response: its HTTP reason phrase without spaces (`NotFound`). */
function errorResponseName(status: number): string {
  return (STATUS_CODES[status] ?? `Status${status}`).replace(/[^A-Za-z0-9]/g, '');
}

/**
 * The error statuses `route` can answer, each a `$ref` to its shared response: every route can be refused
 * for its input, credentials, permissions, a missing record, a record's state, the rate limit or a failure
 * of ours; only writes clash with existing data or reuse an Idempotency-Key; and a body too large or not
 * JSON is refused on every method but GET, since Fastify reads a body sent with any other (DELETE too).
 */
export function errorResponsesOf(route: RestRoute): Record<string, OpenApiReference> {
  const readsBody = route.method !== 'GET';
  const responses: Record<string, OpenApiReference> = {};
  for (const { status, refusal } of errorStatuses) {
    if (status === errorCatalogue.conflict.httpStatus && route.access !== 'write') continue;
    if (refusal !== undefined && !readsBody) continue;
    responses[String(status)] = { $ref: `#/components/responses/${errorResponseName(status)}` };
  }
  return responses;
}

/** Names of the shared response headers. */
export const headerNames = {
  limit: 'RateLimit-Limit',
  remaining: 'RateLimit-Remaining',
  reset: 'RateLimit-Reset',
  retryAfter: 'Retry-After',
  challenge: 'WWW-Authenticate',
  replayed: 'Idempotent-Replayed',
} as const;

/** `headers` of an answer that counted against the caller's rate limit. */
export function rateLimitHeaders(): Record<string, OpenApiReference> {
  return {
    [headerNames.limit]: { $ref: `#/components/headers/${headerNames.limit}` },
    [headerNames.remaining]: { $ref: `#/components/headers/${headerNames.remaining}` },
    [headerNames.reset]: { $ref: `#/components/headers/${headerNames.reset}` },
  };
}

/** The header parameter of writes that makes a retry safe. */
export const idempotencyKeyParameterName = 'IdempotencyKey';

/** Names of the security schemes. */
const securitySchemeNames = { authToken: 'authToken', apiKey: 'apiKey', oauth2: 'oauth2' } as const;

/**
 * Who may call `route`: a user's authToken (with a partner's apiKey or without), or an OAuth access token
 * holding one of the route's scope sets.
 */
export function securityOf(route: RestRoute): Record<string, Scope[]>[] {
  return [
    { [securitySchemeNames.authToken]: [] },
    { [securitySchemeNames.authToken]: [], [securitySchemeNames.apiKey]: [] },
    ...route.scopeAlternatives.map((scopes) => ({ [securitySchemeNames.oauth2]: [...scopes] })),
  ];
}

/** The components every document has, whatever its routes. */
export interface FixedComponents {
  /** The error body, and any definitions it and the Idempotency-Key refer to. */
  readonly schemas: Record<string, JsonSchema>;
  /** One per error status, by its reason phrase (`NotFound`). */
  readonly responses: Record<string, OpenApiResponse>;
  readonly headers: Record<string, JsonSchema>;
  readonly parameters: Record<string, JsonSchema>;
  readonly securitySchemes: Record<string, JsonSchema>;
}

/** The fixed components: the error body, error responses, headers, the Idempotency-Key and the credentials. */
export function fixedComponents(baseUrl: string): FixedComponents {
  const error = convertSchema(restErrorSchema, 'output', errorSchemaName);
  const idempotencyKey = convertSchema(
    idempotencyRequestSchema.shape.key,
    'input',
    idempotencyKeyParameterName,
  );
  return {
    schemas: { ...error.definitions, ...idempotencyKey.definitions, [errorSchemaName]: error.schema },
    responses: Object.fromEntries(
      errorStatuses.map((entry) => [errorResponseName(entry.status), errorResponse(entry)]),
    ),
    headers: responseHeaders(),
    parameters: { [idempotencyKeyParameterName]: idempotencyKeyParameter(idempotencyKey) },
    securitySchemes: securitySchemes(baseUrl),
  };
}

function errorResponse({ status, codes, refusal }: ErrorStatus): OpenApiResponse {
  const headers: Record<string, OpenApiReference> = {
    // A refusal of credentials comes before counting; everything else was counted.
    ...(status === errorCatalogue.unauthenticated.httpStatus ? {} : rateLimitHeaders()),
    ...(status === errorCatalogue.rate_limited.httpStatus
      ? { [headerNames.retryAfter]: { $ref: `#/components/headers/${headerNames.retryAfter}` } }
      : {}),
    ...(status === errorCatalogue.unauthenticated.httpStatus ||
    status === errorCatalogue.insufficient_scope.httpStatus
      ? { [headerNames.challenge]: { $ref: `#/components/headers/${headerNames.challenge}` } }
      : {}),
  };
  const meanings = codes.map((code) => `\`${code}\`: ${errorCatalogue[code].meaning}`);
  const examples = Object.fromEntries(
    codes.map((code) => [
      code,
      {
        summary: code,
        value: { message: `${code}: ${refusal ?? errorCatalogue[code].meaning}`, code },
      },
    ]),
  );
  return {
    description: refusal === undefined ? meanings.join(' ') : `\`invalid_argument\`: ${refusal}`,
    headers,
    content: {
      'application/json': { schema: { $ref: `${schemaComponentsPath}${errorSchemaName}` }, examples },
    },
  };
}

function responseHeaders(): Record<string, JsonSchema> {
  const integer = { type: 'integer', minimum: 0 };
  return {
    [headerNames.limit]: {
      description: 'Requests this credential may make in the current window (a minute).',
      schema: integer,
    },
    [headerNames.remaining]: { description: 'Requests left in the current window.', schema: integer },
    [headerNames.reset]: { description: 'Seconds until the current window ends.', schema: integer },
    [headerNames.retryAfter]: { description: 'Seconds to wait before trying again.', schema: integer },
    [headerNames.challenge]: {
      description:
        'A Bearer challenge (RFC 6750) naming the scopes to ask for and the protected resource metadata.',
      schema: { type: 'string' },
    },
    [headerNames.replayed]: {
      description: '`true` when this is the stored answer to an earlier write with the same Idempotency-Key.',
      schema: { type: 'string', enum: ['true'] },
    },
  };
}

function idempotencyKeyParameter(key: ConvertedSchema): JsonSchema {
  return {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes the write safe to retry: a repeat with the same key and body gets the first answer ' +
      '(with `Idempotent-Replayed: true`), one with another body `409 conflict`. Keys are kept a day.',
    schema: key.schema,
  };
}

function securitySchemes(baseUrl: string): Record<string, JsonSchema> {
  return {
    [securitySchemeNames.authToken]: {
      type: 'apiKey',
      in: 'header',
      name: 'authToken',
      description:
        'A user’s authToken, generated at the bottom of the settings page. The owner’s or a team member’s; ' +
        'it acts with that user’s role (viewers read only).',
    },
    [securitySchemeNames.apiKey]: {
      type: 'apiKey',
      in: 'header',
      name: 'apiKey',
      description: 'A partner’s apiKey, sent together with an authToken; it raises the rate limit.',
    },
    [securitySchemeNames.oauth2]: {
      type: 'oauth2',
      description:
        `An OAuth 2.1 access token of the account owner, sent as \`Authorization: Bearer <token>\`. Ask ` +
        `for the resource \`${resourceUrl(baseUrl, 'api')}\` (or none); clients register themselves ` +
        `(RFC 7591) and use PKCE. Protected resource metadata: ${protectedResourceMetadataUrl(baseUrl, 'api')}.`,
      flows: {
        authorizationCode: {
          authorizationUrl: `${baseUrl}/oauth/authorize`,
          tokenUrl: `${baseUrl}/oauth/token`,
          refreshUrl: `${baseUrl}/oauth/token`,
          scopes: Object.fromEntries(scopeCatalogue.map((entry) => [entry.scope, entry.grants])),
        },
      },
    },
  };
}
