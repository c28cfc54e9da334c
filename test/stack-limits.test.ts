import { describe, expect, it } from 'vitest';
import { routes } from '../functions/resources';
import { scaledRoutes, synthApiStack } from './support/scaled-stacks';

// CloudFormation refuses a stack of more than 500 resources. The parent keeps what every route shares, so it must not
// grow with the routes; each tag's stack holds its own routes. Today's routes, and three times as many (copies under
// other tags and paths, as another two hundred routes of today's mix would be).
const limits = { parent: 150, routeStack: 400 };
const synthesized = [1, 3].map((times) => ({ times, routes: scaledRoutes(times), ...synthApiStack(scaledRoutes(times)) }));

describe.each(synthesized)('the API stack at $times× today’s routes', ({ times, routes: scaled, parent, nested, parentResources, nestedResources }) => {
  it(`keeps the parent under ${limits.parent} resources and every route stack under ${limits.routeStack}`, () => {
    expect(parentResources).toBeLessThan(limits.parent);
    expect(nestedResources.length).toBe(new Set(scaled.map((route) => route.tag)).size);
    for (const count of nestedResources) expect(count).toBeLessThan(limits.routeStack);
  });

  it('makes every route’s function and methods, and every path’s 405 mock, in the route stacks', () => {
    const ofType = (type: string) => [parent, ...nested].flatMap((template) => Object.values(template.Resources as Record<string, { Type: string }>).filter((resource) => resource.Type === type));
    const inParent = (type: string) => Object.values(parent.Resources as Record<string, { Type: string }>).filter((resource) => resource.Type === type);
    expect(scaled).toHaveLength(times * routes.length);
    // One function per handler (a PATCH alias is its PUT's), plus the two authorizers in the parent.
    expect(ofType('AWS::Lambda::Function')).toHaveLength(scaled.filter((route) => !route.aliasOf).length + 2);
    const paths = new Set(scaled.map((route) => route.path));
    // Each route's method, its CORS preflight when it answers one, each path's 405 mock, and the parent's own ANY /.
    expect(ofType('AWS::ApiGateway::Method')).toHaveLength(scaled.length + scaled.filter((route) => route.preflight).length + paths.size + 1);
    expect(inParent('AWS::ApiGateway::Method')).toHaveLength(1);
    expect(inParent('AWS::Lambda::Function')).toHaveLength(2);
  });
});
