import type { RestRoute } from '../route-definition.ts';
import { hostToolsReadRoutes } from './host-tools/host-tools-read-routes.ts';
import { hostToolsWriteRoutes } from './host-tools/host-tools-write-routes.ts';

/** The 19 Host Tools operations, with the paths, bodies and answers existing integrations use. */
export const hostToolsRoutes: readonly RestRoute[] = [...hostToolsReadRoutes, ...hostToolsWriteRoutes];
