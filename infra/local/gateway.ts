import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { GATEWAY_RESPONSES, gatewayResponseBody, methodNotAllowed, type GatewayResponse } from '#shared/http/gateway-responses';
import { publicBaseUrl } from '#shared/http/base-url';
import { unauthorizedChallenge } from '../../functions/oauth/metadata';
import { NO_STORE_HEADERS } from '#shared/http/envelope';
import { authorizerOf, handlerOf, routeId, type AuthorizerKind, type RouteDefinition } from '#shared/routes/route';
import type { Admission } from './rate-limiter';
import type { AuthorizerCache } from '#shared/auth/authorizer-cache';

type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<{ statusCode: number; headers?: Record<string, string>; body: string; isBase64Encoded?: boolean }>;
type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

const STAGE = 'local';
const MAX_BODY_BYTES = 10 * 1024 * 1024; // API Gateway's payload limit

interface CompiledRoute {
  route: RouteDefinition;
  pattern: RegExp;
  params: string[];
}

function compile(route: RouteDefinition): CompiledRoute {
  const params: string[] = [];
  const source = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    params.push(name);
    return '([^/]+)';
  });
  return { route, pattern: new RegExp(`^${source}/?$`), params };
}

/** Literal segments win over parameters, as in API Gateway (/v1/products/batch before /v1/products/{id}). */
const specificity = (r: CompiledRoute) => r.params.length;

