import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runsInLambda } from '#shared/runs-in-lambda';
import { keyringsFromEnvironment } from '#shared/envelope-encryption';

const LOCAL_KEY = Buffer.alloc(32, 1).toString('base64');

/** The environments a function's code runs in, as each sets the variables that tell them apart. */
const ENVIRONMENTS = {
  // Lambda's runtime names the function, its version and the runtime.
  'deployed in Lambda': { AWS_LAMBDA_FUNCTION_NAME: 'OauthAuthorize', AWS_LAMBDA_FUNCTION_VERSION: '7', AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x' },
  // sam local's container names the function as Lambda does, and says it is sam local.
  'sam local': { AWS_LAMBDA_FUNCTION_NAME: 'OauthAuthorize', AWS_LAMBDA_FUNCTION_VERSION: '$LATEST', AWS_SAM_LOCAL: 'true' },
  // npm start's server (infra/local/server.ts) sets the runtime's concurrency for the logger, and no function's name.
  'npm start': { AWS_LAMBDA_MAX_CONCURRENCY: '100' },
} satisfies Record<string, NodeJS.ProcessEnv>;

/** functions/oauth/settings.ts loaded in a process of its own with `env` and the test client hosts: its refusal, or null when it starts. */
function oauthSettingsRefusal(env: NodeJS.ProcessEnv): string | null {
  const loaded = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', "await import('./functions/oauth/settings.ts')"], {
    env: { PATH: process.env.PATH!, OAUTH_TEST_CLIENT_HOSTS: 'localhost:8443', ...env },
    encoding: 'utf8',
  });
  return loaded.status === 0 ? null : loaded.stderr;
}

describe('running in Lambda', () => {
  it.each([
    ['deployed in Lambda', true],
    ['sam local', false],
    ['npm start', false],
  ] as const)('%s: %s, for the check itself, the local key and the OAuth test setting alike', async (name, inLambda) => {
    const env = ENVIRONMENTS[name];
    expect(runsInLambda(env)).toBe(inLambda);
    const sdk = await import('@aws-crypto/client-node');
    const localKeyring = () => keyringsFromEnvironment(sdk, { SECRETS_LOCAL_KEY: LOCAL_KEY, ...env });
    if (inLambda) expect(localKeyring).toThrow('SECRETS_LOCAL_KEY is refused in Lambda');
    else expect(localKeyring().sealing.constructor.name).toBe('RawAesKeyringNode');
    if (inLambda) expect(oauthSettingsRefusal(env)).toContain('OAUTH_TEST_CLIENT_HOSTS is for npm start and the tests');
    else expect(oauthSettingsRefusal(env)).toBeNull();
  });

  it('is not what the local server leaves in its process, nor the tests’ environment', async () => {
    await import('../infra/local/server');
    expect(process.env.AWS_LAMBDA_MAX_CONCURRENCY).toBe('100');
    expect(runsInLambda()).toBe(false);
  });
});
