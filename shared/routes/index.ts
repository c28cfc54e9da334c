import { leadRoutes } from './leads';
import type { RouteDefinition } from './route';

/** The route table: every endpoint of the API, one row each. */
export const routes: RouteDefinition[] = [...leadRoutes];
