import { fromEnv } from '@aws-sdk/credential-provider-env';

/**
 * The AWS SDK's default credential chain, as bundled into a Lambda function (infra/cdk/bundling.ts substitutes
 * this module for `@aws-sdk/credential-provider-node`). Lambda hands every function its role's credentials as
 * environment variables, so the chain's other links (profiles, SSO, web identity, instance metadata) are
 * never reached there, yet they make up 40 % of a bundle and of its import time (docs/performance.md).
 */
export const defaultProvider = (init?: Parameters<typeof fromEnv>[0]) => fromEnv(init);
