import { createHash } from 'node:crypto';
import { VIEWER_ADDRESS_HEADER, VIEWER_ADDRESS_STAGE_VARIABLE } from '#shared/http/caller-address';
import { ArnFormat, CfnOutput, CfnResource, NestedStack, Stack, STACK_RESOURCE_LIMIT_CONTEXT, Validations, type StackProps } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
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
import { tenantDataAccessIn } from './tenant-data-role';
import { consoleDistribution } from './console-site';
import type { DeploymentOptions } from './options';

export { ACCESS_LOG_FIELDS, STAGE_NAME } from './api/rest-api';

export interface ApiStackProps extends StackProps {
  routes: RouteDefinition[];
  options: DeploymentOptions;
  /** Serve the console's files (./console-site.ts, in this stack's bucket) and the API on one origin; not for sam local. */
  console?: boolean;
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

/** What one stack operation creates, updates or deletes at most, its nested stacks included (CloudFormation's quota). */
export const OPERATION_RESOURCES = 2500;

/**
 * What the parent keeps for resources of its own made after its route stacks (the stage, usage plans, alarms,
 * dashboard, firewall, domain), beside those it made before them, which are counted as made (all of its own: 136 at
 * three times today's routes), and what a stack of routes after it keeps for its release and dashboard. 400 until the
 * notifications' routes: the parent's own counted twice, which left today's routes a stack of their own to spare.
 */
export const OWN_RESOURCES = { parent: 250, routes: 50 } as const;

/** The CloudFormation resources made in `stack` itself (not in stacks nested in it). */
const resourcesIn = (stack: Stack) => stack.node.findAll().filter((construct) => construct instanceof CfnResource && Stack.of(construct) === stack).length;

/**
 * The stateless part: the REST API, its authorizers and stage in this stack, and each group's (tag's) routes, with
 * their functions, aliases, canaries, alarms, methods and paths, in a nested stack of their own: one stack would pass
 * CloudFormation's 500 resources. One operation of a stack and its nested stacks creates at most 2 500 resources, so
 * the groups past what this stack's operation takes go to stacks of routes deployed after it (routeStacks), each
 * with its groups' nested stacks, on this stack's REST API.
 */
export class ApiStack extends Stack {
  readonly api: RestApi;
  /** One nested stack per tag, holding that tag's routes (in this stack, or in one of routeStacks). */
  readonly functionStacks = new Map<string, NestedStack>();
  /** The top-level stacks of routes past what this stack's operation takes, each deployed after the one before. */
  readonly routeStacks: RouteRootStack[] = [];
  /** What every method of the API is, as plain data, in whichever stack. */
  readonly methods: unknown[];

  constructor(scope: Construct, id: string, { routes, options: given, console: withConsole = false, ...props }: ApiStackProps) {
    super(scope, id, props);
    this.rootProps = { env: props.env };
    // The template for sam local holds every function (see samLocal); it is never deployed, so CloudFormation's 500 does not apply.
    if (given.samLocal) this.node.setContext(STACK_RESOURCE_LIMIT_CONTEXT, 0);
    // By name, not by a cross-stack export: the template stays self-contained (sam local can run it).
    const table = TableV2.fromTableName(this, 'Table', given.tableName);
    this.api = createRestApi(this);
    // The console and the API on one origin, the custom domain's when one is set: what the API's answers name.
    const edge = withConsole ? consoleDistribution(this, this.api, given.customDomain) : undefined;
    const consoleSite = edge?.distribution;
    const options: DeploymentOptions = consoleSite ? { ...given, consoleBaseUrl: `https://${consoleSite.distributionDomainName}` } : given;
    if (consoleSite) new CfnOutput(this, 'ConsoleUrl', { value: `https://${consoleSite.distributionDomainName}/console`, description: 'The owners’ console, with the API on the same origin' });
    addGatewayResponses(this.api, deployedBaseUrl(this, this.api, options));
    const monitoring = new Monitoring(this, 'Monitoring', { api: this.api, table, alarmEmails: options.alarmEmails });
    const functionDefaults = { table, logLevel: options.logLevel, debugSampleRate: options.debugSampleRate, architecture: options.architecture, ...createCanaryDeployments(this) };
    const { authorizers, made } = createAuthorizers(this, { routes, options, monitoring, functionDefaults, baseUrl: deployedBaseUrl(this, this.api, options) });
    const tenantData = tenantDataAccessIn(this, table, options.tableName);
    const { functionFor } = new RouteFunctions(this, { api: this.api, options, monitoring, functionDefaults, tenantData });
    const methods = [...made, ...this.addRoutes(routes, options.samLocal, { authorizers, functionFor })];
    // Behind the distribution with the firewall, the distribution is the one way in: the stage counts the viewer's address.
    const viewerEdge = edge !== undefined && options.waf !== undefined;
    const stage = deployStage(this.api, { routes, options, methods, variables: viewerEdge ? { [VIEWER_ADDRESS_STAGE_VARIABLE]: VIEWER_ADDRESS_HEADER } : {}, after: [...this.functionStacks.values()].filter((stack) => stack.nestedStackParent === this) });
    addUsagePlans(this, this.api, stage);
    monitoring.addDashboard();
    this.methods = [...methods, ...this.routeStacks.flatMap((root) => root.methods)];
    for (const root of this.routeStacks) root.release(this.api, this.methods);
    // With the console, the domain is its distribution's (above); without (sam local's template), the stage's own.
    if (options.customDomain && !consoleSite) addCustomDomain(this, this.api, stage, options.customDomain);
    if (options.customDomain && consoleSite) new CfnOutput(this, 'CustomDomainUrl', { value: `https://${options.customDomain.domainName}/`, description: 'The URL to give integrators; the console is at /console' });
    if (!options.waf) Validations.of(this.api).acknowledge({ id: 'AwsSolutions-APIG3', reason: 'The operator left the firewall off (-c waf=false): stage throttling and API-key authorization protect the API, and each per-source limit counts the connection’s address.' });
    if (options.waf) new Firewall(this, 'Firewall', { stage, stageName: STAGE_NAME, routes, ...options.waf, ...(edge ? { originSecrets: edge.originSecrets } : {}) });
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
    // Groups fill this stack's operation, then a stack of routes after it, then the next: each group is expected to take
    // as many resources a route as the most of any group made before it (20 before the first), and what each made is
    // counted.
    let root: Stack = this;
    let room = OPERATION_RESOURCES - OWN_RESOURCES.parent - resourcesIn(this);
    let perRoute = 20;
    for (const [tag, group] of groups) {
      if (Math.ceil(group.length * perRoute) + 1 > room) {
        root = new RouteRootStack(this.node.scope!, `${this.node.id}Routes${this.routeStacks.length + 2}`, { ...this.rootProps, after: this.routeStacks.at(-1) ?? this });
        this.routeStacks.push(root as RouteRootStack);
        room = OPERATION_RESOURCES - OWN_RESOURCES.routes;
      }
      const stack = new RouteStack(root, `${tag}Functions`, { ...shared, api: this.api, sharedPaths: paths, routes: group, notAllowed: notAllowed.get(tag)!, description: `The ${tag} routes` });
      this.functionStacks.set(tag, stack);
      const count = resourcesIn(stack) + 1;
      room -= count;
      perRoute = Math.max(this.functionStacks.size > 1 ? perRoute : 0, count / group.length);
      if (root === this) made.push(...stack.methods);
      else (root as RouteRootStack).methods.push(...stack.methods);
    }
    return made;
  }

