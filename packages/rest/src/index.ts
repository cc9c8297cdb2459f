// The public surface of @innkeep/rest: the REST API plugin, the route catalogue it serves, the server
// options it needs, how a route is declared, and the Host Tools reservation record (which the Host Tools
// webhook sends as getReservation answers it).

export type { RestApiOptions } from './rest-api.ts';
export { defaultRestRateLimits, restApi } from './rest-api.ts';
export type { RestServiceOptions } from './rest-service.ts';
export { restService } from './rest-service.ts';
export { restRoutes } from './route-catalogue.ts';
export type { RestMethod, RestPaging, RestRoute, RestRouteDeclaration } from './route-definition.ts';
export { defineRoute } from './route-definition.ts';
export { scopesOfRoutes } from './route-scopes.ts';
export type { HostToolsReservationDetail } from './routes/host-tools/host-tools-reservation-record.ts';
export { toHostToolsReservationDetail } from './routes/host-tools/host-tools-reservation-record.ts';
export { restServerOptions } from './server-options.ts';
