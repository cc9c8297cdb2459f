import { parseInput } from '@innkeep/domain';
import {
  createListingGroupOperation,
  deleteListingGroupOperation,
  getListingOperation,
  getReservationsOperation,
  getUserOperation,
  updateListingOperation,
} from '@innkeep/operations';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildOpenApiDocument, openApiPath } from '../src/openapi/openapi-document.ts';
import type {
  OpenApiDocument,
  OpenApiMethod,
  OpenApiOperation,
  OpenApiParameter,
} from '../src/openapi/openapi-types.ts';
import { defaultRestRateLimits } from '../src/rest-api.ts';
import { restRoutes } from '../src/route-catalogue.ts';
import { defineRoute, type RestRoute } from '../src/route-definition.ts';
import { openApiResponseChecker } from './support/openapi-check.ts';
import {
  authTokenOf,
  callApi,
  demoUsers,
  openRestWorld,
  type RestWorld,
  type RunningRestApp,
  startRestApp,
} from './support/rest-world.ts';

const addFormats = addFormatsModule.default;

const renameBodySchema = z.object({ title: z.string().min(1).max(200).describe('The listing’s new name.') });

// Routes of every shape the catalogue uses, so that the document is tested whatever the catalogue holds:
// a read with no input, a read by id, a whole-unless-asked list, a write by id, a write with its own body,
// answer, scope alternatives and an answer shared with another route, a creation (201) and a DELETE.
const localRoutes: readonly RestRoute[] = [
  defineRoute({
    operation: getUserOperation,
    method: 'GET',
    path: '/getUser',
    summary: 'The user.',
    tag: 'User',
  }),
  defineRoute({
    operation: getListingOperation,
    method: 'GET',
    path: '/getListing/:listingId',
    summary: 'One listing.',
    tag: 'Listings',
  }),
  defineRoute({
    operation: getReservationsOperation,
    method: 'GET',
    path: '/getReservations',
    summary: 'Reservations.',
    tag: 'Reservations',
    paging: 'whole-unless-asked',
  }),
  defineRoute({
    operation: updateListingOperation,
    method: 'POST',
    path: '/updateListing/:listingId',
    summary: 'Changes a listing.',
    tag: 'Listings',
  }),
  defineRoute({
    operation: updateListingOperation,
    method: 'POST',
    path: '/renameListing/:listingId',
    summary: 'Renames a listing.',
    tag: 'Listings',
    scopeAlternatives: [['listings:write'], ['calendar:write']],
    bodySchema: renameBodySchema,
    input: ({ params, body }) => ({
      listingId: params.listingId,
      name: parseInput(renameBodySchema, body).title,
    }),
    answer: () => ({ success: true }),
    answerSchema: z.object({ success: z.boolean().describe('True when the listing was renamed.') }),
  }),
  defineRoute({
    operation: createListingGroupOperation,
    method: 'POST',
    path: '/createListingGroup',
    summary: 'Creates a listing group.',
    tag: 'Groups',
    successStatus: 201,
  }),
  defineRoute({
    operation: deleteListingGroupOperation,
    method: 'DELETE',
    path: '/deleteListingGroup/:groupId',
    summary: 'Deletes a listing group.',
    tag: 'Groups',
  }),
];

function documentOf(routes: readonly RestRoute[], baseUrl = 'https://innkeep.example'): OpenApiDocument {
  return buildOpenApiDocument({ routes, baseUrl, rateLimits: defaultRestRateLimits });
}

/** Every operation of the document with where it is. */
function operationsOf(document: OpenApiDocument) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      path,
      method: method as OpenApiMethod,
      operation: operation as OpenApiOperation,
    })),
  );
}

/** The value at a local `$ref` (`#/components/…`) of the document; undefined when it leads nowhere. */
function atPointer(document: OpenApiDocument, ref: string): unknown {
  return ref
    .replace(/^#\/?/, '')
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>(
      (node, segment) =>
        typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[segment] : undefined,
      document,
    );
}

function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    key === '$ref' && typeof item === 'string' ? [item] : refsIn(item),
  );
}

