import type { RestRoute } from './route-definition.ts';
import { hostToolsRoutes } from './routes/host-tools-routes.ts';
import { innkeepRoutes } from './routes/innkeep-routes.ts';

/**
 * Every route the REST API serves: the 19 Host Tools operations with their exact shapes, then Innkeep's
 * own operations. Paths are unique without regard to letter case.
 */
export const restRoutes: readonly RestRoute[] = [...hostToolsRoutes, ...innkeepRoutes];
