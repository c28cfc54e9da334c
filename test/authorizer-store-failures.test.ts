import { describe, expect, it, vi } from 'vitest';
import { createApiKey } from '#shared/auth/api-keys';
import { handler as authorizer } from '../functions/authorizer';
import { useTestApi } from './support/api';
import { commandsSentBy } from './support/dynamo-calls';
import { memberSession } from './support/member-session';

/**
 * The API key authorizer, for a key and for a member's session, called as API Gateway calls it while the store fails
 * each call in turn: a read that fails is the store's fault, not the caller's (an error other than "Unauthorized",
 * which API Gateway answers 503), logged and counted as the authorizer's failure; a failed write of when the
 * credential was last used is bookkeeping, logged, and the credential still allowed.
 */
const api = useTestApi({ clock: 'manual' });
const ARN = 'arn:aws:execute-api:ap-southeast-2:123456789012:abc123/prod';
const invokedAs = { awsRequestId: 'lambda-auth', functionName: 'authorizer-fn', functionVersion: '7' } as never;

type Logged = Record<string, any>;
interface Authorized {
  answer: Logged;
  sent: string[];
  /** The log lines it wrote, parsed. */
  logged: Logged[];
  /** Its metrics in the Embedded Metric Format. */
  metrics: Logged[];
}

/** What the authorizer answered (or threw) for `token` on GET /v1/leads, the call numbered `failing` failing if given. */
async function authorized(token: string, failing = -1): Promise<Authorized> {
  const lines: Logged[] = [];
  // The logger writes through console in the tests (POWERTOOLS_DEV); metrics are off there unless turned on.
  const spies = (['log', 'info', 'warn', 'error'] as const).map((method) => vi.spyOn(console, method).mockImplementation((...args) => void lines.push(JSON.parse(args.map(String).join(' ')))));
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  let answer: Logged = {};
  const event = { type: 'REQUEST', methodArn: `${ARN}/GET/v1/leads`, headers: { Authorization: `Bearer ${token}` } } as never;
  try {
    const sent = await commandsSentBy(async () => void (answer = await authorizer(event, invokedAs).catch((error: Error) => error)), failing);
    return { answer, sent, logged: lines.filter((line) => !line._aws), metrics: lines.filter((line) => line._aws) };
  } finally {
    process.env.POWERTOOLS_METRICS_DISABLED = 'true';
    spies.forEach((spy) => spy.mockRestore());
  }
}

const counted = (metrics: Logged[]) => metrics.map((document) => [document.authorizer, document.version, document.AuthorizerFailures ?? 0, document.AuthorizerRefusals ?? 0]);
const errorsLogged = (logged: Logged[]) => logged.map((line) => [line.level, line.message]);

/** Past the precision of a credential's last use, so the authorizer writes it again. */
const AFTER_LAST_USE = 2 * 60_000;

describe("a member's session while the store fails", () => {
  it('each read in turn: a failure, not a refusal, logged and counted once; the failed write of its use: logged, and the session allowed as it was', async () => {
    const { organizationId } = await api.organization();
    const session = await memberSession(api, organizationId, { role: 'MEMBER' });
    await api.advanceTime(AFTER_LAST_USE);
    const healthy = await authorized(session.token);
    expect(healthy.answer.principalId).toBe(`member:${organizationId}:${session.member.id}`);
    expect([healthy.logged, healthy.metrics]).toEqual([[], []]);
    // The session, its use, then the organization's counter shards and the member's role side by side.
    expect(healthy.sent).toEqual(['GetItemCommand', 'UpdateItemCommand', 'GetItemCommand', 'GetItemCommand']);
    let endsAt = healthy.answer.context.sessionEndsAt as string;
    for (const [failing, command] of healthy.sent.entries()) {
      await api.advanceTime(AFTER_LAST_USE);
      const { answer, logged, metrics } = await authorized(session.token, failing);
      if (command === 'UpdateItemCommand') {
        expect(answer.principalId, `${failing}: ${command}`).toBe(`member:${organizationId}:${session.member.id}`);
        // Its idle end did not move: the gateway's answer holds the session to the end it had.
        expect(answer.context.sessionEndsAt).toBe(endsAt);
        expect(answer.context.endsAt).toBe(endsAt);
        expect(errorsLogged(logged)).toEqual([['ERROR', 'could not record the session as used']]);
        expect(logged[0]?.error).toMatchObject({ name: 'TimeoutError' });
        expect(counted(metrics)).toEqual([]);
      } else {
        expect(String(answer), `${failing}: ${command}`).toBe('Error: The session store could not be read');
        expect(errorsLogged(logged)).toEqual([['ERROR', 'authorizer could not check the session']]);
        expect(logged[0]?.error).toMatchObject({ name: 'TimeoutError' });
        expect(counted(metrics)).toEqual([['apiKey', '7', 1, 0]]);
      }
      const next = await authorized(session.token);
      expect(next.answer.context.sessionEndsAt > endsAt).toBe(true);
      endsAt = next.answer.context.sessionEndsAt;
    }
  });

  it('a token of no session, one character off, or of a member disabled: refused, counted as a refusal of the API key authorizer', async () => {
    const { organizationId, client: owner } = await api.organization();
    const session = await memberSession(api, organizationId);
    // A disabled member's session is kept, to work again once they are enabled: refused for its member, not for itself.
    const disabled = await memberSession(api, organizationId, { role: 'MEMBER' });
    expect((await owner.patch(`/v1/organization/members/${disabled.member.id}`, { isDisabled: true })).status).toBe(200);
    const other = session.token.at(-1) === 'A' ? 'B' : 'A';
    for (const token of [`${session.token.slice(0, -1)}${other}`, `${session.token}A`, session.token.slice(0, -1), disabled.token]) {
      const { answer, logged, metrics } = await authorized(token);
      expect(String(answer)).toBe('Error: Unauthorized');
      expect([logged, counted(metrics)]).toEqual([[], [['apiKey', '7', 0, 1]]]);
    }
  });
});

describe('an API key while the store fails', () => {
  it('each read in turn: a failure, not a refusal, logged and counted once; the failed write of its use: logged with the key, and the key allowed', async () => {
    const { organizationId } = await api.organization();
    const newKey = async () => (await createApiKey(organizationId, null, 'Store failures', 'read')).token;
    const healthy = await authorized(await newKey());
    expect(healthy.answer.principalId).toMatch(/^key_/);
    expect([healthy.logged, healthy.metrics]).toEqual([[], []]);
    // The key by its hash, then the counter shards (an operator's key acts for no member), then its first use.
    expect(healthy.sent).toEqual(['QueryCommand', 'GetItemCommand', 'UpdateItemCommand']);
    for (const [failing, command] of healthy.sent.entries()) {
      // A key never used is written as used on its first request.
      const { answer, logged, metrics } = await authorized(await newKey(), failing);
      if (command === 'UpdateItemCommand') {
        expect(answer.principalId, `${failing}: ${command}`).toMatch(/^key_/);
        expect(errorsLogged(logged)).toEqual([['ERROR', 'could not record the key as used']]);
        expect(logged[0]?.keyId).toBe(answer.principalId);
        expect(counted(metrics)).toEqual([]);
      } else {
        expect(String(answer), `${failing}: ${command}`).toBe('Error: The API key store could not be read');
        expect(errorsLogged(logged)).toEqual([['ERROR', 'authorizer could not check the key']]);
        expect(logged[0]?.error).toMatchObject({ name: 'TimeoutError' });
        expect(counted(metrics)).toEqual([['apiKey', '7', 1, 0]]);
      }
    }
  });
});