function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

describe.each([
  ['local routes of every shape', localRoutes],
  ['the route catalogue', restRoutes],
])('the OpenAPI document of %s', (_name, routes) => {
  const document = documentOf(routes);
  const operations = operationsOf(document);

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(document.servers).toEqual([{ url: 'https://innkeep.example' }]);
  });

  it('describes every route once, under its verbNoun name, with its scopes and credentials', () => {
    expect(operations).toHaveLength(routes.length);
    for (const route of routes) {
      const operation =
        document.paths[openApiPath(route.path)]?.[route.method.toLowerCase() as OpenApiMethod];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect(operation?.operationId).toBe(route.path.split('/')[1]);
      expect(operation?.summary).toBe(route.summary);
      expect(operation?.tags).toEqual([route.tag]);
      const oauthScopes = operation?.security.flatMap((alternative) =>
        alternative.oauth2 === undefined ? [] : [alternative.oauth2],
      );
      expect(oauthScopes, route.path).toEqual(route.scopeAlternatives);
      expect(operation?.security).toContainEqual({ authToken: [] });
      expect(operation?.security).toContainEqual({ authToken: [], apiKey: [] });
    }
  });

  it('names every operation differently', () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares every path parameter, required and typed', () => {
    for (const { path, operation } of operations) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
      const declared = operation.parameters.filter(
        (parameter): parameter is OpenApiParameter => 'in' in parameter && parameter.in === 'path',
      );
      expect(declared.map((parameter) => parameter.name)).toEqual(inPath);
      for (const parameter of declared) {
        expect(parameter.required).toBe(true);
        expect(parameter.schema.type, `${path} ${parameter.name}`).toBeDefined();
      }
    }
  });

  it('resolves every $ref inside the document', () => {
    const refs = refsIn(document);
    expect(refs.length).toBeGreaterThan(routes.length);
    for (const ref of new Set(refs)) {
      expect(ref.startsWith('#/'), ref).toBe(true);
      expect(atPointer(document, ref), ref).toBeDefined();
    }
  });

  it('lists the answers that apply: the success, the errors, Idempotency-Key on writes', () => {
    for (const route of routes) {
      const operation = document.paths[openApiPath(route.path)]?.[
        route.method.toLowerCase() as OpenApiMethod
      ] as OpenApiOperation;
      const statuses = Object.keys(operation.responses);
      const write = route.access === 'write';
      expect(statuses, route.path).toEqual(
        expect.arrayContaining([
          String(route.successStatus),
          '400',
          '401',
          '403',
          '404',
          '422',
          '429',
          '500',
        ]),
      );
      expect(statuses.includes('409'), route.path).toBe(write);
      expect(statuses.includes('413'), route.path).toBe(route.method !== 'GET');
      const idempotencyKey = operation.parameters.some(
        (parameter) => '$ref' in parameter && parameter.$ref === '#/components/parameters/IdempotencyKey',
      );
      expect(idempotencyKey, route.path).toBe(write);
      const success = operation.responses[String(route.successStatus)];
      expect(success && 'headers' in success ? Object.keys(success.headers ?? {}) : []).toEqual(
        expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
      );
    }
    expect(Object.keys(document.components.responses.TooManyRequests?.headers ?? {})).toContain(
      'Retry-After',
    );
    expect(document.components.schemas.Error).toMatchObject({
      required: ['message', 'code'],
      properties: { code: { enum: expect.arrayContaining(['not_found', 'rate_limited']) } },
    });
  });

  it('gives every operation an example, and every example fits its schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(structuredClone(document) as object, 'urn:test:openapi');
    const fits = (pointer: string, value: unknown) => {
      const validate = ajv.compile({ $ref: `urn:test:openapi#${pointer}` });
      return validate(value) ? [] : (validate.errors ?? []);
    };
    for (const { path, method, operation } of operations) {
      const at = `/paths/${escapePointer(path)}/${method}`;
      let examples = 0;
      operation.parameters.forEach((parameter, index) => {
        if (!('example' in parameter)) return;
        examples += 1;
        expect(
          fits(`${at}/parameters/${index}/schema`, parameter.example),
          `${path} ${parameter.name}`,
        ).toEqual([]);
      });
      const body = operation.requestBody?.content['application/json'];
      if (body?.example !== undefined) {
        examples += 1;
        expect(fits(`${at}/requestBody/content/application~1json/schema`, body.example), path).toEqual([]);
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        const content = '$ref' in response ? undefined : response.content?.['application/json'];
        if (content?.example === undefined) continue;
        examples += 1;
        expect(
          fits(`${at}/responses/${status}/content/application~1json/schema`, content.example),
          path,
        ).toEqual([]);
      }
      expect(examples, `${method.toUpperCase()} ${path} has no example`).toBeGreaterThan(0);
    }
  });
});

