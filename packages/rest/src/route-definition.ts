import type { Scope } from '@innkeep/domain';
import type { Operation } from '@innkeep/operations';
import type { z } from 'zod';

/** The HTTP methods REST routes use. */
export type RestMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The parts of a request a route maps onto its operation's input; all already JSON values. */
export interface RestRequestParts {
  /** Path parameters by name (`:listingId` → `params.listingId`), as sent. */
  readonly params: Readonly<Record<string, string>>;
  /** The query string, each value coerced to the type the operation's input field has. */
  readonly query: Readonly<Record<string, unknown>>;
  /** The parsed JSON body; `{}` when none was sent. */
  readonly body: unknown;
}

/** What a route's answer mapping may need besides the operation's output. */
export interface RestAnswerContext {
  /** The account the caller acts in. */
  readonly accountId: string;
  /** The user the caller acts as (Host Tools answers carry it as `userID`). */
  readonly userId: string;
  /** The operation input the route built and the operation ran with. */
  readonly input: unknown;
  /** True when the client sent `limit` or `cursor`: a list answers one page and says how to go on. */
  readonly paged: boolean;
}

/** How a list route pages. */
export type RestPaging =
  /**
   * Host Tools compatibility: the whole list unless the client sends `limit` or `cursor`, in which case one
   * page and `nextCursor`/`hasMore`. The operation's output must be a page (`items`, `nextCursor`, `hasMore`).
   */
  | 'whole-unless-asked'
  /** One page of `limit` (default 50, at most 500) with `nextCursor` and `hasMore`. */
  | 'page';

/**
 * One REST endpoint as it is written: an operation plus method, path and field mapping. Everything the
 * operation declares (scopes, read or write, input and output schemas, the domain call) is used as
 * declared; the route adds only how HTTP reaches it and what HTTP answers.
 */
export interface RestRouteDeclaration<Op extends Operation> {
  readonly operation: Op;
  readonly method: RestMethod;
  /**
   * Path under `/api`, starting with the operation's name (`/getReservations/:listingId/:startDate/:endDate`).
   * Names match case-insensitively and a trailing slash is tolerated (see `restServerOptions`).
   */
  readonly path: string;
  /** One line for the reference page. */
  readonly summary: string;
  /** More for the reference page: what the operation does and returns, in the integrator's terms. */
  readonly description?: string;
  /** Groups the reference page shows: `Host Tools`, `Listings`, `Analytics` … */
  readonly tag: string;
  /**
   * Sets of scopes any one of which lets a Bearer caller in; default the operation's own. Host Tools
   * operations accept the scopes Host Tools clients ask for (PRODUCT.md, REST).
   */
  readonly scopeAlternatives?: readonly (readonly Scope[])[];
  /**
   * Builds the operation's input from the request; validated by the operation's input schema afterwards.
   * Default: the query and path parameters for GET and DELETE, the body and path parameters otherwise.
   */
  readonly input?: (parts: RestRequestParts) => unknown;
  /** Schema of the request body, when it differs from the operation's input (Host Tools field names). */
  readonly bodySchema?: z.ZodType;
  /** Turns the operation's output into the answer; default the output unchanged. */
  readonly answer?: (output: z.output<Op['output']>, context: RestAnswerContext) => unknown;
  /** Schema of what `answer` returns, for the OpenAPI document and response checks; default the output's. */
  readonly answerSchema?: z.ZodType;
  /** Status of a successful answer; default 200 (201 for creations). */
  readonly successStatus?: 200 | 201;
  /** How a list pages; omit for routes that answer one record. */
  readonly paging?: RestPaging;
}

/**
 * A declared route with its operation's types erased, so that routes of different operations sit in one
 * list; what the plugin and the OpenAPI document read.
 */
export interface RestRoute {
  readonly operationId: string;
  readonly method: RestMethod;
  readonly path: string;
  readonly summary: string;
  readonly description: string | undefined;
  readonly tag: string;
  readonly access: Operation['access'];
  /** Sets of scopes, any one of which suffices; `[[]]` when the operation needs none. */
  readonly scopeAlternatives: readonly (readonly Scope[])[];
  /** The operation's input schema, which validates what `input` builds. */
  readonly inputSchema: z.ZodObject;
  readonly bodySchema: z.ZodType | undefined;
  readonly answerSchema: z.ZodType;
  readonly successStatus: 200 | 201;
  readonly paging: RestPaging | undefined;
  readonly input: (parts: RestRequestParts) => unknown;
  readonly run: Operation['run'];
  readonly answer: (output: unknown, context: RestAnswerContext) => unknown;
}

/** Declares a REST route; `answer` is checked against the operation's output type. */
export function defineRoute<Op extends Operation>(declaration: RestRouteDeclaration<Op>): RestRoute {
  const { operation } = declaration;
  const reads = declaration.method === 'GET' || declaration.method === 'DELETE';
  const answer = declaration.answer;
  return {
    operationId: operation.id,
    method: declaration.method,
    path: declaration.path,
    summary: declaration.summary,
    description: declaration.description,
    tag: declaration.tag,
    access: operation.access,
    scopeAlternatives: declaration.scopeAlternatives ?? [operation.scopes],
    inputSchema: operation.input,
    bodySchema: declaration.bodySchema,
    answerSchema: declaration.answerSchema ?? operation.output,
    successStatus: declaration.successStatus ?? 200,
    paging: declaration.paging,
    input:
      declaration.input ??
      ((parts) =>
        reads
          ? { ...parts.query, ...parts.params }
          : { ...(isPlainObject(parts.body) ? parts.body : {}), ...parts.params }),
    run: (input, context) => operation.run(input, context),
    answer:
      answer === undefined
        ? (output) => output
        : (output, context) => answer(output as z.output<Op['output']>, context),
  };
}

/** True for a JSON object (not an array or null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The path parameter names of a route path, in order (`/getCalendar/:listingId/:startDate` → both). */
export function pathParameterNames(path: string): string[] {
  return path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1));
}
