import { pageLimits } from '@innkeep/domain';
import type { z } from 'zod';
import { restInputSchema } from '../rest-paging.ts';
import { pathParameterNames, type RestRoute } from '../route-definition.ts';
import { convertNamedSchemas, convertSchema, type JsonSchema, schemaComponentsPath } from './json-schemas.ts';
import {
  errorResponsesOf,
  fixedComponents,
  headerNames,
  idempotencyKeyParameterName,
  rateLimitHeaders,
  securityOf,
} from './openapi-components.ts';
import { type ExampleFields, ExampleWriter, type SchemaResolver } from './openapi-examples.ts';
import type { OpenApiDocument, OpenApiMethod, OpenApiOperation, OpenApiParameter } from './openapi-types.ts';

/** What the document describes. */
export interface OpenApiDocumentOptions {
  /** The routes the API serves. */
  readonly routes: readonly RestRoute[];
  /** The deployment's public address (BASE_URL), without a trailing slash: the document's server. */
  readonly baseUrl: string;
  /** Requests a minute per credential, without and with an apiKey, as the API counts them. */
  readonly rateLimits: { readonly perCredential: number; readonly withApiKey: number };
}

/** The version of the REST API the document describes. */
const apiVersion = '0.1.0';

/**
 * The OpenAPI 3.1 document of `routes`, built from the schemas the API validates with: per route its path
 * (`/api/getCalendar/{listingId}`), method, `verbNoun` operationId, summary, description and tag; path and
 * query parameters from the operation's input (as REST pages it); the request body (`bodySchema`, else
 * the input less the path parameters); the answer (`answerSchema`) under a component of its own, shared by
 * routes answering the same schema; the error answers that apply, with one `Error` body; who may call it
 * (authToken, authToken with apiKey, or an OAuth token with one of its scope sets); the rate-limit
 * headers; `Idempotency-Key` on writes; and examples checked against the same schemas.
 *
 * @throws Error when two routes share an operation name, which the document cannot tell apart.
 */
export function buildOpenApiDocument(options: OpenApiDocumentOptions): OpenApiDocument {
  const { routes, baseUrl } = options;
  const named = namedRoutes(routes);
  const fixed = fixedComponents(baseUrl);
  const convertedAnswers = convertNamedSchemas(
    new Map(named.map(({ route, answerName }) => [answerName, route.answerSchema])),
    'output',
    'SharedAnswer',
  );
  const schemas: Record<string, JsonSchema> = {
    ...fixed.schemas,
    ...convertedAnswers.definitions,
    ...convertedAnswers.schemas,
  };
  const resolve: SchemaResolver = (ref) =>
    ref.startsWith(schemaComponentsPath) ? schemas[ref.slice(schemaComponentsPath.length)] : undefined;

  const paths: Record<string, Partial<Record<OpenApiMethod, OpenApiOperation>>> = {};
  for (const { route, operationId, answerName } of named) {
    const operation = describeOperation(route, operationId, answerName, schemas, resolve);
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase() as OpenApiMethod]: operation };
  }

  return {
    openapi: '3.1.0',
    info: { title: 'Innkeep REST API', version: apiVersion, description: apiDescription(options) },
    servers: [{ url: baseUrl }],
    tags: [...new Set(routes.map((route) => route.tag))].map((name) => ({ name })),
    paths,
    components: { ...fixed, schemas },
  };
}

/** The document's path of a route: under `/api`, `:name` segments as `{name}`. */
export function openApiPath(routePath: string): string {
  return `/api${routePath.replace(/:([^/]+)/g, '{$1}')}`;
}

/** A route with the names the document gives it. */
interface NamedRoute {
  readonly route: RestRoute;
  /** The first segment of its path (`/getCalendar/:listingId` → `getCalendar`). */
  readonly operationId: string;
  /**
   * Its answer's component (`GetListingAnswer`), named after the first route answering that schema;
   * routes that answer the same schema share it.
   */
  readonly answerName: string;
}

function namedRoutes(routes: readonly RestRoute[]): NamedRoute[] {
  const operationIds = new Set<string>();
  const answerNames = new Map<z.ZodType, string>();
  return routes.map((route) => {
    const operationId = route.path.split('/').find((segment) => segment !== '') ?? route.operationId;
    if (operationIds.has(operationId)) {
      throw new Error(`Two REST routes are both named ${operationId}; each route needs a name of its own`);
    }
    operationIds.add(operationId);
    const answerName = answerNames.get(route.answerSchema) ?? `${pascalCase(operationId)}Answer`;
    answerNames.set(route.answerSchema, answerName);
    return { route, operationId, answerName };
  });
}

