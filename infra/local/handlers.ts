import { AUTHORIZER_HANDLERS } from '../../functions/resources';
import { handlerOf, parseHandler, type AuthorizerKind, type RouteDefinition } from '#shared/routes/route';

const functionsDir = new URL('../../functions/', import.meta.url);

/** Each module is imported once, as Lambda does once per container; a failed import is tried again next time. */
const loaded = new Map<string, Promise<unknown>>();

/** A function's handler (`parseHandler`), imported as Lambda imports it: once per container. */
export function loadFunction<H>(handlerName: string): Promise<H> {
  let handler = loaded.get(handlerName) as Promise<H> | undefined;
  if (!handler) {
    const { module, exportName } = parseHandler(handlerName);
    handler = import(/* @vite-ignore */ new URL(`${module}.ts`, functionsDir).href).then((exports: Record<string, H>) => {
      if (typeof exports[exportName] !== 'function') throw new Error(`functions/${module}.ts exports no ${exportName}`);
      return exports[exportName];
    });
    handler.catch(() => loaded.delete(handlerName));
    loaded.set(handlerName, handler);
  }
  return handler;
}

/** Loads the same handler modules the stack bundles into each function. */
export function loadHandler(route: RouteDefinition) {
  return loadFunction<never>(handlerOf(route));
}

/** The gateway's authorizer of that kind (AUTHORIZER_HANDLERS), the API key's unless told. */
export function loadAuthorizer(kind: AuthorizerKind = 'apiKey') {
  const handler = AUTHORIZER_HANDLERS[kind];
  if (!handler) throw new Error(`No resource provides the authorizer ${kind} (functions/resources.ts)`);
  return loadFunction<never>(handler);
}
