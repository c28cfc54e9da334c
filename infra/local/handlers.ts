import type { RouteDefinition } from '../../shared/routes/route';

/** Loads the same handler modules the stack bundles into each function. */
export async function loadHandler(route: RouteDefinition) {
  const module = (await import(`../../functions/${route.handler}.ts`)) as { handler: never };
  return module.handler;
}

export async function loadAuthorizer() {
  return (await import('../../functions/authorizer.ts')).handler;
}
