import type { Capability } from '../routes/route';

/**
 * The gateway's cache of authorizer answers, which a credential taken away must not outlive: API Gateway keeps each
 * token's answer (its organization, scope, member and role) for the stage's TTL, 300 s by default. Whatever takes
 * authority away (a key or grant revoked, a session ended, a member removed, disabled or given another role) commits
 * its write, then flushes the stage's cache, so the very next request of every credential is decided afresh while an
 * unchanged one is cached again at that request. Deployed this is API Gateway's FlushStageAuthorizersCache; under
 * `npm start` and in the tests, the local gateways' own caches (infra/local/gateway.ts).
 */
export interface AuthorizerCache {
  flush(): Promise<void>;
}

/** The REST API's one stage, as the stack deploys it. */
export const DEPLOYED_STAGE = 'prod';

/** Where the stack puts the API's id and stage for the functions that flush (the capability below). */
export const REST_API_VARIABLE = 'REST_API_ID';
export const STAGE_VARIABLE = 'REST_API_STAGE';

function deployed(): AuthorizerCache | undefined {
  const restApiId = process.env[REST_API_VARIABLE];
  const stageName = process.env[STAGE_VARIABLE];
  if (!restApiId || !stageName) return undefined;
  return {
    async flush() {
      // Loaded at the first flush: most requests of these functions take nothing away.
      const { APIGatewayClient, FlushStageAuthorizersCacheCommand } = await import('@aws-sdk/client-api-gateway');
      // The control plane's rate limit answers 429 under a burst: the SDK's retries with backoff take it; a flush that
      // still fails throws, and the request answers 5xx with its revocation stored, so its retry flushes again.
      client ??= new APIGatewayClient({ maxAttempts: 6 });
      await client.send(new FlushStageAuthorizersCacheCommand({ restApiId, stageName }));
    },
  };
}

let client: import('@aws-sdk/client-api-gateway').APIGatewayClient | undefined;
const inProcess = new Set<AuthorizerCache>();
/** Read at the first flush, not on import: the admin CLI sets the API's id from its options first. */
let ofStack: AuthorizerCache | null | undefined;

/** Flushes every cached authorizer answer of the stage (deployed), or of every local gateway in this process. */
export async function flushAuthorizerCache(): Promise<void> {
  ofStack ??= deployed() ?? null;
  if (ofStack) return ofStack.flush();
  if (!inProcess.size) throw new Error(`No authorizer cache to flush: ${REST_API_VARIABLE} and ${STAGE_VARIABLE} are unset and no local gateway runs in this process`);
  await Promise.all([...inProcess].map((cache) => cache.flush()));
}

/** A local gateway's cache, flushed with the others until `release` is called (its server closed). */
export function addLocalAuthorizerCache(cache: AuthorizerCache): () => void {
  inProcess.add(cache);
  return () => inProcess.delete(cache);
}

/**
 * The capability of a route whose function takes authority away: the API's id and stage in its settings, and
 * apigateway:DELETE on that stage's authorizer cache alone (the FlushStageAuthorizersCache call).
 */
export const authorizerCacheFlush: Capability = {
  name: 'authorizerCacheFlush',
  reachesOutside: false,
  environment: ({ restApiId, stageName }) => ({ [REST_API_VARIABLE]: required(restApiId, 'restApiId'), [STAGE_VARIABLE]: required(stageName, 'stageName') }),
  statements: ({ partition, region, restApiId, stageName }) => [
    { actions: ['apigateway:DELETE'], resources: [`arn:${partition}:apigateway:${region}::/restapis/${required(restApiId, 'restApiId')}/stages/${required(stageName, 'stageName')}/cache/authorizers`] },
  ],
};

function required(value: string | undefined, name: string): string {
  if (!value) throw new Error(`The authorizer cache flush needs the API's ${name}: a route function's capability, made where the API is known`);
  return value;
}