  private readonly rootProps: Pick<StackProps, 'env'>;
}

/**
 * A top-level stack of route groups (each in its nested stack) on the API stack's REST API, deployed after it (and after
 * the stack of routes before it): its own CloudFormation operation, so the API's routes are not held to one
 * operation's 2 500 resources. The API stack's stage deployment is made before these methods exist, so this stack
 * releases them itself: once its nested stacks are in place, a new deployment of the whole API to the stage, made
 * again whenever one of its methods changes.
 */
export class RouteRootStack extends Stack {
  /** What its methods are, as plain data. */
  readonly methods: unknown[] = [];

  constructor(scope: Construct, id: string, { after, ...props }: StackProps & { after: Stack }) {
    super(scope, id, { ...props, description: "Routes of the sales pipeline API past what the API stack's operation holds" });
    this.addStackDependency(after);
  }

  /**
   * The deployment to the stage of every method, made after this stack's route stacks, and again when any method of the
   * API (`methods`, in whichever stack) changes: the API stack's own deployment, made when its methods change, would
   * otherwise leave the stage without later stacks' new ones.
   */
  release(api: RestApi, methods: readonly unknown[]): void {
    const restApiId = api.restApiId;
    const deployments = this.formatArn({ service: 'apigateway', account: '', resource: `/restapis/${restApiId}/deployments`, arnFormat: ArnFormat.NO_RESOURCE_NAME });
    const stage = this.formatArn({ service: 'apigateway', account: '', resource: `/restapis/${restApiId}/stages/${STAGE_NAME}`, arnFormat: ArnFormat.NO_RESOURCE_NAME });
    const hash = createHash('sha256').update(JSON.stringify(methods)).digest('hex');
    const call = {
      service: 'APIGateway',
      action: 'createDeployment',
      parameters: { restApiId, stageName: STAGE_NAME, description: `The routes of ${this.stackName}` },
      // A new physical id when any method changes: the call is made again, and the stage serves the new deployment.
      physicalResourceId: PhysicalResourceId.of(`${this.stackName}-${hash.slice(0, 16)}`),
    };
    const release = new AwsCustomResource(this, 'Release', {
      onCreate: call,
      onUpdate: call,
      policy: AwsCustomResourcePolicy.fromStatements([
        new PolicyStatement({ actions: ['apigateway:POST'], resources: [deployments] }),
        new PolicyStatement({ actions: ['apigateway:PATCH'], resources: [stage] }),
      ]),
      installLatestAwsSdk: false,
    });
    for (const child of this.node.children) if (child instanceof NestedStack) release.node.addDependency(child);
    Validations.of(this).acknowledge(
      { id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]', reason: 'The release function writes its own logs, nothing else.' },
      { id: 'AwsSolutions-L1', reason: 'The release function is CDK’s custom-resource provider, whose runtime CDK chooses.' },
    );
  }
}
