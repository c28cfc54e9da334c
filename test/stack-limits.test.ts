import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { routes } from '../functions/resources';
import { ApiStack } from '../infra/cdk/api-stack';
import { readOptions } from '../infra/cdk/options';
import type { RouteDefinition } from '#shared/routes/route';
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

describe('the stage’s deployment, made in the parent after the route stacks', () => {
  const deploymentOf = (routeList: RouteDefinition[]) => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], alarmEmail: 'none' } });
    const api = new ApiStack(app, 'Api', { routes: routeList, options: readOptions(app.node) });
    const resources = Template.fromStack(api).toJSON().Resources as Record<string, { Type: string; DependsOn?: string[] }>;
    const deployments = Object.entries(resources).filter(([, resource]) => resource.Type === 'AWS::ApiGateway::Deployment');
    expect(deployments).toHaveLength(1);
    const [id, deployment] = deployments[0]!;
    const nested = Object.entries(resources).filter(([, resource]) => resource.Type === 'AWS::CloudFormation::Stack').map(([nestedId]) => nestedId);
    return { id, dependsOn: deployment.DependsOn ?? [], nested };
  };
  const listLeads = routes.find((route) => route.operationId === 'listLeads')!;
  const getLead = routes.find((route) => route.operationId === 'getLead')!;
  const today = deploymentOf([listLeads, getLead]);

  it('waits for every route stack, whose methods it deploys', () => {
    expect(today.nested.length).toBeGreaterThan(0);
    expect(today.dependsOn).toEqual(expect.arrayContaining(today.nested));
  });

  it('is a new deployment when a method changes, and the same one when nothing does', () => {
    expect(deploymentOf([listLeads, getLead]).id).toBe(today.id);
    expect(deploymentOf([listLeads]).id).not.toBe(today.id);
    expect(deploymentOf([listLeads, { ...getLead, auth: 'none' }]).id).not.toBe(today.id);
    expect(deploymentOf([listLeads, { ...getLead, preflight: true }]).id).not.toBe(today.id);
  });
});
