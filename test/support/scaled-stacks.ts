import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { routes as todaysRoutes } from '../../functions/resources';
import { ApiStack } from '../../infra/cdk/api-stack';
import { readOptions } from '../../infra/cdk/options';
import type { RouteDefinition } from '#shared/routes/route';

/**
 * The route table `times` over: today's routes, and copies of them under other tags, paths and operationIds
 * (`/v1/leads/{leadId}` → `/v1/leads-2/{leadId}` tagged `Leads 2`), as another hundred routes of today's mix would be.
 */
export function scaledRoutes(times: number, routes: readonly RouteDefinition[] = todaysRoutes): RouteDefinition[] {
  const copy = (route: RouteDefinition, n: number): RouteDefinition => {
    // The first segment after /v1 (or the first of all), so the copies share /v1 as new resources would.
    const path = route.path.replace(/^(\/v1)?\/([^/]+)/, (_, v1: string | undefined, first: string) => `${v1 ?? ''}/${first}-${n}`);
    return { ...route, tag: `${route.tag} ${n}`, path, operationId: `${route.operationId}${n}`, ...(route.aliasOf ? { aliasOf: `${route.aliasOf}${n}` } : {}) };
  };
  return [...routes, ...Array.from({ length: times - 1 }, (_, index) => routes.map((route) => copy(route, index + 2))).flat()];
}

/** The API stack's templates for `routes`, synthesized offline as `npm run synth` does (bundling left out), and how long that took. */
export function synthApiStack(routes: RouteDefinition[]) {
  const started = performance.now();
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], alarmEmail: 'none' } });
  const api = new ApiStack(app, 'SalesPipelineApi', { routes, options: readOptions(app.node) });
  const parent = Template.fromStack(api).toJSON();
  const nested = [...api.functionStacks.values()].map((stack) => Template.fromStack(stack).toJSON());
  const resourceCount = (template: Record<string, any>) => Object.keys(template.Resources as object).length;
  return { parent, nested, parentResources: resourceCount(parent), nestedResources: nested.map(resourceCount), ms: performance.now() - started };
}
