import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { config } from '#shared/config';
import { TTL_ATTRIBUTE } from '#shared/table';
import { dynamo } from '#shared/dynamo';
import { hashToken } from '#shared/auth/tokens';
import { useTestApi } from '../../test/support/api';
import { commandsSentBy } from '../../test/support/dynamo-calls';
import { holdWrite } from '../../test/support/interleave';
import { lastTextTo, memberSession } from '../../test/support/member-session';
import { createMember } from '../organization/member-rules';
import { sentLocally } from '../sms/local-provider';
import { sendAskedCode, signInText, useSignInCode } from './codes';
import { signInKeys } from './entity';
import { endEverySession, endSession, findActiveSession, startSession, touchSession } from './sessions';
import { sessionTokenHash } from './session-token';
import { SESSION_LIFETIME, SIGN_IN_CODE } from './settings';

/**
 * What the sign-in code and the session keep in the table, called as the code worker, the sign-in route and the
 * authorizer call them, against DynamoDB Local: each store call failing in turn, two callers at once, and each end to
 * the millisecond on the manual clock.
 */
const api = useTestApi({ clock: 'manual' });

beforeEach(() => api.advanceTime('PT1H'));

const IDLE_MS = SESSION_LIFETIME.idleMinutes * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const nowIso = () => iso(api.clock.now());

let phones = 0;
/** A phone no other test of the file uses. */
const newPhone = () => `+614127${String(20_000 + ++phones).padStart(5, '0')}`;

async function memberWithPhone(phone = newPhone()) {
  const organization = await api.organization();
  const member = await createMember(organization.organizationId, { role: 'MEMBER', firstName: 'Lena', lastName: 'Park', email: `lena${phones}@example.com.au`, phone });
  return { ...organization, member, phone };
}

let asks = 0;
/** An ask for a code for the phone, taken now, as the queue hands it to the worker. */
const askFor = (phone: string, askId = `ask-${++asks}`) => ({ askId, phone, requestedAt: nowIso() });
/** The code last texted to the phone. */
const codeOf = (phone: string) => /^(\d{6}) is your sign-in code/.exec(lastTextTo(phone)?.body ?? '')?.[1] ?? '';
const textsTo = (phone: string) => sentLocally.filter((sms) => sms.to === phone).length;
/** A new code for the phone, made and texted by the worker. */
async function textedCode(phone: string): Promise<string> {
  await sendAskedCode(askFor(phone));
  return codeOf(phone);
}
/** A code of the right form that is not the one texted: one digit off. */
const offBy = (code: string, by = 1) => String((Number(code[0]) + by) % 10) + code.slice(1);

const itemAt = async (key: { pk: string; sk: string }) => (await dynamo.send(new GetCommand({ TableName: config.tableName, Key: key, ConsistentRead: true }))).Item;
const storedCode = (phone: string) => itemAt(signInKeys.signInCode(hashToken(phone)));

/** What `action` came to (what it threw, if it did) and the table calls it sent, the one numbered `failing` failing as a timeout. */
async function sentWhile<T>(action: () => Promise<T>, failing = -1): Promise<{ outcome: T | Error; sent: string[] }> {
  let outcome: T | Error = new Error('not run');
  const sent = await commandsSentBy(async () => void (outcome = await action().catch((error: Error) => error)), failing);
  return { outcome, sent };
}
/** How it went, in a word: the refusal's code, or the error's name. */
const how = (outcome: unknown) => (outcome instanceof Error ? ((outcome as Error & { code?: string }).code ?? outcome.name) : 'done');
const settled = <T>(promise: Promise<T>) => promise.catch((error: Error) => error);

