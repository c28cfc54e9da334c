import { NestedStack, Validations } from 'aws-cdk-lib';
import { AuthorizationType, type IResource, LambdaIntegration, RestApi, Stage } from 'aws-cdk-lib/aws-apigateway';
import type { Construct } from 'constructs';
import { authorizerOf, handlerOf, type AuthorizerKind, type RouteDefinition } from '#shared/routes/route';
import type { ApiFunction } from '../service-function';
import type { GatewayAuthorizer } from './authorizers';
import { addMethodNotAllowed } from './mock-answers';
import { PathTree } from './paths';
import { methodsOf, STAGE_NAME } from './rest-api';

export interface RouteGroupProps {
  routes: readonly RouteDefinition[];
  /** The gateway's authorizers, by name. */
  authorizers: Readonly<Record<AuthorizerKind, GatewayAuthorizer>>;
  /** The function answering a route, made in `scope` (one per handler: a PATCH alias is answered by its PUT's). */
  functionFor: (scope: Construct, route: RouteDefinition) => ApiFunction;
  /** The paths whose 405 mock this group makes, each with every method the path takes; none for sam local. */
  notAllowed: ReadonlyMap<string, readonly string[]>;
}

/** One method of a route on its path, reaching its function's live alias, behind its authorizer. */
function addRouteMethod(resource: IResource, httpMethod: string, route: RouteDefinition, apiFunction: ApiFunction, authorizers: RouteGroupProps['authorizers']) {
  const kind = authorizerOf(route);
  if (kind && !authorizers[kind]) throw new Error(`${route.operationId} names the authorizer ${kind}, which no resource provides (functions/resources.ts)`);
  const method = resource.addMethod(
    httpMethod,
    // No test-invoke permission: one Lambda permission per method, for the stage.
    new LambdaIntegration(apiFunction.alias, { allowTestInvoke: false }),
    // Every method with an authorizer requires the usage-plan key it names: its organization's plan meters it.
    kind ? { authorizer: authorizers[kind]!.authorizer, authorizationType: AuthorizationType.CUSTOM, apiKeyRequired: true } : { authorizationType: AuthorizationType.NONE },
  );
  if (!kind) {
    // OAuth's endpoints are called before a client holds any credential, the console's sign-in before a person holds a
    // session; the rest is the API's description of itself.
    const why =
      route.tag === 'OAuth'
        ? "OAuth's metadata, registration, consent and token endpoints, which a client calls before it holds a token"
        : route.resource === 'sign-in'
          ? "the console's sign-in, which a person calls before they hold a session"
          : "the API's own description and reference page";
    for (const rule of ['AwsSolutions-APIG4', 'AwsSolutions-COG4']) {
      Validations.of(method).acknowledge({ id: rule, reason: `${httpMethod} ${route.path} is public by design: ${why}.` });
    }
  } else {
    Validations.of(method).acknowledge({ id: 'AwsSolutions-COG4', reason: authorizers[kind]!.callers });
  }
  return { httpMethod, path: route.path, handler: handlerOf(route), authorizer: kind ?? 'none' };
}

/**
 * A group's routes in `scope`: each route's function (with its alias, canary and alarms) and its methods, and the 405
 * mocks of the group's paths. Answers what it made as plain data, which the stage's deployment hashes.
 */
export function wireRoutes(scope: Construct, paths: PathTree, { routes, authorizers, functionFor, notAllowed }: RouteGroupProps): unknown[] {
  const made: unknown[] = [];
  for (const route of routes) {
    const apiFunction = functionFor(scope, route);
    // A route's CORS preflight is answered by its own function, behind its authorizer: the function reads the
    // endpoint's allowed origins, which a mock integration could not.
    for (const httpMethod of methodsOf(route)) made.push(addRouteMethod(paths.resourceFor(route.path), httpMethod, route, apiFunction, authorizers));
  }
  for (const [path, methods] of notAllowed) made.push(addMethodNotAllowed(paths.resourceFor(path), methods));
  return made;
}

export interface RouteStackProps extends RouteGroupProps {
  api: RestApi;
  /** The paths the parent made (those of more than one group), by path. */
  sharedPaths: ReadonlyMap<string, IResource>;
  description: string;
}

/**
 * One group's routes in a nested stack of their own, on the parent's REST API imported by id (CDK's pattern for an
 * API across nested stacks): a group's functions, aliases, canaries, alarms, methods and paths count against its
 * stack's 500 resources, not the parent's.
 */
export class RouteStack extends NestedStack {
  /** What its methods are, as plain data. */
  readonly methods: unknown[];

  constructor(scope: Construct, id: string, { api, sharedPaths, description, ...group }: RouteStackProps) {
    super(scope, id, { description });
    const imported = RestApi.fromRestApiAttributes(this, 'RestApi', { restApiId: api.restApiId, rootResourceId: api.restApiRootResourceId });
    // The stage by its name: a reference to the parent's stage would make this stack wait for the stage, which waits for
    // the deployment, which waits for this stack's methods. A method's Lambda permission names the stage in its ARN.
    imported.deploymentStage = Stage.fromStageAttributes(this, 'Stage', { restApi: imported, stageName: STAGE_NAME }) as Stage;
    this.methods = wireRoutes(this, new PathTree(this, imported.root, sharedPaths), group);
  }
}
