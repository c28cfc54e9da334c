import { CfnOutput, NestedStack, Stack, STACK_RESOURCE_LIMIT_CONTEXT, type StackProps } from 'aws-cdk-lib';
import type { IResource, RestApi } from 'aws-cdk-lib/aws-apigateway';
import { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import type { RouteDefinition } from '#shared/routes/route';
import { createAuthorizers } from './api/authorizers';
import { addRootNotFound } from './api/mock-answers';
import { PathTree, sharedPaths } from './api/paths';
import { addGatewayResponses, createRestApi, deployStage, STAGE_NAME } from './api/rest-api';
import { createCanaryDeployments, deployedBaseUrl, RouteFunctions } from './api/route-functions';
import { RouteStack, wireRoutes, type RouteGroupProps } from './api/route-stack';
import { addCustomDomain, addUsagePlans } from './api/stage-access';
import { Firewall } from './firewall';
import { Monitoring } from './monitoring';
import type { DeploymentOptions } from './options';

export { ACCESS_LOG_FIELDS, STAGE_NAME } from './api/rest-api';

export interface ApiStackProps extends StackProps {
  routes: RouteDefinition[];
  options: DeploymentOptions;
}

/** The routes by group (their tag), in the route table's order. */
function byTag(routes: readonly RouteDefinition[]): Map<string, RouteDefinition[]> {
  const groups = new Map<string, RouteDefinition[]>();
  for (const route of routes) groups.set(route.tag, [...(groups.get(route.tag) ?? []), route]);
  return groups;
}

/** Each group's 405 mocks: a path's is made by the first group with a route on it, and allows every route's method. */
function notAllowedByGroup(groups: ReadonlyMap<string, readonly RouteDefinition[]>): Map<string, Map<string, string[]>> {
  const methodsByPath = new Map<string, string[]>();
  const owner = new Map<string, string>();
  for (const [group, routes] of groups) {
    for (const route of routes) {
      methodsByPath.set(route.path, [...(methodsByPath.get(route.path) ?? []), route.method]);
      if (!owner.has(route.path)) owner.set(route.path, group);
    }
  }
  const mocks = new Map([...groups.keys()].map((group) => [group, new Map<string, string[]>()]));
  for (const [path, methods] of methodsByPath) mocks.get(owner.get(path)!)!.set(path, methods);
  return mocks;
}

/**
 * The stateless part: the REST API, its authorizers and stage in this stack, and each group's (tag's) routes, with
 * their functions, aliases, canaries, alarms, methods and paths, in a nested stack of their own: one stack would pass
 * CloudFormation's 500 resources.
 */
export class ApiStack extends Stack {
  readonly api: RestApi;
  /** One nested stack per tag, holding that tag's routes. */
  readonly functionStacks = new Map<string, NestedStack>();

  constructor(scope: Construct, id: string, { routes, options, ...props }: ApiStackProps) {
    super(scope, id, props);
    // The template for sam local holds every function (see samLocal); it is never deployed, so CloudFormation's 500 does not apply.
    if (options.samLocal) this.node.setContext(STACK_RESOURCE_LIMIT_CONTEXT, 0);
    // By name, not by a cross-stack export: the template stays self-contained (sam local can run it).
    const table = TableV2.fromTableName(this, 'Table', options.tableName);
    this.api = createRestApi(this);
    addGatewayResponses(this.api, deployedBaseUrl(this, this.api, options));
    const monitoring = new Monitoring(this, 'Monitoring', { api: this.api, table, alarmEmails: options.alarmEmails });
    const functionDefaults = { table, logLevel: options.logLevel, debugSampleRate: options.debugSampleRate, architecture: options.architecture, ...createCanaryDeployments(this) };
    const { authorizers, made } = createAuthorizers(this, { routes, options, monitoring, functionDefaults, baseUrl: deployedBaseUrl(this, this.api, options) });
    const { functionFor } = new RouteFunctions(this, { api: this.api, options, monitoring, functionDefaults });
    const methods = [...made, ...this.addRoutes(routes, options.samLocal, { authorizers, functionFor })];
    const stage = deployStage(this.api, { routes, options, methods, after: [...this.functionStacks.values()] });
    addUsagePlans(this, this.api, stage);
    monitoring.addDashboard();
    if (options.customDomain) addCustomDomain(this, this.api, stage, options.customDomain);
    if (options.waf) new Firewall(this, 'Firewall', { stage, stageName: STAGE_NAME, ratePerIp: options.waf.ratePerIp });
    new CfnOutput(this, 'RestApiId', { value: this.api.restApiId, description: 'The admin CLI\'s --api, to put organizations in usage plans' });
  }

  /**
   * Every route's function and methods: in this stack for sam local, which cannot follow a nested stack's outputs to the
   * function behind a route; else in its group's nested stack, below the paths this stack makes for more than one group.
   */
  private addRoutes(routes: readonly RouteDefinition[], samLocal: boolean, shared: Pick<RouteGroupProps, 'authorizers' | 'functionFor'>): unknown[] {
    // Not for sam local: it cannot run a mock integration, and takes the ANY mock for the path's own methods too.
    if (samLocal) return wireRoutes(this, new PathTree(this, this.api.root), { ...shared, routes, notAllowed: new Map() });
    const groups = byTag(routes);
    const notAllowed = notAllowedByGroup(groups);
    const paths = new Map<string, IResource>(sharedPaths(groups).map((path) => [path, this.api.root.resourceForPath(path)]));
    const made: unknown[] = [addRootNotFound(this.api.root)];
    for (const [tag, group] of groups) {
      const stack = new RouteStack(this, `${tag}Functions`, { ...shared, api: this.api, sharedPaths: paths, routes: group, notAllowed: notAllowed.get(tag)!, description: `The ${tag} routes` });
      this.functionStacks.set(tag, stack);
      made.push(...stack.methods);
    }
    return made;
  }
}
