import type { RouteDefinition } from '#shared/routes/route';

// Contract stub: the runs' routes (list, enrol, preview, read, cancel) replace this file.
export const runRoutes: RouteDefinition[] = [];
