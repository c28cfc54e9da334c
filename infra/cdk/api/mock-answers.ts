import { Validations } from 'aws-cdk-lib';
import { AuthorizationType, ContentHandling, type IResource, MockIntegration, PassthroughBehavior } from 'aws-cdk-lib/aws-apigateway';
import { GATEWAY_RESPONSES, gatewayResponseBody, methodNotAllowed, type GatewayResponse } from '#shared/http/gateway-responses';
import { NO_STORE_HEADERS } from '#shared/http/envelope';

/** An answer API Gateway gives itself, from a mock integration: no function, no data. */
interface MockAnswer {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: unknown;
}

/** `allow` → `Allow`, `x-content-type-options` → `X-Content-Type-Options`. */
const titled = (name: string) => name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());

/** ANY on `resource`, answered by `answer` whatever the method and body; a path's own methods take precedence over ANY. */
function addMockAnswer(resource: IResource, { status, headers, body }: MockAnswer, reason: string): { httpMethod: string; path: string; status: number; headers: Record<string, string>; body: unknown } {
  // The headers every answer carries (no-store, nosniff), as the local gateway and the gateway's other responses do.
  const responseHeaders = { 'Content-Type': "'application/json'", ...Object.fromEntries(Object.entries({ ...NO_STORE_HEADERS, ...headers }).map(([name, value]) => [titled(name), `'${value}'`])) };
  const method = resource.addMethod(
    'ANY',
    new MockIntegration({
      // The mock reads its status from the request template, whatever the body. The stage takes every body as
      // binary (binaryMediaTypes */*), and a template applies to text only: the body is converted first.
      contentHandling: ContentHandling.CONVERT_TO_TEXT,
      passthroughBehavior: PassthroughBehavior.WHEN_NO_MATCH,
      requestTemplates: Object.fromEntries(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'].map((type) => [type, `{"statusCode": ${status}}`])),
      integrationResponses: [
        {
          statusCode: String(status),
          responseParameters: Object.fromEntries(Object.entries(responseHeaders).map(([name, value]) => [`method.response.header.${name}`, value])),
          responseTemplates: { 'application/json': JSON.stringify(body) },
        },
      ],
    }),
    {
      authorizationType: AuthorizationType.NONE,
      methodResponses: [{ statusCode: String(status), responseParameters: Object.fromEntries(Object.keys(responseHeaders).map((name) => [`method.response.header.${name}`, true])) }],
    },
  );
  for (const rule of ['AwsSolutions-APIG4', 'AwsSolutions-COG4']) Validations.of(method).acknowledge({ id: rule, reason });
  return { httpMethod: 'ANY', path: resource.path, status, headers: responseHeaders, body };
}

/**
 * A known path asked with another method: 405 with Allow, answered by API Gateway itself (a mock on ANY, which a
 * path's own methods take precedence over), so a wrong verb never looks like a missing record. Not for sam local: it
 * cannot run a mock integration, and takes the ANY mock for the path's own methods too.
 */
export function addMethodNotAllowed(resource: IResource, methods: readonly string[]) {
  const { status, headers, body } = methodNotAllowed(methods);
  return addMockAnswer(resource, { status, headers, body }, `ANY ${resource.path} answers only 405 with the path's methods, from a mock integration: it reaches no function and no data.`);
}

/**
 * The root path, which no route has: answered as every unknown path is (the gateway's MISSING_AUTHENTICATION_TOKEN
 * response, 404 NOT_FOUND), from a mock. It is the one method of the parent stack, which API Gateway's RestApi needs
 * when every route's methods live in the route stacks.
 */
export function addRootNotFound(root: IResource) {
  const notFound: GatewayResponse = GATEWAY_RESPONSES.MISSING_AUTHENTICATION_TOKEN;
  return addMockAnswer(root, { status: notFound.status, headers: notFound.headers ?? {}, body: gatewayResponseBody(notFound) }, 'ANY / answers only 404 NOT_FOUND, as any unknown path, from a mock integration: it reaches no function and no data.');
}
