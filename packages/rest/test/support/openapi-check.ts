import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { openApiPath } from '../../src/openapi/openapi-document.ts';
import type { OpenApiDocument, OpenApiMethod, OpenApiReference } from '../../src/openapi/openapi-types.ts';

/** One answer that the document does not describe: its route, status and what was wrong. */
export interface ResponseMismatch {
  readonly method: string;
  /** The route's template as the document writes it (`/api/getCalendar/{listingId}`). */
  readonly route: string;
  readonly status: number;
  /** What differs: a status the operation does not list, a body that is not JSON, or schema errors. */
  readonly errors: readonly string[];
}

/** Checks one answer of a route; undefined when it fits, or when the document has no such operation. */
export type ResponseChecker = (answer: {
  readonly method: string;
  /** Fastify's template of the matched route (`/api/getCalendar/:listingId`). */
  readonly routeUrl: string;
  readonly status: number;
  readonly contentType: string | undefined;
  /** What Fastify sends: the serialised body. */
  readonly payload: unknown;
}) => ResponseMismatch | undefined;

// ajv-formats is CommonJS with its plugin on `default` too; TypeScript sees only that property.
const addFormats = addFormatsModule.default;

/** The URI ajv knows the document by; `$ref`s inside it resolve against it. */
const documentUri = 'urn:innkeep:openapi';

/**
 * A checker of answers against `document`: the answer's status must be one the operation lists, and its
 * JSON body must fit that response's schema (JSON Schema 2020-12, formats checked), with the document's
 * components resolved. Validators are compiled once per operation and status.
 */
export function openApiResponseChecker(document: OpenApiDocument): ResponseChecker {
  // Not strict: the document holds OpenAPI keywords (`example`) that are not JSON Schema's.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document, documentUri);
  const validators = new Map<string, ValidateFunction>();

  return ({ method, routeUrl, status, contentType, payload }) => {
    if (!routeUrl.startsWith('/api/')) return undefined;
    const route = openApiPath(routeUrl.slice('/api'.length));
    const operation = document.paths[route]?.[method.toLowerCase() as OpenApiMethod];
    // The document's own routes, the reference page, and HEAD (Fastify's twin of each GET) are not in it.
    if (operation === undefined) return undefined;
    const mismatch = (errors: string[]) => ({ method, route, status, errors });
    const response = operation.responses[String(status)];
    if (response === undefined) {
      return mismatch([
        `status ${status} is not one the operation lists (${Object.keys(operation.responses).join(', ')})`,
      ]);
    }
    if (contentType === undefined || !contentType.startsWith('application/json')) {
      return mismatch([`content-type ${contentType ?? '(none)'} is not application/json`]);
    }
    const body = parsedJson(payload);
    if (body === undefined) return mismatch(['the body is not JSON']);
    const pointer = responseSchemaPointer(route, method, status, response);
    let validate = validators.get(pointer);
    if (validate === undefined) {
      validate = ajv.compile({ $ref: `${documentUri}#${pointer}` });
      validators.set(pointer, validate);
    }
    if (validate(body)) return undefined;
    return mismatch(describeErrors(validate.errors ?? []));
  };
}

/**
 * Checks every answer `app` sends for a route of `document` with `check`, telling `onMismatch` of each
 * that does not fit. For tests: the hook parses each JSON body once more.
 */
export function checkResponsesAgainstDocument(
  app: FastifyInstance,
  document: OpenApiDocument,
  onMismatch: (mismatch: ResponseMismatch) => void,
): void {
  const check = openApiResponseChecker(document);
  app.addHook('onSend', async (request, reply, payload) => {
    const routeUrl = request.routeOptions.url;
    if (routeUrl === undefined) return payload;
    const contentType = reply.getHeader('content-type');
    const mismatch = check({
      method: request.method,
      routeUrl,
      status: reply.statusCode,
      contentType: typeof contentType === 'string' ? contentType : undefined,
      payload,
    });
    if (mismatch !== undefined) onMismatch(mismatch);
    return payload;
  });
}

/** The mismatches in words, for a failing test: route, status and the first errors of each. */
export function describeMismatches(mismatches: readonly ResponseMismatch[]): string {
  const lines = mismatches.map(
    ({ method, route, status, errors }) =>
      `${method} ${route} → ${status}: ${errors.slice(0, 5).join('; ')}${errors.length > 5 ? ' …' : ''}`,
  );
  return `${mismatches.length} answer(s) do not fit the OpenAPI document:\n${lines.join('\n')}`;
}

/** JSON Pointer (escaped) to the schema of `response`, following its `$ref` to a shared response. */
function responseSchemaPointer(
  route: string,
  method: string,
  status: number,
  response: OpenApiReference | object,
): string {
  const base =
    '$ref' in response
      ? response.$ref.replace(/^#/, '')
      : `/paths/${escapePointer(route)}/${method.toLowerCase()}/responses/${status}`;
  return `${base}/content/${escapePointer('application/json')}/schema`;
}

function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** The payload parsed as JSON; undefined when it is not JSON text. */
function parsedJson(payload: unknown): unknown {
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString() : '';
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** ajv's errors in words, the extra properties of one object in one line (ajv reports each apart). */
function describeErrors(errors: readonly ErrorObject[]): string[] {
  const extras = new Map<string, string[]>();
  const others: string[] = [];
  for (const error of errors) {
    const where = error.instancePath === '' ? 'body' : error.instancePath;
    if (error.keyword === 'additionalProperties') {
      const name = String((error.params as { additionalProperty?: unknown }).additionalProperty);
      extras.set(where, [...(extras.get(where) ?? []), name]);
    } else {
      const allowed = error.keyword === 'enum' ? ` ${JSON.stringify(error.params.allowedValues)}` : '';
      others.push(`${where} ${error.message ?? error.keyword}${allowed}`);
    }
  }
  const extraLines = [...extras].map(
    ([where, names]) => `${where} has properties the schema lacks: ${names.join(', ')}`,
  );
  return [...others, ...extraLines];
}