describe('the OpenAPI document builder', () => {
  it('puts an answer schema two routes share in one component', () => {
    const document = documentOf(localRoutes);
    const answerRef = (path: string, method: OpenApiMethod) => {
      const response = document.paths[path]?.[method]?.responses['200'];
      return response && 'content' in response
        ? response.content?.['application/json']?.schema.$ref
        : undefined;
    };
    // getListing and updateListing both answer the listing.
    expect(answerRef('/api/getListing/{listingId}', 'get')).toBe('#/components/schemas/GetListingAnswer');
    expect(answerRef('/api/updateListing/{listingId}', 'post')).toBe('#/components/schemas/GetListingAnswer');
  });

  it('describes a route’s own body and answer, not its operation’s', () => {
    const document = documentOf(localRoutes);
    expect(document.components.schemas.RenameListingRequest).toMatchObject({
      properties: { title: { type: 'string' } },
      required: ['title'],
    });
    expect(document.components.schemas.RenameListingAnswer).toMatchObject({
      properties: { success: { type: 'boolean' } },
    });
    const rename = document.paths['/api/renameListing/{listingId}']?.post;
    expect(rename?.requestBody?.content['application/json']?.example).toEqual({ title: 'example' });
    // The body of a route without bodySchema is the operation's input less the path parameters.
    expect(document.components.schemas.UpdateListingRequest?.properties).not.toHaveProperty('listingId');
  });

  it('takes query parameters from the operation’s input, with REST’s page size', () => {
    const list = documentOf(localRoutes).paths['/api/getReservations']?.get;
    const limit = list?.parameters.find((parameter) => 'name' in parameter && parameter.name === 'limit');
    expect(limit).toMatchObject({ in: 'query', required: false, schema: { maximum: 500, default: 50 } });
    expect(list?.description).toContain('whole list unless `limit` or `cursor` is sent');
  });

  it('describes the OAuth flow with the domain’s scopes', () => {
    const scheme = documentOf(localRoutes).components.securitySchemes.oauth2 as {
      flows: {
        authorizationCode: { authorizationUrl: string; tokenUrl: string; scopes: Record<string, string> };
      };
    };
    expect(scheme.flows.authorizationCode).toMatchObject({
      authorizationUrl: 'https://innkeep.example/oauth/authorize',
      tokenUrl: 'https://innkeep.example/oauth/token',
      scopes: { 'listings:read': 'See your listings and their settings' },
    });
  });

  it('describes schemas that contain themselves through components', async () => {
    interface Folder {
      name: string;
      folders: Folder[];
    }
    const folderSchema: z.ZodType<Folder> = z.object({
      name: z.string().describe('The folder’s name.'),
      get folders() {
        return z.array(folderSchema).describe('The folders inside it.');
      },
    });
    const fileListing = defineRoute({
      operation: updateListingOperation,
      method: 'POST',
      path: '/fileListing/:listingId',
      summary: 'Files a listing into folders.',
      tag: 'Listings',
      bodySchema: folderSchema,
      answer: () => ({ root: { name: 'All', folders: [] } }),
      answerSchema: z.object({ root: folderSchema }),
    });
    const document = documentOf([fileListing]);
    expect((await new Validator().validate(structuredClone(document) as never)).valid).toBe(true);
    for (const ref of new Set(refsIn(document))) expect(atPointer(document, ref), ref).toBeDefined();
    const check = openApiResponseChecker(document);
    const answer = (root: unknown) =>
      check({
        method: 'POST',
        routeUrl: '/api/fileListing/:listingId',
        status: 200,
        contentType: 'application/json',
        payload: JSON.stringify({ root }),
      });
    expect(
      answer({ name: 'All', folders: [{ name: 'Beach', folders: [{ name: 'North', folders: [] }] }] }),
    ).toBeUndefined();
    expect(
      answer({ name: 'All', folders: [{ name: 'Beach', folders: [{ name: 7, folders: [] }] }] })?.errors,
    ).toEqual(['/root/folders/0/folders/0/name must be string']);
  });

  it('refuses two routes of one name', () => {
    const twin = defineRoute({
      operation: getUserOperation,
      method: 'POST',
      path: '/getUser',
      summary: 'The user, again.',
      tag: 'User',
    });
    expect(() => documentOf([...localRoutes, twin])).toThrow(/both named getUser/);
  });
});