function describeOperation(
  route: RestRoute,
  operationId: string,
  answerName: string,
  schemas: Record<string, JsonSchema>,
  resolve: SchemaResolver,
): OpenApiOperation {
  const typeName = pascalCase(operationId);
  const inputSchema = restInputSchema(route);
  const input = convertSchema(inputSchema, 'input', `${typeName}Input`);
  Object.assign(schemas, input.definitions);
  const fields = (input.schema.properties ?? {}) as Record<string, JsonSchema>;
  const requiredFields = new Set((input.schema.required ?? []) as string[]);
  const pathNames = pathParameterNames(route.path);
  const readsBody = route.method !== 'GET' && route.method !== 'DELETE';

  const pathParameters = pathNames.map((name) =>
    parameterOf(name, 'path', true, fields[name] ?? { type: 'string' }),
  );
  const queryParameters = readsBody
    ? []
    : Object.entries(fields)
        .filter(([name]) => !pathNames.includes(name))
        .map(([name, schema]) => parameterOf(name, 'query', requiredFields.has(name), schema));
  let body: { name: string; schema: JsonSchema } | undefined;
  if (readsBody) {
    const name = `${typeName}Request`;
    const converted =
      route.bodySchema === undefined
        ? { schema: withoutProperties(input.schema, pathNames), definitions: {} }
        : convertSchema(route.bodySchema, 'input', name, `${schemaComponentsPath}${name}`);
    Object.assign(schemas, converted.definitions);
    body = { name, schema: converted.schema };
    schemas[name] = converted.schema;
  }

  const accepts = (parts: RequestExample) => routeAccepts(route, inputSchema, parts);
  const request = requestExample(accepts, pathParameters, queryParameters, body?.schema, resolve);
  const withExample = (parameter: OpenApiParameter, values: Record<string, unknown> | undefined) =>
    values !== undefined && parameter.name in values
      ? { ...parameter, example: values[parameter.name] }
      : parameter;
  const answerExample = exampleFitting(route.answerSchema, (fields) =>
    new ExampleWriter(resolve).example({ $ref: `${schemaComponentsPath}${answerName}` }, fields),
  );

  return {
    operationId,
    summary: route.summary,
    ...descriptionOf(route),
    tags: [route.tag],
    parameters: [
      ...pathParameters.map((parameter) => withExample(parameter, request?.params)),
      ...queryParameters.map((parameter) => withExample(parameter, request?.query)),
      ...(route.access === 'write'
        ? [{ $ref: `#/components/parameters/${idempotencyKeyParameterName}` }]
        : []),
    ],
    ...(body === undefined
      ? {}
      : {
          requestBody: {
            required: ((body.schema.required ?? []) as string[]).length > 0,
            content: {
              'application/json': {
                schema: { $ref: `${schemaComponentsPath}${body.name}` },
                ...(request?.body === undefined ? {} : { example: request.body }),
              },
            },
          },
        }),
    responses: {
      [String(route.successStatus)]: {
        description: route.successStatus === 201 ? 'Created.' : 'OK.',
        headers: {
          ...rateLimitHeaders(),
          ...(route.access === 'write'
            ? { [headerNames.replayed]: { $ref: `#/components/headers/${headerNames.replayed}` } }
            : {}),
        },
        content: {
          'application/json': {
            schema: { $ref: `${schemaComponentsPath}${answerName}` },
            ...(answerExample === undefined ? {} : { example: answerExample }),
          },
        },
      },
      ...errorResponsesOf(route),
    },
    security: securityOf(route),
  };
}

function parameterOf(
  name: string,
  location: 'path' | 'query',
  required: boolean,
  schema: JsonSchema,
): OpenApiParameter {
  return {
    name,
    in: location,
    required,
    ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
    schema,
  };
}

/** An object schema less some of its properties (the path parameters, which are not in the body). */
function withoutProperties(schema: JsonSchema, names: readonly string[]): JsonSchema {
  const properties = Object.fromEntries(
    Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).filter(
      ([name]) => !names.includes(name),
    ),
  );
  const required = ((schema.required ?? []) as string[]).filter((name) => !names.includes(name));
  const { required: _all, ...rest } = schema;
  return { ...rest, properties, ...(required.length > 0 ? { required } : {}) };
}

/** The request parts of an example call, when one fits what the route accepts. */
interface RequestExample {
  readonly params: Record<string, string>;
  readonly query: Record<string, unknown>;
  readonly body: unknown;
}

