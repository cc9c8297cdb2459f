import fastifySwagger, { type StaticDocumentSpec } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument, type OpenApiDocumentOptions } from './openapi-document.ts';

/** Where the OpenAPI document is served. */
const openApiDocumentPath = '/api/openapi.json';

/** Where the reference page is served; its assets are under `${apiReferencePath}/static/`. */
const apiReferencePath = '/api/docs';

/** How long clients and caches may keep the document: it changes only with a release. */
const documentCacheControl = 'public, max-age=300';

/**
 * The reference page's Content-Security-Policy: everything from this server, nothing from anywhere else,
 * so the page works offline and cannot be made to load a script or send a request elsewhere. Trying an
 * operation out calls BASE_URL, which is this server.
 */
const referenceContentSecurityPolicy = [
  "default-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "style-src 'self'",
  "script-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Serves the API's description, public (no credentials, not rate limited): the OpenAPI 3.1 document of
 * `options.routes` at {@link openApiDocumentPath}, built once here, and a reference page rendering it at
 * {@link apiReferencePath} (Swagger UI, its assets served from this package, never a CDN). Registered
 * outside the `/api` scope of the routes, so neither the credential check nor `/api`'s JSON 404 applies.
 */
export async function openApiDocs(app: FastifyInstance, options: OpenApiDocumentOptions): Promise<void> {
  const document = buildOpenApiDocument(options);
  const serialized = JSON.stringify(document);
  app.get(openApiDocumentPath, async (_request, reply) =>
    reply
      .header('cache-control', documentCacheControl)
      // Public documentation: editors and code generators on other origins may read it.
      .header('access-control-allow-origin', '*')
      .type('application/json; charset=utf-8')
      .send(serialized),
  );
  await app.register(fastifySwagger, {
    mode: 'static',
    // The plugin's types stop at OpenAPI 3.0; in static mode it hands the document to the page untouched.
    specification: { document: document as unknown as StaticDocumentSpec['document'] },
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: apiReferencePath,
    staticCSP: referenceContentSecurityPolicy,
    theme: { title: 'Innkeep REST API reference' },
    uiConfig: {
      // Without the top bar, whose address box would load documents from other servers.
      layout: 'BaseLayout',
      deepLinking: true,
      docExpansion: 'list',
      displayOperationId: true,
      defaultModelsExpandDepth: 0,
    },
    initOAuth: { usePkceWithAuthorizationCodeGrant: true, scopeSeparator: ' ' },
  });
}
