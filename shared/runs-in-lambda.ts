/**
 * Whether this process is a function Lambda runs, deployed: its runtime sets AWS_LAMBDA_FUNCTION_NAME. `sam local`
 * sets it too, in a container on a developer's machine, beside AWS_SAM_LOCAL, so that is no deployed function; nor
 * is `npm start` (and the tests), whose server sets AWS_LAMBDA_MAX_CONCURRENCY alone, for the logger's per-invocation
 * keys, never a function's name. What is refused deployed (a local key, a test setting) asks this, and nothing else.
 */
export const runsInLambda = (env: NodeJS.ProcessEnv = process.env): boolean => Boolean(env.AWS_LAMBDA_FUNCTION_NAME) && !env.AWS_SAM_LOCAL;