describe('the response check', () => {
  const check = openApiResponseChecker(documentOf(localRoutes));
  const answer = (status: number, body: unknown, routeUrl = '/api/getListing/:listingId', method = 'GET') =>
    check({
      method,
      routeUrl,
      status,
      contentType: 'application/json; charset=utf-8',
      payload: JSON.stringify(body),
    });

  it('accepts an answer that fits', () => {
    expect(
      answer(404, { message: 'not_found: No listing with id lst_x.', code: 'not_found' }),
    ).toBeUndefined();
    expect(answer(200, { success: true }, '/api/renameListing/:listingId', 'POST')).toBeUndefined();
  });

  it('names what does not fit: a field, an extra field, a status the operation does not list, a body not JSON', () => {
    expect(answer(404, { message: 'x', code: 'missing' })?.errors.join()).toContain('/code');
    expect(answer(200, { success: true, extra: 1 }, '/api/renameListing/:listingId', 'POST')?.errors).toEqual(
      ['body has properties the schema lacks: extra'],
    );
    expect(answer(409, { message: 'conflict: x', code: 'conflict' })).toMatchObject({
      method: 'GET',
      route: '/api/getListing/{listingId}',
      status: 409,
      errors: [expect.stringContaining('status 409')],
    });
    expect(
      check({
        method: 'GET',
        routeUrl: '/api/getUser',
        status: 200,
        contentType: 'application/json',
        payload: '<html>',
      })?.errors,
    ).toEqual(['the body is not JSON']);
  });

  it('leaves alone what the document does not describe', () => {
    expect(answer(200, '<html>', '/api/docs')).toBeUndefined();
    expect(answer(200, {}, '/api/getUser', 'HEAD')).toBeUndefined();
    expect(answer(200, {}, '/oauth/token', 'POST')).toBeUndefined();
  });
});

