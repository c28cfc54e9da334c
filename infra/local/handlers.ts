import type { RouteDefinition } from '../../shared/routes/route';

const functionsDir = new URL('../../functions/', import.meta.url);

/** Loads the same handler modules the stack bundles into each function. */
export async function loadHandler(route: RouteDefinition) {
  const module = (await import(/* @vite-ignore */ new URL(`${route.handler}.ts`, functionsDir).href)) as { handler: never };
  return module.handler;
}

export async function loadAuthorizer() {
  return (await import('../../functions/authorizer.ts')).handler;
}