/** Holds the first delete of a sign-in code until `release()`; `reached` resolves once it is held. */
const holdCodeDelete = () => holdWrite(/SIGNIN#/, new Set(['DeleteCommand', 'DeleteItemCommand']));

describe('a sign-in code, as the worker makes it', () => {
  it('is made for a member’s phone alone, stored as a sign-in code, texted as a member’s text of no conversation, and logged without the phone or the code', async () => {
    const { phone, organizationId, member } = await memberWithPhone();
    const stranger = newPhone();
    const written: string[] = [];
    const spies = (['log', 'info', 'warn', 'error'] as const).map((method) => vi.spyOn(console, method).mockImplementation((...args) => void written.push(args.map(String).join(' '))));
    try {
      await expect(sendAskedCode(askFor(stranger))).resolves.toBeUndefined();
      await sendAskedCode(askFor(phone, 'ask-of-member'));
    } finally {
      spies.forEach((spy) => spy.mockRestore());
    }
    expect([await storedCode(stranger), lastTextTo(stranger)], 'nothing kept or texted for a phone of no member').toEqual([undefined, undefined]);
    const code = codeOf(phone);
    const expiresAt = iso(api.clock.now() + SIGN_IN_CODE.lifetimeMinutes * 60_000);
    // Kept by DynamoDB until its end, in whole seconds, at the latest (TTL deletes only what has expired).
    const ttl = Math.ceil(api.clock.now() / 1000) + SIGN_IN_CODE.lifetimeMinutes * 60;
    expect(await storedCode(phone)).toMatchObject({ entity: 'SIGN_IN_CODE', attempts: 0, askId: 'ask-of-member', expiresAt, textedAt: nowIso(), [TTL_ATTRIBUTE]: ttl });
    expect(lastTextTo(phone)).toEqual({ organizationId, messageId: expect.stringMatching(/^message_[0-9A-HJKMNP-TV-Z]{26}$/), inquiryId: '', threadId: '', userId: null, memberId: member.id, from: null, to: phone, body: signInText(code), createdAt: nowIso() });
    const lines = written.flatMap((line): Record<string, unknown>[] => (line.startsWith('{') ? [JSON.parse(line)] : []));
    expect(lines.filter((line) => line.message === 'sign-in code sent')).toEqual([expect.objectContaining({ level: 'INFO', organizationId, memberId: member.id })]);
    expect(written.join('\n')).not.toContain(code);
    expect(written.join('\n')).not.toContain(phone.slice(1));

    // Each text is a message of its own.
    await sendAskedCode(askFor(phone));
    expect(new Set(sentLocally.filter((sms) => sms.to === phone).map((sms) => sms.messageId)).size).toBe(2);
  });

  it('drops an ask as old as a code’s life (one that waited out an outage), and texts one a millisecond younger', async () => {
    const { phone } = await memberWithPhone();
    const lifeMs = SIGN_IN_CODE.lifetimeMinutes * 60_000;
    await sendAskedCode({ askId: 'stale', phone, requestedAt: iso(api.clock.now() - lifeMs) });
    expect([await storedCode(phone), textsTo(phone)]).toEqual([undefined, 0]);
    await sendAskedCode({ askId: 'in-time', phone, requestedAt: iso(api.clock.now() - lifeMs + 1) });
    expect(textsTo(phone)).toBe(1);
    expect(await storedCode(phone)).toMatchObject({ askId: 'in-time', textedAt: nowIso() });
  });

  it('fails the ask whole when the store fails any of its calls, so the queue hands it again; handed again, it texts a code that signs in', async () => {
    const { phone, member } = await memberWithPhone();
    const healthy = await sentWhile(() => sendAskedCode(askFor(phone)));
    // Who the phone is a member of (the index, then the member and its organization side by side), the code, its mark.
    expect(healthy.sent).toEqual(['QueryCommand', 'GetItemCommand', 'GetItemCommand', 'PutItemCommand', 'UpdateItemCommand']);
    for (const [failing, command] of healthy.sent.entries()) {
      const ask = askFor(phone);
      expect(how((await sentWhile(() => sendAskedCode(ask), failing)).outcome), `${failing}: ${command}`).toBe('TimeoutError');
      expect(how((await sentWhile(() => sendAskedCode(ask))).outcome)).toBe('done');
      expect((await useSignInCode(phone, codeOf(phone), undefined)).member.id, `${failing}: ${command}`).toBe(member.id);
    }
  });

  it('keeps the later code of two asks at once: the earlier ask’s text does not mark it, and the later ask handed again texts nothing more', async () => {
    const { phone, member } = await memberWithPhone();
    // The earlier ask has texted its code and waits to mark it texted when the later one replaces it.
    const held = holdWrite(/textedAt/);
    const earlier = settled(sendAskedCode(askFor(phone, 'earlier')));
    await held.reached;
    const earlierCode = codeOf(phone);
    // A second later, so the earlier ask's mark, were it written, would show its own time.
    await api.clock.advanceTo(api.clock.now() + 1_000);
    await sendAskedCode(askFor(phone, 'later'));
    const laterCode = codeOf(phone);
    held.release();
    expect(how(await earlier)).toBe('done');
    expect(textsTo(phone)).toBe(2);
    expect(await storedCode(phone)).toMatchObject({ askId: 'later', textedAt: nowIso(), attempts: 0 });
    await sendAskedCode(askFor(phone, 'later'));
    expect(textsTo(phone)).toBe(2);
    expect(how(await settled(useSignInCode(phone, earlierCode, undefined)))).toBe('INVALID_CODE');
    expect((await useSignInCode(phone, laterCode, undefined)).member.id).toBe(member.id);
  });
});

describe('a sign-in code, used', () => {
  it('signs in until its end, to the millisecond, and is a wrong code from then, while its item is still kept', async () => {
    const lifeMs = SIGN_IN_CODE.lifetimeMinutes * 60_000;
    const { phone, member } = await memberWithPhone();
    const lastMoment = await textedCode(phone);
    await api.clock.advanceTo(api.clock.now() + lifeMs - 1);
    expect((await useSignInCode(phone, lastMoment, undefined)).member.id).toBe(member.id);

    const expired = await textedCode(phone);
    const expiresAt = iso(api.clock.now() + lifeMs);
    await api.clock.advanceTo(api.clock.now() + lifeMs);
    expect(await storedCode(phone), 'not yet deleted by its TTL').toMatchObject({ entity: 'SIGN_IN_CODE', attempts: 0, expiresAt });
    expect(nowIso()).toBe(expiresAt);
    expect(how(await settled(useSignInCode(phone, expired, undefined)))).toBe('INVALID_CODE');
  });

  it('names the organizations to choose from, refuses one named that is none of the phone’s as a wrong code, and signs in to the one named', async () => {
    const phone = newPhone();
    const ours = [await memberWithPhone(phone), await memberWithPhone(phone)];
    const names = await Promise.all(ours.map(async ({ client }) => (await client.get('/v1/organization')).body.organization.name as string));
    const elsewhere = await api.organization();
    const code = await textedCode(phone);
    const post = (organizationId?: string) => api.anonymous.post('/v1/sign-in/sessions', { phone, code, ...(organizationId ? { organizationId } : {}) });

    const ask = await post();
    expect([ask.status, ask.body.error.code, ask.body.error.message]).toEqual([409, 'CHOOSE_ORGANIZATION', 'This phone signs in to more than one organization: send organizationId, one of those listed.']);
    const listed = ours.map(({ organizationId }, index) => ({ path: 'organizationId', message: `${organizationId}: ${names[index]}` }));
    expect([...ask.body.error.details].sort((a, b) => a.message.localeCompare(b.message))).toEqual(listed.sort((a, b) => a.message.localeCompare(b.message)));

    // Another organization, and one a character off one of the phone's: a wrong code, the code kept.
    const second = ours[1]!.organizationId;
    for (const other of [elsewhere.organizationId, `${second.slice(0, -1)}${second.at(-1) === 'A' ? 'B' : 'A'}`]) {
      const refused = await post(other);
      expect([refused.status, refused.body.error.code], other).toEqual([400, 'INVALID_CODE']);
    }
    const signedIn = await post(second);
    expect([signedIn.status, signedIn.body.session.organization.id, signedIn.body.session.member.id]).toEqual([201, second, ours[1]!.member.id]);
  });

  it('signs no one in for a member disabled since it was texted: a wrong code, not a choice of no organization', async () => {
    const { phone, member, client } = await memberWithPhone();
    const code = await textedCode(phone);
    expect((await client.patch(`/v1/organization/members/${member.id}`, { isDisabled: true })).status).toBe(200);
    const refused = await api.anonymous.post('/v1/sign-in/sessions', { phone, code });
    expect([refused.status, refused.body.error.code]).toEqual([400, 'INVALID_CODE']);
  });

  it('is the store’s failure, not a wrong code, when the store fails any call of a correct one; the code then still signs in', async () => {
    const { phone, member } = await memberWithPhone();
    const healthy = await sentWhile(async () => useSignInCode(phone, await textedCode(phone), undefined).then(({ member: { id } }) => id), -1);
    expect(healthy.outcome).toBe(member.id);
    const used = healthy.sent.slice(healthy.sent.lastIndexOf('UpdateItemCommand') + 1);
    // The code, who the phone is a member of, then the code used up.
    expect(used).toEqual(['GetItemCommand', 'QueryCommand', 'GetItemCommand', 'GetItemCommand', 'DeleteItemCommand']);
    for (const [failing, command] of used.entries()) {
      const code = await textedCode(phone);
      expect(how((await sentWhile(() => useSignInCode(phone, code, undefined), failing)).outcome), `${failing}: ${command}`).toBe('TimeoutError');
      expect((await useSignInCode(phone, code, undefined)).member.id, `${failing}: ${command}`).toBe(member.id);
    }
  });

  it('is the store’s failure when the store fails to count a wrong try, or to burn the code at its last: nothing counted or burnt, and the right code then signs in', async () => {
    const { phone, member } = await memberWithPhone();
    const code = await textedCode(phone);
    const wrongTry = (failing = -1) => sentWhile(() => useSignInCode(phone, offBy(code), undefined), failing);
    const first = await wrongTry();
    expect([how(first.outcome), first.sent]).toEqual(['INVALID_CODE', ['GetItemCommand', 'UpdateItemCommand']]);
    for (const [failing, command] of first.sent.entries()) expect(how((await wrongTry(failing)).outcome), `${failing}: ${command}`).toBe('TimeoutError');
    expect((await storedCode(phone))?.attempts).toBe(1);
    for (let attempt = 2; attempt < SIGN_IN_CODE.attempts; attempt++) expect(how((await wrongTry()).outcome)).toBe('INVALID_CODE');
    // The last wrong try reads the code, finds its count full, and burns it: each of those failing in turn.
    const burning = ['GetItemCommand', 'UpdateItemCommand', 'DeleteItemCommand'];
    for (const [failing, command] of burning.entries()) {
      const { outcome, sent } = await wrongTry(failing);
      expect([how(outcome), sent], `${failing}: ${command}`).toEqual(['TimeoutError', burning.slice(0, failing + 1)]);
      expect((await storedCode(phone))?.attempts, `${failing}: ${command}`).toBe(SIGN_IN_CODE.attempts - 1);
    }
    expect((await useSignInCode(phone, code, undefined)).member.id).toBe(member.id);

    // With the store answering, the same last wrong try burns the code.
    const next = await textedCode(phone);
    for (let attempt = 1; attempt < SIGN_IN_CODE.attempts; attempt++) await settled(useSignInCode(phone, offBy(next), undefined));
    const last = await sentWhile(() => useSignInCode(phone, offBy(next), undefined));
    expect([how(last.outcome), last.sent]).toEqual(['INVALID_CODE', burning]);
    expect(await storedCode(phone)).toBeUndefined();
    expect(how(await settled(useSignInCode(phone, next, undefined)))).toBe('INVALID_CODE');
  });

  it('refuses both of two wrong tries at once at the code’s last as wrong codes, and burns the code', async () => {
    const { phone } = await memberWithPhone();
    const code = await textedCode(phone);
    for (let attempt = 1; attempt < SIGN_IN_CODE.attempts; attempt++) expect(how(await settled(useSignInCode(phone, offBy(code), undefined)))).toBe('INVALID_CODE');
    // The first has read the full count and is about to burn the code when the second does.
    const held = holdCodeDelete();
    const first = settled(useSignInCode(phone, offBy(code), undefined));
    await held.reached;
    const second = await settled(useSignInCode(phone, offBy(code, 2), undefined));
    held.release();
    expect([how(await first), how(second)]).toEqual(['INVALID_CODE', 'INVALID_CODE']);
    expect(await storedCode(phone)).toBeUndefined();
    expect(how(await settled(useSignInCode(phone, code, undefined)))).toBe('INVALID_CODE');
  });
});

describe('a member’s session, as the store keeps it', () => {
  it('reads back as it was started, signed in with a code or with a passkey', async () => {
    const { organizationId, member } = await memberWithPhone();
    for (const method of ['SMS_CODE', 'PASSKEY'] as const) {
      const { token, session } = await startSession(organizationId, member.id, method);
      expect(session.signedInWith).toBe(method);
      expect(await findActiveSession(token), method).toEqual(session);
    }
  });

  it('says it ends where the store has it while used within a minute of its last recorded use, and moves its end on a millisecond past the minute', async () => {
    const { organizationId } = await api.organization();
    const session = await memberSession(api, organizationId, { role: 'MEMBER' });
    const stored = async () => (await itemAt(signInKeys.session(organizationId, session.member.id, sessionTokenHash(session.token))))!;
    const signedInAt = api.clock.now();
    const firstEnd = iso(signedInAt + IDLE_MS);
    expect((await stored()).idleEndsAt).toBe(firstEnd);
    const endsAt = async () => (await session.get('/v1/me')).body.session.expiresAt as string;
    await api.advanceTime(30_000);
    expect(await endsAt(), 'half a minute on').toBe(firstEnd);
    await api.advanceTime(30_000);
    expect(await endsAt(), 'a minute on').toBe(firstEnd);
    expect((await stored()).idleEndsAt).toBe(firstEnd);
    await api.advanceTime(1);
    expect(await endsAt(), 'a millisecond past a minute').toBe(iso(api.clock.now() + IDLE_MS));
    expect(await stored()).toMatchObject({ lastSeenAt: nowIso(), idleEndsAt: iso(api.clock.now() + IDLE_MS) });
  });

  it('lasts as long as it says: used a minute after sign-in and not again, it is still signed in a millisecond before the end it gave', async () => {
    const { organizationId } = await api.organization();
    const session = await memberSession(api, organizationId, { role: 'MEMBER' });
    await api.advanceTime(60_000);
    const endsAt = Date.parse((await session.get('/v1/me')).body.session.expiresAt);
    await api.advanceTime(endsAt - api.clock.now() - 1);
    expect((await session.get('/v1/leads')).status).toBe(200);
  });

  it('moves its end once for two uses at once past the minute, both told the same end, and once a minute however many read it before; a use racing its sign-out does not bring it back', async () => {
    const { organizationId, member } = await memberWithPhone();
    const { token, session } = await startSession(organizationId, member.id, 'SMS_CODE');
    await api.advanceTime(2 * 60_000);
    // Both read the session before either wrote its use.
    const [one, two] = [await findActiveSession(token), await findActiveSession(token)];
    const at = api.clock.now();
    expect(await Promise.all([touchSession(one!, at), touchSession(two!, at)])).toEqual([iso(at + IDLE_MS), iso(at + IDLE_MS)]);
    const stored = async () => (await itemAt(signInKeys.session(organizationId, member.id, session.tokenHash)))!;
    expect(await stored()).toMatchObject({ lastSeenAt: iso(at), idleEndsAt: iso(at + IDLE_MS) });
    // A use half a minute on by a request that read the session before those wrote: within the minute, nothing written.
    await touchSession(one!, at + 30_000);
    expect(await stored()).toMatchObject({ lastSeenAt: iso(at), idleEndsAt: iso(at + IDLE_MS) });

    await api.advanceTime(2 * 60_000);
    const read = await findActiveSession(token);
    expect(await endSession(organizationId, member.id, session.tokenHash)).toBe(1);
    await touchSession(read!);
    expect(await findActiveSession(token)).toBeUndefined();
  });

  it('is kept by DynamoDB until its absolute end, in whole seconds, at the latest; a token of no session’s form is none', async () => {
    const { organizationId, member } = await memberWithPhone();
    const { session } = await startSession(organizationId, member.id, 'SMS_CODE');
    const item = await itemAt(signInKeys.session(organizationId, member.id, session.tokenHash));
    expect(item?.[TTL_ATTRIBUTE]).toBe(Math.ceil(Date.parse(session.absoluteEndsAt) / 1000));
    for (const token of ['', 'not-a-token', 'sps_', `${session.tokenHash}`]) expect(await findActiveSession(token), token).toBeUndefined();
  });

  it('is ended once: signed out again at the same millisecond, ended everywhere, or of no session, it ends nothing; the store failing, ending fails', async () => {
    const { organizationId, member } = await memberWithPhone();
    const { token, session } = await startSession(organizationId, member.id, 'SMS_CODE');
    expect(how((await sentWhile(() => endSession(organizationId, member.id, session.tokenHash), 0)).outcome)).toBe('TimeoutError');
    expect(await findActiveSession(token)).toEqual(session);
    expect(await endSession(organizationId, member.id, session.tokenHash)).toBe(1);
    expect(await endSession(organizationId, member.id, session.tokenHash)).toBe(0);
    expect(await findActiveSession(token)).toBeUndefined();

    // Ended everywhere: the two live sessions counted, not the one signed out before, whose item stays until its end.
    const other = await startSession(organizationId, member.id, 'PASSKEY');
    await startSession(organizationId, member.id, 'SMS_CODE');
    expect(await endEverySession(organizationId, member.id)).toBe(2);
    expect(await endSession(organizationId, member.id, other.session.tokenHash)).toBe(0);
    // Ending a session gone makes no item of it.
    expect(await itemAt(signInKeys.session(organizationId, member.id, other.session.tokenHash))).toBeUndefined();
    expect(await endSession(organizationId, member.id, sessionTokenHash(`${other.token}A`))).toBe(0);
  });

  it('ends at its idle end: signed out a millisecond before, it is ended; at its end, it had ended already', async () => {
    const { organizationId, member } = await memberWithPhone();
    const [before, at] = [await startSession(organizationId, member.id, 'SMS_CODE'), await startSession(organizationId, member.id, 'SMS_CODE')];
    await api.advanceTime(IDLE_MS - 1);
    expect(await endSession(organizationId, member.id, before.session.tokenHash)).toBe(1);
    await api.advanceTime(1);
    expect(await endSession(organizationId, member.id, at.session.tokenHash)).toBe(0);
  });
});
