import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../resources';
import { OAUTH_LIMITS } from './settings';

/** The settings module as a function loads it, with `env` set: it reads the environment once, at its import. */
async function settingsWith(env: Record<string, string>) {
  vi.unstubAllEnvs();
  vi.resetModules();
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  return import('./settings');
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('the hosts whose client documents may be fetched although they are on this machine', () => {
  it('are those OAUTH_TEST_CLIENT_HOSTS lists, empty entries aside, and none when it is unset or empty', async () => {
    expect([...(await settingsWith({ OAUTH_TEST_CLIENT_HOSTS: 'localhost:8443,,127.0.0.1:9443,' })).clientDocumentHosts.allowed]).toEqual(['localhost:8443', '127.0.0.1:9443']);
    expect([...(await settingsWith({ OAUTH_TEST_CLIENT_HOSTS: '' })).clientDocumentHosts.allowed]).toEqual([]);
    delete process.env.OAUTH_TEST_CLIENT_HOSTS;
    expect([...(await settingsWith({})).clientDocumentHosts.allowed]).toEqual([]);
  });

  it('stop a deployed function from starting when any is set, and not a function under sam local, nor one with none set', async () => {
    await expect(settingsWith({ OAUTH_TEST_CLIENT_HOSTS: 'localhost:8443', AWS_LAMBDA_FUNCTION_NAME: 'PostOAuthToken' })).rejects.toThrow(
      'OAUTH_TEST_CLIENT_HOSTS is for npm start and the tests: a deployed function never fetches a client document from a private host',
    );
    await expect(settingsWith({ OAUTH_TEST_CLIENT_HOSTS: 'localhost:8443', AWS_LAMBDA_FUNCTION_NAME: 'PostOAuthToken', AWS_SAM_LOCAL: 'true' })).resolves.toMatchObject({ clientDocumentHosts: { allowed: new Set(['localhost:8443']) } });
    await expect(settingsWith({ OAUTH_TEST_CLIENT_HOSTS: '', AWS_LAMBDA_FUNCTION_NAME: 'PostOAuthToken' })).resolves.toMatchObject({ clientDocumentHosts: { allowed: new Set() } });
  });
});

describe('an unused registration', () => {
  it('is forgotten after a day, as the registration route and its answer say, in hours', () => {
    expect(OAUTH_LIMITS.unusedRegistrationSeconds).toBe(86_400);
    const register = routes.find((route) => route.operationId === 'registerOAuthClient')!;
    expect(register.description).toContain('The client is forgotten after 24 hours unless');
    expect(JSON.stringify(register.response)).toContain('Unused for 24 hours, it is forgotten');
  });
});