/**
 * An example request the route accepts: every path parameter, the required query parameters (optional
 * ones stay empty, so that trying the call out does not page or filter unasked), and the body with every
 * field, else the required ones, else the required ones and one more. One writer fills each attempt, so
 * its dates come in order. Checked by running the route's own input mapping and schema.
 */
function requestExample(
  accepts: (parts: RequestExample) => boolean,
  pathParameters: readonly OpenApiParameter[],
  queryParameters: readonly OpenApiParameter[],
  bodySchema: JsonSchema | undefined,
  resolve: SchemaResolver,
): RequestExample | undefined {
  const parameters = [...pathParameters, ...queryParameters.filter((parameter) => parameter.required)];
  const bodyFields: ExampleFields[] = bodySchema === undefined ? ['all'] : fieldChoices(bodySchema);
  for (const fields of bodyFields) {
    const writer = new ExampleWriter(resolve);
    const params: Record<string, string> = {};
    const query: Record<string, unknown> = {};
    for (const parameter of parameters) {
      const value = writer.example(parameter.schema, 'all');
      if (value === undefined) return undefined;
      if (parameter.in === 'path') params[parameter.name] = String(value);
      else query[parameter.name] = value;
    }
    const body = bodySchema === undefined ? {} : writer.example(bodySchema, fields);
    if (body !== undefined && accepts({ params, query, body })) {
      return { params, query, body: bodySchema === undefined ? undefined : body };
    }
  }
  return undefined;
}

/** Which fields of a body to try, most complete first: all, the required ones, the required and one more. */
function fieldChoices(schema: JsonSchema): ExampleFields[] {
  const required = new Set((schema.required ?? []) as string[]);
  const optional = Object.keys((schema.properties ?? {}) as Record<string, JsonSchema>).filter(
    (name) => !required.has(name),
  );
  return ['all', 'required', ...optional.map((name) => ({ requiredAnd: name }))];
}

/** True when the route builds an input from `parts` that `inputSchema` accepts, as a real call would. */
function routeAccepts(route: RestRoute, inputSchema: z.ZodType, parts: RequestExample): boolean {
  try {
    return inputSchema.safeParse(route.input(parts)).success;
  } catch {
    // A route's own mapping may validate the body itself (parseInput) and throw.
    return false;
  }
}

/** The first of the examples `write` makes (every field, then the required ones) that `schema` accepts. */
function exampleFitting(schema: z.ZodType, write: (fields: ExampleFields) => unknown): unknown {
  const choices: ExampleFields[] = ['all', 'required'];
  for (const fields of choices) {
    const example = write(fields);
    if (example !== undefined && schema.safeParse(example).success) return example;
  }
  return undefined;
}

/** The route's description, with how its list pages. */
function descriptionOf(route: RestRoute): { description?: string } {
  const paging =
    route.paging === 'whole-unless-asked'
      ? `Answers the whole list unless \`limit\` or \`cursor\` is sent; then one page of \`limit\` (at most ${pageLimits.max}) with \`nextCursor\` and \`hasMore\`.`
      : route.paging === 'page'
        ? `Pages with \`limit\` (default ${pageLimits.default}, at most ${pageLimits.max}) and \`cursor\`: send the answer's \`nextCursor\` while \`hasMore\` is true.`
        : undefined;
  const parts = [route.description, paging].filter((part) => part !== undefined);
  return parts.length === 0 ? {} : { description: parts.join('\n\n') };
}

/** The document's introduction: credentials, limits, errors, retries and names, as every route shares them. */
function apiDescription({ rateLimits }: OpenApiDocumentOptions): string {
  return [
    'Innkeep’s REST API: one endpoint per operation, JSON in and out. Existing Host Tools integrations work with only the base URL changed.',
    '**Credentials.** Send a user’s `authToken` header (the owner’s or a team member’s, acting with that user’s role: viewers read only), optionally with a partner’s `apiKey`, or the account owner’s OAuth access token as `Authorization: Bearer <token>`, which needs the scopes each operation lists. The account’s subscription must be in good standing.',
    `**Limits.** ${rateLimits.perCredential} requests a minute per authToken or access token, ${rateLimits.withApiKey} with an apiKey; every counted answer carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`, and a refusal \`Retry-After\`.`,
    '**Errors** are JSON `{message, code, details?}`; branch on `code`.',
    '**Writes** take an `Idempotency-Key` header: a repeat with the same key and body gets the first answer.',
    '**Names.** Operation names match in any letter case, with or without a trailing slash.',
  ].join('\n\n');
}

function pascalCase(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
