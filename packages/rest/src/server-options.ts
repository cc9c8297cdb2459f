/**
 * Fastify server options the REST API needs, to spread into `Fastify({...})` of any app that serves it:
 * Host Tools clients send operation names in either case (`/api/getListings`, `/api/getlistings`) and
 * some add a trailing slash. Fastify's router decides both for the whole server, and path parameters keep
 * their case either way.
 */
export const restServerOptions = {
  routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
} as const;