// The description does not depend on the database, so one kind is enough.
describe('the served description and the response check on a running app', () => {
  let world: RestWorld;
  let running: RunningRestApp;

  beforeAll(async () => {
    world = await openRestWorld('pglite');
    running = await startRestApp(world, { routes: localRoutes });
  }, 300_000);

  afterAll(async () => {
    await running?.close();
    await world?.close();
  });

  it('serves the document at /api/openapi.json to anyone, cacheable and not counted', async () => {
    for (const path of ['/api/openapi.json', '/API/OpenAPI.json']) {
      const response = await fetch(`${running.baseUrl}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/);
      expect(response.headers.get('ratelimit-limit')).toBeNull();
      expect(await response.json()).toEqual(
        JSON.parse(JSON.stringify(documentOf(localRoutes, running.baseUrl))),
      );
    }
  });

  it('serves the reference page and every asset it loads from this server, and names no other host', async () => {
    for (const page of ['/api/docs', '/api/docs/']) {
      const response = await fetch(`${running.baseUrl}${page}`);
      expect(response.status, page).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
      const html = await response.text();
      const ownHost = new URL(running.baseUrl).host;
      for (const url of html.match(/https?:\/\/[^\s"'<>)]+/g) ?? []) {
        expect(new URL(url).host, url).toBe(ownHost);
      }
      const assets = [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((match) => match[1] as string);
      expect(assets.some((asset) => asset.endsWith('swagger-ui-bundle.js'))).toBe(true);
      for (const asset of assets) {
        const url = new URL(asset, `${running.baseUrl}${page}`);
        expect(url.host, asset).toBe(ownHost);
        const loaded = await fetch(url);
        expect(loaded.status, url.pathname).toBe(200);
        const text = await loaded.text();
        if (url.pathname.endsWith('.css')) {
          // Stylesheets load nothing but inline data.
          for (const match of text.matchAll(/url\(\s*["']?([^"')]+)/g)) expect(match[1]).toMatch(/^data:/);
        }
        if (url.pathname.endsWith('swagger-initializer.js')) {
          // The page reads our document from beside it and asks no outside validator about it.
          expect(text).toContain("resolveUrl('./json')");
          expect(text).toContain('validatorUrl: null');
        }
      }
    }
    const pageDocument = await (await fetch(`${running.baseUrl}/api/docs/json`)).json();
    expect(pageDocument).toEqual(await (await fetch(`${running.baseUrl}/api/openapi.json`)).json());
  });

  it('keeps the credential check and the JSON 404 of the other /api paths', async () => {
    const unknown = await callApi(running, 'GET', '/noSuchOperation');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'not_found' });
    const noCredential = await callApi(running, 'GET', '/getUser');
    expect(noCredential.status).toBe(401);
    expect(noCredential.body).toMatchObject({ code: 'unauthenticated' });
    const ok = await callApi(running, 'GET', '/getUser', {
      headers: { authToken: await authTokenOf(world, demoUsers.owner) },
    });
    expect(ok.status).toBe(200);
    expect(world.responseMismatches).toEqual([]);
  });

  it('records an answer that breaks its schema and fails the app’s close()', async () => {
    const broken = defineRoute({
      operation: getUserOperation,
      method: 'GET',
      path: '/getUser',
      summary: 'The user.',
      tag: 'User',
      answerSchema: z.object({ email: z.number().describe('Wrong on purpose: an email is text.') }),
    });
    const app = await startRestApp(world, { routes: [broken] });
    let closeAttempted = false;
    try {
      const answer = await callApi(app, 'GET', '/getUser', {
        headers: { authToken: await authTokenOf(world, demoUsers.owner) },
      });
      // The check only watches: the caller still gets the answer.
      expect(answer.status).toBe(200);
      expect(world.responseMismatches).toEqual([
        {
          method: 'GET',
          route: '/api/getUser',
          status: 200,
          errors: expect.arrayContaining([
            expect.stringContaining('/email must be number'),
            expect.stringContaining('body has properties the schema lacks: id'),
          ]),
        },
      ]);
      closeAttempted = true;
      await expect(app.close()).rejects.toThrow(/GET \/api\/getUser → 200: .*\/email must be number/);
    } finally {
      world.responseMismatches.length = 0;
      if (!closeAttempted) await app.close().catch(() => undefined);
    }
  });
});