function lambdaContext(name: string): Context {
  const awsRequestId = randomUUID();
  return {
    awsRequestId,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${name}`,
    memoryLimitInMB: '256',
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => 29_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** API Gateway's evaluation of an execute-api ARN against the policy: some statement allows it, and none denies it. */
function allows(result: APIGatewayAuthorizerResult, methodArn: string): boolean {
  const matching = result.policyDocument.Statement.filter((statement) => {
    const resources = 'Resource' in statement ? [statement.Resource].flat() : [];
    return resources.some((resource) => new RegExp(`^${String(resource).split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`).test(methodArn));
  });
  return matching.some((statement) => statement.Effect === 'Allow') && !matching.some((statement) => statement.Effect === 'Deny');
}

/** A path segment with malformed percent-encoding (`%E0%A4%A`) is the caller's error, as API Gateway answers it. */
function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

async function readBody(request: IncomingMessage): Promise<Buffer | null | 'TOO_LARGE'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return 'TOO_LARGE';
    chunks.push(chunk as Buffer);
  }
  return chunks.length ? Buffer.concat(chunks) : null;
}

export interface LocalGatewayOptions {
  routes: RouteDefinition[];
  loadHandler: (route: RouteDefinition) => Promise<ProxyHandler>;
  /** The authorizer of a kind: the API key's, or a public route's own (authorizerOf). */
  loadAuthorizer: (kind: AuthorizerKind) => Promise<AuthorizerHandler>;
  /** Wraps each function invocation (not the authorizer's), e.g. to attribute its DynamoDB calls to the route. */
  aroundInvoke?: <T>(route: RouteDefinition, invoke: () => Promise<T>) => Promise<T>;
  /** Wraps each authorizer invocation, e.g. to keep its DynamoDB calls apart from any route's. */
  aroundAuthorize?: <T>(authorize: () => Promise<T>) => Promise<T>;
  /** Usage-plan metering of an authorized request by the authorizer's usageIdentifierKey, as API Gateway's. */
  meter?: (usageIdentifierKey: string) => Promise<Admission>;
  /** How long the API key authorizer's Allow is reused for the same Authorization header, as API Gateway's result cache; 0 (the default) asks every time. An authorizer without an identity source is never cached. */
  authorizerCacheTtlMs?: number;
  /** How long a function may take before the gateway answers 504, as API Gateway's 29 s. */
  integrationTimeoutMs?: number;
  /** The stage's variables, given to every authorizer and function as API Gateway gives them (none unless set). */
  stageVariables?: Record<string, string>;
}

/** API Gateway ends an integration after 29 s. */
export const INTEGRATION_TIMEOUT_MS = 29_000;

/**
 * A small stand-in for API Gateway's REST API: matches the route table, runs the real authorizer
 * and the real handler with the same proxy events, and answers with the same gateway responses.
 */
export function createLocalGateway({ routes, loadHandler, loadAuthorizer, aroundInvoke = (_, invoke) => invoke(), aroundAuthorize = (authorize) => authorize(), meter, authorizerCacheTtlMs = 0, integrationTimeoutMs = INTEGRATION_TIMEOUT_MS, stageVariables }: LocalGatewayOptions) {
  const allowedByHeader = new Map<string, { result: APIGatewayAuthorizerResult; until: number }>();
  /**
   * Moves at each flush: an answer the authorizer began before a flush is not cached after it, as it may have read a
   * credential the flush was for (a revocation committed while it ran).
   */
  let flushes = 0;
  const flush = async () => {
    flushes += 1;
    allowedByHeader.clear();
  };
  /** Invocations under way per function (its handler) with a reserved concurrency: as Lambda counts them against it. */
  const running = new Map<string, number>();
  const compiled = routes.map(compile).sort((a, b) => specificity(a) - specificity(b));

  const send = (response: ServerResponse, statusCode: number, body: string | Buffer, headers: Record<string, string> = {}) => {
    response.writeHead(statusCode, { 'content-type': 'application/json; charset=utf-8', ...NO_STORE_HEADERS, ...headers });
    response.end(body);
  };
  const sendGateway = (response: ServerResponse, gateway: GatewayResponse) =>
    send(response, gateway.status, JSON.stringify(gatewayResponseBody(gateway)), gateway.headers);
  /** The 401, naming the MCP server's OAuth metadata at the URL asked, as the stack's names it at the deployed one. */
  const sendUnauthorized = (response: ServerResponse, request: IncomingMessage) => {
    const base = publicBaseUrl({ ...(request.headers.host ? { host: request.headers.host } : {}), ...(typeof request.headers['x-forwarded-proto'] === 'string' ? { 'x-forwarded-proto': request.headers['x-forwarded-proto'] } : {}) });
    const gateway = GATEWAY_RESPONSES.UNAUTHORIZED;
    send(response, gateway.status, JSON.stringify(gatewayResponseBody(gateway)), { ...gateway.headers, 'WWW-Authenticate': unauthorizedChallenge(base) });
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const method = (request.method ?? 'GET').toUpperCase();
    // As API Gateway: the most specific path first (/v1/products/batch before /v1/products/{productId}), then the method.
    const onPath = compiled.map((candidate) => ({ candidate, values: candidate.pattern.exec(url.pathname) })).filter(({ values }) => values !== null);
    const resource = onPath.filter(({ candidate }) => candidate.route.path === onPath[0]?.candidate.route.path);
    // A route that answers its CORS preflight takes OPTIONS on its path too, with the same function and authorizer.
    const match = resource.find(({ candidate }) => candidate.route.method === method || (method === 'OPTIONS' && candidate.route.preflight));
    if (!match?.values) {
      if (!resource.length) return sendGateway(response, GATEWAY_RESPONSES.MISSING_AUTHENTICATION_TOKEN);
      const refused = methodNotAllowed(resource.map(({ candidate }) => candidate.route.method));
      return send(response, refused.status, JSON.stringify(refused.body), refused.headers);
    }

    const { route, params } = match.candidate;
    const body = await readBody(request);
    if (body === 'TOO_LARGE') return sendGateway(response, GATEWAY_RESPONSES.REQUEST_TOO_LARGE);

    // Prototype-free maps: a header or parameter named constructor or __proto__ is just a name.
    const headers: Record<string, string> = Object.create(null);
    const multiValueHeaders: Record<string, string[]> = Object.create(null);
    for (let i = 0; i < request.rawHeaders.length; i += 2) {
      const name = request.rawHeaders[i]!;
      const value = request.rawHeaders[i + 1]!;
      headers[name] = value;
      (multiValueHeaders[name] ??= []).push(value);
    }
    const query: Record<string, string> = Object.create(null);
    const multiQuery: Record<string, string[]> = Object.create(null);
    for (const [name, value] of url.searchParams) {
      query[name] = value;
      (multiQuery[name] ??= []).push(value);
    }
    const decoded = params.map((_, i) => safeDecode(match.values![i + 1]!));
    if (decoded.includes(undefined)) return sendGateway(response, GATEWAY_RESPONSES.DEFAULT_4XX);
    const pathParameters = Object.fromEntries(params.map((name, i) => [name, decoded[i]!]));
    const requestId = randomUUID();
    const methodArn = `arn:aws:execute-api:local:000000000000:local/${STAGE}/${method}${url.pathname}`;
    const sourceIp = request.socket.remoteAddress ?? '127.0.0.1';

    let authorizer: Record<string, unknown> | null = null;
    const kind = authorizerOf(route);
    if (kind) {
      // The API key authorizer's identity source is the Authorization header: without one API Gateway answers 401
      // itself, and its value keys the result cache. An authorizer without an identity source is asked every time.
      let identity: string | undefined;
      if (kind === 'apiKey') {
        const header = Object.keys(headers).find((name) => name.toLowerCase() === 'authorization');
        if (!header) return sendUnauthorized(response, request);
        identity = headers[header]!;
      }
      const entry = identity === undefined ? undefined : allowedByHeader.get(identity);
      const cached = entry && entry.until > Date.now() ? entry : undefined;
      const authorize = await loadAuthorizer(kind);
      const flushesBefore = flushes;
      const result = cached ? cached.result : await aroundAuthorize(() => authorize({
        type: 'REQUEST',
        methodArn,
        resource: route.path,
        path: url.pathname,
        httpMethod: method,
        headers,
        multiValueHeaders,
        pathParameters,
        queryStringParameters: query,
        multiValueQueryStringParameters: multiQuery,
        stageVariables: stageVariables ?? {},
        // The sender's address, as API Gateway gives a REQUEST authorizer: the inbound one bounds unknown ids per source.
        requestContext: { identity: { sourceIp } } as APIGatewayRequestAuthorizerEvent['requestContext'],
      })).catch((error: unknown) => {
        if ((error as Error).message === 'Unauthorized') return 'UNAUTHORIZED' as const;
        console.error(JSON.stringify({ level: 'ERROR', message: 'authorizer failed', authorizer: kind, error: String(error) }));
        return 'FAILED' as const;
      });
      if (result === 'UNAUTHORIZED') return sendUnauthorized(response, request);
      if (result === 'FAILED') return sendGateway(response, GATEWAY_RESPONSES.AUTHORIZER_FAILURE);
      // The policy is cached whole, as API Gateway does, and every request of the token is checked against it.
      if (authorizerCacheTtlMs > 0 && identity !== undefined && !cached && flushes === flushesBefore) allowedByHeader.set(identity, { result, until: Date.now() + authorizerCacheTtlMs });
      if (!allows(result, methodArn)) return sendGateway(response, GATEWAY_RESPONSES.ACCESS_DENIED);
      // Every method with an authorizer requires the usage-plan key it names (apiKeyRequired): metered the same way.
      if (meter && result.usageIdentifierKey) {
        const admission = await meter(result.usageIdentifierKey);
        if (admission !== 'ADMITTED') return sendGateway(response, GATEWAY_RESPONSES[admission]);
      }
      authorizer = { principalId: result.principalId, ...result.context };
    }

    const event = {
      resource: route.path,
      path: url.pathname,
      httpMethod: method,
      headers,
      multiValueHeaders,
      queryStringParameters: url.searchParams.size ? query : null,
      multiValueQueryStringParameters: url.searchParams.size ? multiQuery : null,
      pathParameters: params.length ? pathParameters : null,
      stageVariables: stageVariables ?? null,
      requestContext: {
        accountId: '000000000000',
        apiId: 'local',
        authorizer,
        httpMethod: method,
        // The server answers at its root, as API Gateway does on a custom domain mapped to the stage.
        path: url.pathname,
        protocol: 'HTTP/1.1',
        requestId,
        requestTimeEpoch: Date.now(),
        resourceId: routeId(route),
        resourcePath: route.path,
        stage: STAGE,
        identity: { sourceIp, userAgent: headers['user-agent'] ?? null },
      },
      // As the stack's binaryMediaTypes */* has it: every request body reaches the function base64-encoded.
      body: body?.toString('base64') ?? null,
      isBase64Encoded: body !== null,
    } as unknown as APIGatewayProxyEvent;

    const handler = await loadHandler(route);
    // A function at its reserved concurrency is throttled by Lambda, which API Gateway answers as INTEGRATION_FAILURE.
    const fn = route.reservedConcurrency === undefined ? undefined : handlerOf(route);
    if (fn !== undefined && (running.get(fn) ?? 0) >= route.reservedConcurrency!) return sendGateway(response, GATEWAY_RESPONSES.INTEGRATION_FAILURE);
    if (fn !== undefined) running.set(fn, (running.get(fn) ?? 0) + 1);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'TIMEOUT'>((resolve) => {
      timer = setTimeout(() => resolve('TIMEOUT'), integrationTimeoutMs);
    });
    const invocation = aroundInvoke(route, () => handler(event, lambdaContext(routeId(route)))).catch((error: unknown) => {
      console.error(JSON.stringify({ level: 'ERROR', message: 'handler crashed', route: route.operationId, error: String(error) }));
      return undefined;
    });
    // The invocation holds its slot until it ends, past the gateway's timeout, as a Lambda invocation does.
    if (fn !== undefined) void invocation.finally(() => running.set(fn, running.get(fn)! - 1));
    const result = await Promise.race([invocation, timedOut]).finally(() => clearTimeout(timer));
    if (result === 'TIMEOUT') {
      console.error(JSON.stringify({ level: 'ERROR', message: 'integration timed out', route: route.operationId, afterMs: integrationTimeoutMs }));
      return sendGateway(response, GATEWAY_RESPONSES.INTEGRATION_TIMEOUT);
    }
    if (!result) return sendGateway(response, GATEWAY_RESPONSES.DEFAULT_5XX);
    // A base64 answer (a gzipped script) goes out as its bytes, as API Gateway sends it under binaryMediaTypes */*.
    send(response, result.statusCode, result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body, { ...result.headers, 'x-request-id': requestId });
  };

  const listener = (request: IncomingMessage, response: ServerResponse): void => {
    handle(request, response).catch((error: unknown) => {
      console.error(JSON.stringify({ level: 'ERROR', message: 'local gateway failed', error: String(error) }));
      if (!response.headersSent) sendGateway(response, GATEWAY_RESPONSES.DEFAULT_5XX);
    });
  };
  // As FlushStageAuthorizersCache empties the stage's cache: the functions that take authority away call it.
  return Object.assign(listener, { authorizerCache: { flush } satisfies AuthorizerCache });
}
