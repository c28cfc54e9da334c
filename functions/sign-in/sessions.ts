import { clock } from '#shared/clock';
import { TTL_ATTRIBUTE } from '#shared/table';
import { conditionNotHeld, insertIfAbsent, writeAlone, writeAloneAnsweringOld, writeAloneWhereHolds } from '#shared/store/transact';
import { readItem } from '#shared/store/read-item';
import { setFields } from '#shared/store/update-fields';
import { signInKeys, SESSION_ENTITY } from './entity';
import { deleteMemberSessions } from '../organization/member-credentials';
import { newSessionToken, parseSessionToken, sessionTokenHash } from './session-token';
import { SESSION_LIFETIME } from './settings';

const MINUTE_MS = 60_000;
const IDLE_MS = SESSION_LIFETIME.idleMinutes * MINUTE_MS;
const ABSOLUTE_MS = SESSION_LIFETIME.absoluteHours * 60 * MINUTE_MS;

/** How a session was signed in to: the audit of who did what can tell a code from a passkey. */
export type SignInMethod = 'SMS_CODE' | 'PASSKEY';

export interface MemberSessionRecord {
  organizationId: string;
  memberId: number;
  tokenHash: string;
  signedInWith: SignInMethod;
  createdAt: string;
  lastSeenAt: string;
  /** The session ends at the earlier of these: its idle end moves with each use, its absolute end never. */
  idleEndsAt: string;
  absoluteEndsAt: string;
}

/** When a session read now ends: its idle end, never past its absolute end. */
export const sessionEndsAt = (session: Pick<MemberSessionRecord, 'idleEndsAt' | 'absoluteEndsAt'>) => (session.idleEndsAt < session.absoluteEndsAt ? session.idleEndsAt : session.absoluteEndsAt);

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A new session for the member, and its token: the only time the token exists outside the browser's cookie. Each
 * sign-in makes a new one (the session id rotates at sign-in; a token planted before it is worth nothing after).
 */
export async function startSession(organizationId: string, memberId: number, signedInWith: SignInMethod): Promise<{ token: string; session: MemberSessionRecord }> {
  const token = newSessionToken({ organizationId, memberId });
  const at = clock.now();
  const session: MemberSessionRecord = {
    organizationId,
    memberId,
    tokenHash: sessionTokenHash(token),
    signedInWith,
    createdAt: iso(at),
    lastSeenAt: iso(at),
    idleEndsAt: iso(at + IDLE_MS),
    absoluteEndsAt: iso(at + ABSOLUTE_MS),
  };
  await writeAlone(insertIfAbsent({ ...signInKeys.session(organizationId, memberId, session.tokenHash), entity: SESSION_ENTITY, ...session, [TTL_ATTRIBUTE]: Math.ceil((at + ABSOLUTE_MS) / 1000) }));
  return { token, session };
}

const fromItem = (item: Record<string, unknown>): MemberSessionRecord => ({
  organizationId: String(item.organizationId),
  memberId: Number(item.memberId),
  tokenHash: String(item.tokenHash),
  signedInWith: item.signedInWith === 'PASSKEY' ? 'PASSKEY' : 'SMS_CODE',
  createdAt: String(item.createdAt),
  lastSeenAt: String(item.lastSeenAt),
  idleEndsAt: String(item.idleEndsAt),
  absoluteEndsAt: String(item.absoluteEndsAt),
});

/** The session a token is, while it lasts; undefined for a token of no session, one ended, signed out or expired. */
export async function findActiveSession(token: string, atMs = clock.now()): Promise<MemberSessionRecord | undefined> {
  const parts = parseSessionToken(token);
  if (!parts) return undefined;
  const Item = await readItem(signInKeys.session(parts.organizationId, parts.memberId, sessionTokenHash(token)));
  const session = Item && fromItem(Item);
  return session && sessionEndsAt(session) > iso(atMs) ? session : undefined;
}

/**
 * Moves the session's idle end on from its use now, at most once a minute (a conditional write that does nothing
 * otherwise). Answers when the session now ends: its idle end, never past its absolute end.
 */
export async function touchSession(session: MemberSessionRecord, atMs = clock.now()): Promise<string> {
  // Not stale until past the minute, as the write's condition has it: at the minute exactly, the write would do nothing,
  // and the end answered must be the end stored.
  if (atMs - new Date(session.lastSeenAt).getTime() <= SESSION_LIFETIME.touchPrecisionSeconds * 1000) return sessionEndsAt(session);
  const key = signInKeys.session(session.organizationId, session.memberId, session.tokenHash);
  // Signed out meanwhile (setFields holds the item to exist): nothing to move, and no item made by the update.
  const staleBefore = { expression: 'lastSeenAt < :staleBefore', values: { ':staleBefore': iso(atMs - SESSION_LIFETIME.touchPrecisionSeconds * 1000) } };
  await writeAloneWhereHolds(setFields(key, { lastSeenAt: iso(atMs), idleEndsAt: iso(atMs + IDLE_MS) }, { condition: staleBefore, onConditionFailed: conditionNotHeld }));
  return sessionEndsAt({ idleEndsAt: iso(atMs + IDLE_MS), absoluteEndsAt: session.absoluteEndsAt });
}

/** Ends one session (signing out in this browser); ending one already gone is no error. */
export async function endSession(organizationId: string, memberId: number, tokenHash: string): Promise<number> {
  const ended = iso(clock.now());
  // Ended at once rather than deleted: the authorizer refuses it from now on, and its TTL deletes it.
  const Attributes = await writeAloneAnsweringOld(setFields(signInKeys.session(organizationId, memberId, tokenHash), { idleEndsAt: ended, absoluteEndsAt: ended }, { onConditionFailed: conditionNotHeld }));
  return Attributes && sessionEndsAt(fromItem(Attributes)) > iso(clock.now()) ? 1 : 0;
}

/**
 * Ends every session of the member, this one included ("sign out everywhere"): one Query of the member's sessions,
 * then a delete of each (a member has a few: one per browser it signed in on, each gone by its TTL after 12 hours).
 */
export async function endEverySession(organizationId: string, memberId: number): Promise<number> {
  const nowText = iso(clock.now());
  const ended = await deleteMemberSessions(organizationId, memberId);
  return ended.filter((session) => sessionEndsAt(session) > nowText).length;
}
