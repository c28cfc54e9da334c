import type { Capability } from '../routes/route';

/*
 * The capability of the routes that take authority away, apart from the flush itself (./authorizer-cache.ts): every
 * route table imports this, and the flush's client is for the functions that call it alone.
 */

/** The REST API's one stage, as the stack deploys it. */
export const DEPLOYED_STAGE = 'prod';

/** Where the stack puts the API's id and stage for the functions that flush. */
export const REST_API_VARIABLE = 'REST_API_ID';
export const STAGE_VARIABLE = 'REST_API_STAGE';

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
