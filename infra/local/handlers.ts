import { AUTHORIZER_HANDLERS, type AuthorizerKind, type RouteDefinition } from '../../shared/routes/route';

const functionsDir = new URL('../../functions/', import.meta.url);

/** Each module is imported once, as Lambda does once per container; a failed import is tried again next time. */
const loaded = new Map<string, Promise<unknown>>();

function loadOnce<H>(key: string, load: () => Promise<{ handler: H }>): Promise<H> {
  let handler = loaded.get(key) as Promise<H> | undefined;
  if (!handler) {
    handler = load().then((module) => module.handler);
    handler.catch(() => loaded.delete(key));
    loaded.set(key, handler);
  }
  return handler;
}

/** Loads the same handler modules the stack bundles into each function. */
export function loadHandler(route: RouteDefinition) {
  return loadOnce(route.handler, () => import(/* @vite-ignore */ new URL(`${route.handler}.ts`, functionsDir).href) as Promise<{ handler: never }>);
}

/** The gateway's authorizer of that kind (AUTHORIZER_HANDLERS), the API key's unless told. */
export function loadAuthorizer(kind: AuthorizerKind = 'apiKey') {
  return loadOnce(`authorizer:${kind}`, () => import(/* @vite-ignore */ new URL(`${AUTHORIZER_HANDLERS[kind]}.ts`, functionsDir).href) as Promise<{ handler: never }>);
}
