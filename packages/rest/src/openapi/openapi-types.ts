import type { RestMethod } from '../route-definition.ts';
import type { JsonSchema } from './json-schemas.ts';

// The parts of OpenAPI 3.1 the REST API's document uses, typed as far as the code reads them.

/** A `$ref` to a component of the document. */
export interface OpenApiReference {
  readonly $ref: string;
}

/** One answer of an operation: what it means, its headers and its JSON body. */
export interface OpenApiResponse {
  readonly description: string;
  readonly headers?: Readonly<Record<string, OpenApiReference>>;
  readonly content?: Readonly<
    Record<string, { readonly schema: JsonSchema; readonly example?: unknown; readonly examples?: unknown }>
  >;
}

/** A path, query or header parameter. */
export interface OpenApiParameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly required: boolean;
  readonly description?: string;
  readonly schema: JsonSchema;
  readonly example?: unknown;
}

/** One operation: a route as the document describes it. */
export interface OpenApiOperation {
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly parameters: readonly (OpenApiParameter | OpenApiReference)[];
  readonly requestBody?: {
    readonly required: boolean;
    readonly content: Readonly<Record<string, { readonly schema: JsonSchema; readonly example?: unknown }>>;
  };
  readonly responses: Readonly<Record<string, OpenApiResponse | OpenApiReference>>;
  /** Alternatives, any one of which lets a caller in; each names schemes and, for OAuth, scopes. */
  readonly security: readonly Readonly<Record<string, readonly string[]>>[];
}

/** The lower-case method keys of a path item. */
export type OpenApiMethod = Lowercase<RestMethod>;

/** The OpenAPI 3.1 document of the REST API. */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly servers: readonly { readonly url: string }[];
  readonly tags: readonly { readonly name: string }[];
  readonly paths: Readonly<Record<string, Partial<Record<OpenApiMethod, OpenApiOperation>>>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, JsonSchema>>;
    readonly responses: Readonly<Record<string, OpenApiResponse>>;
    readonly headers: Readonly<Record<string, JsonSchema>>;
    readonly parameters: Readonly<Record<string, JsonSchema>>;
    readonly securitySchemes: Readonly<Record<string, JsonSchema>>;
  };
}
