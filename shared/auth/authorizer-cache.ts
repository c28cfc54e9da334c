import { REST_API_VARIABLE, STAGE_VARIABLE } from './authorizer-cache-flush';

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
