import { randomInt } from 'node:crypto';
import { config } from '#shared/config';
import { clock } from '#shared/clock';
import { ApiError } from '#shared/errors';
import { newId } from '#shared/ids';
import { logger } from '#shared/observability';
import { TTL_ATTRIBUTE } from '#shared/table';
import { readItem } from '#shared/store/read-item';
import { conditionNotHeld, deleteIfStill, heldCondition, writeAlone, writeAloneWhereHolds } from '#shared/store/transact';
import { setFields } from '#shared/store/update-fields';
import { hashToken, sameSecret } from '#shared/auth/tokens';
import { smsSender } from '../sms/sender';
import { signInKeys } from './entity';
import { membershipsOf, type Membership } from './memberships';
import { SIGN_IN_CODE } from './settings';
import type { SignInCodeJob } from './code-queue';

const phoneHashOf = hashToken;
/** A code is stored as a hash bound to its phone: the table holds no code, and one phone's code is no other's. */
const codeHashOf = (phone: string, code: string) => hashToken(`${phoneHashOf(phone)}:${code}`);

export const CODE_LIFETIME_SECONDS = SIGN_IN_CODE.lifetimeMinutes * 60;

/** The one refusal of a code, whatever was wrong: it never says whether the phone is a member's. */
export const invalidCode = () => new ApiError(400, 'That code is wrong or has expired. Ask for a new one.', 'INVALID_CODE');

export const signInText = (code: string) => `${code} is your sign-in code. It expires in ${SIGN_IN_CODE.lifetimeMinutes} minutes. Never share it: no one will ask you for it.`;

/**
 * Makes a new code for a phone that is an active member's, replacing any code it was sent before, and texts it. A
 * phone that is no member's gets nothing. An ask older than a code's life (a message that waited out an outage) is
 * dropped: whoever asked has asked again or given up.
 */
export async function sendAskedCode({ askId, phone, requestedAt }: SignInCodeJob): Promise<void> {
  const atMs = clock.now();
  if (Date.parse(requestedAt) + CODE_LIFETIME_SECONDS * 1000 <= atMs) return;
  const memberships = await membershipsOf(phone);
  const [first] = memberships;
  if (!first) return;
  const code = String(randomInt(0, 10 ** SIGN_IN_CODE.digits)).padStart(SIGN_IN_CODE.digits, '0');
  const key = signInKeys.signInCode(phoneHashOf(phone));
  const codeHash = codeHashOf(phone, code);
  // An ask handed again after its text went (a batch retried whole) recognises itself: its code stands, no second text.
  const made = await writeAloneWhereHolds({
    item: {
      Put: {
        TableName: config.tableName,
        Item: { ...key, entity: 'SIGN_IN_CODE', codeHash, attempts: 0, askId, expiresAt: new Date(atMs + CODE_LIFETIME_SECONDS * 1000).toISOString(), [TTL_ATTRIBUTE]: Math.ceil(atMs / 1000) + CODE_LIFETIME_SECONDS },
        ConditionExpression: 'attribute_not_exists(textedAt) OR askId <> :askId',
        ExpressionAttributeValues: { ':askId': askId },
      },
    },
    onConditionFailed: conditionNotHeld,
  });
  if (!made) return;
  // From the number the member's organization texts from, if it has one: the text comes from the business they know.
  await smsSender().send({
    organizationId: first.organization.id,
    messageId: newId('message'),
    inquiryId: '',
    threadId: '',
    userId: null,
    memberId: first.member.id,
    from: first.organization.smsSenderId,
    to: phone,
    body: signInText(code),
    createdAt: new Date(atMs).toISOString(),
  });
  // Marked texted, unless a newer ask replaced the code meanwhile (its own mark is its own).
  await writeAloneWhereHolds(setFields(key, { textedAt: new Date(atMs).toISOString() }, { condition: heldCondition(['codeHash', codeHash]), onConditionFailed: conditionNotHeld }));
  logger.info('sign-in code sent', { organizationId: first.organization.id, memberId: first.member.id });
}

/** More than one organization has this phone as a member's: the person says which (the code stays good meanwhile). */
export function chooseOrganization(memberships: readonly Membership[]): ApiError {
  return new ApiError(409, 'This phone signs in to more than one organization: send organizationId, one of those listed.', 'CHOOSE_ORGANIZATION', memberships.map(({ organization }) => ({ path: 'organizationId', message: `${organization.id}: ${organization.name}` })));
}

/**
 * The membership a correct code signs in to, the code used up in doing so (a conditional delete: of two requests with
 * it at once, one signs in). A wrong code counts against the code, which is burnt at its last attempt.
 */
export async function useSignInCode(phone: string, code: string, organizationId: string | undefined): Promise<Membership> {
  const key = signInKeys.signInCode(phoneHashOf(phone));
  const Item = await readItem(key);
  if (!Item || String(Item.expiresAt) <= new Date(clock.now()).toISOString()) throw invalidCode();
  if (!sameSecret(codeHashOf(phone, code), String(Item.codeHash))) {
    await countWrongCode(key, String(Item.codeHash));
    throw invalidCode();
  }
  const memberships = await membershipsOf(phone);
  if (organizationId === undefined && memberships.length > 1) throw chooseOrganization(memberships);
  const chosen = organizationId === undefined ? memberships[0] : memberships.find(({ organization }) => organization.id === organizationId);
  if (!chosen) throw invalidCode();
  await writeAlone(deleteIfStill(key, ['codeHash', Item.codeHash], invalidCode));
  return chosen;
}

/** One more wrong attempt at the code read; at its last, the code goes (still the code read: a new one is left alone). */
async function countWrongCode(key: { pk: string; sk: string }, codeHash: string): Promise<void> {
  const counted = await writeAloneWhereHolds({
    item: {
      Update: {
        TableName: config.tableName,
        Key: key,
        UpdateExpression: 'ADD attempts :one',
        ConditionExpression: 'codeHash = :hash AND attempts < :lastAllowed',
        ExpressionAttributeValues: { ':one': 1, ':hash': codeHash, ':lastAllowed': SIGN_IN_CODE.attempts - 1 },
      },
    },
    onConditionFailed: conditionNotHeld,
  });
  if (!counted) await writeAloneWhereHolds(deleteIfStill(key, ['codeHash', codeHash], conditionNotHeld));
}
