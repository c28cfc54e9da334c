import { useState } from 'preact/hooks';
import { answer, api, listUntil } from '../api';
import { ROLE_LABELS } from '../format';
import { membersChanged } from '../members';
import { announce } from '../notices';
import { useSession } from '../session';
import { ROLES, type Invitation, type Member, type Role } from '../types';
import { Loading, Options, useAction, useLoad } from '../ui';
import { useMay } from '../roles';

function RoleSelect({ member, onSaved }: { member: Member; onSaved: (member: Member) => void }) {
  const [busy, run] = useAction();
  const may = useMay();
  const change = (role: Role) =>
    run(
      async () => onSaved((await answer(api.PATCH('/v1/organization/members/{memberId}', { params: { path: { memberId: member.id } }, body: { role } }))).member),
      `${member.firstName} is now ${ROLE_LABELS[role]}, from their next request: their sessions, keys and assistants with them.`,
    );
  return (
    <div class="field">
      <label for={`role-${member.id}`}>Role</label>
      <select id={`role-${member.id}`} aria-describedby={`member-${member.id}`} value={member.role} disabled={busy || !may('PATCH /v1/organization/members/{memberId}')} onChange={(e) => change(e.currentTarget.value as Role)}>
        <Options values={ROLES} labels={ROLE_LABELS} />
      </select>
    </div>
  );
}

/**
 * A new member, active at once with the phone they sign in with (a code is texted to it): the owner adds the people who
 * work the business. (Invitations the API made are listed below until someone accepts them.)
 */
function AddMember({ onAdded }: { onAdded: (member: Member) => void }) {
  const [email, setEmail] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [phone, setPhone] = useState('');
  const [role, setRole] = useState<Role>('MEMBER');
  const [busy, run] = useAction();
  const add = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const { member } = await answer(api.POST('/v1/organization/members', { body: { email, role, firstName, lastName, phone } }));
      onAdded(member);
      setEmail('');
      setFirstName('');
      setLastName('');
      setPhone('');
    }, `${firstName} can sign in now, with a code texted to ${phone}.`);
  };
  return (
    <form class="inline-form" onSubmit={add}>
      <div class="field">
        <label for="member-first">First name</label>
        <input id="member-first" required maxLength={100} value={firstName} onInput={(e) => setFirstName(e.currentTarget.value)} />
      </div>
      <div class="field">
        <label for="member-last">Last name</label>
        <input id="member-last" required maxLength={100} value={lastName} onInput={(e) => setLastName(e.currentTarget.value)} />
      </div>
      <div class="field">
        <label for="member-email">Email</label>
        <input id="member-email" type="email" autocomplete="off" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
      </div>
      <div class="field">
        <label for="member-phone">Mobile phone</label>
        <input id="member-phone" type="tel" autocomplete="off" required value={phone} onInput={(e) => setPhone(e.currentTarget.value)} />
      </div>
      <div class="field">
        <label for="member-role">Their role</label>
        <select id="member-role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
          <Options values={ROLES} labels={ROLE_LABELS} />
        </select>
      </div>
      <button type="submit" class="primary" disabled={busy}>
        Add member
      </button>
    </form>
  );
}

/**
 * Removing a member, saying first what ends with them: their sessions, passkeys and assistants at once, and the API keys
 * they made, each revoked unless kept (a kept key then acts for the ADMIN removing them).
 */
function RemoveMember({ member, onRemoved }: { member: Member; onRemoved: () => void }) {
  const [open, setOpen] = useState(false);
  const [keep, setKeep] = useState<string[]>([]);
  const [busy, run] = useAction();
  const theirKeys = useLoad(
    (signal) => (open ? answer(api.GET('/v1/api-keys', { signal })).then(({ keys }) => keys.filter((key) => key.memberId === member.id && key.revokedAt === null)) : Promise.resolve([])),
    [open],
  );
  const confirm = () =>
    run(async () => {
      const { revokedKeyIds, keptKeyIds } = await answer(api.DELETE('/v1/organization/members/{memberId}', { params: { path: { memberId: member.id }, query: { keepKeys: keep.join(',') } } }));
      onRemoved();
      announce(`${member.firstName} removed: signed out everywhere, ${revokedKeyIds.length} key${revokedKeyIds.length === 1 ? '' : 's'} revoked${keptKeyIds.length ? `, ${keptKeyIds.length} kept for you` : ''}.`);
    });
  if (!open)
    return (
      <button type="button" class="danger" aria-describedby={`member-${member.id}`} onClick={() => setOpen(true)}>
        Remove…
      </button>
    );
  return (
    <div role="group" aria-labelledby={`remove-${member.id}`}>
      <p id={`remove-${member.id}`}>
        Removing {member.firstName} ends their sessions, passkeys and connected assistants on their very next request. The keys they made stop
        working too, unless you keep them: a kept key then acts for you.
      </p>
      <Loading loaded={theirKeys} what="their keys">
        {(list) =>
          list.length === 0 ? (
            <p>They made no keys.</p>
          ) : (
            <ul>
              {list.map((key) => (
                <li key={key.id}>
                  <label>
                    <input type="checkbox" checked={keep.includes(key.id)} onChange={(e) => setKeep(e.currentTarget.checked ? [...keep, key.id] : keep.filter((id) => id !== key.id))} /> Keep “
                    {key.name ?? key.id}” ({key.scope})
                  </label>
                </li>
              ))}
            </ul>
          )
        }
      </Loading>
      <button type="button" class="danger" disabled={busy} onClick={confirm}>
        Remove {member.firstName}
      </button>{' '}
      <button type="button" disabled={busy} onClick={() => setOpen(false)}>
        Keep them
      </button>
    </div>
  );
}

export function Members() {
  const session = useSession();
  const may = useMay();
  const members = useLoad((signal) => listUntil((limit, cursor) => api.GET('/v1/organization/members', { params: { query: { limit, cursor } }, signal }), 'members').then(({ items }) => items), []);
  const invitations = useLoad((signal) => listUntil((limit, cursor) => api.GET('/v1/organization/invitations', { params: { query: { limit, cursor } }, signal }), 'invitations').then(({ items }) => items), []);
  const [busy, run] = useAction();
  // The team changed: the screens naming leads' assignees read the members again.
  const joinedOrLeft = (list: Member[]) => {
    members.set(list);
    membersChanged();
  };
  const cancel = (invitation: Invitation) =>
    run(async () => {
      await answer(api.DELETE('/v1/organization/invitations/{invitationId}', { params: { path: { invitationId: invitation.id } } }));
      invitations.set((invitations.data ?? []).filter((each) => each.id !== invitation.id));
    }, `Invitation to ${invitation.email} cancelled.`);
  return (
    <>
      <Loading loaded={members} what="members">
        {(list) => (
          <ul class="items">
            {list.map((member) => (
              <li key={member.id} class="item">
                <h3 id={`member-${member.id}`}>
                  {member.firstName} {member.lastName}
                  {member.id === session?.member.id && ' (you)'}
                </h3>
                <p>
                  {member.user.email}
                  {member.phone && ` · ${member.phone}`}
                  {member.isDisabled && ' · Disabled'}
                </p>
                <RoleSelect member={member} onSaved={(saved) => members.set(list.map((each) => (each.id === saved.id ? saved : each)))} />
                {member.id !== session?.member.id && may('DELETE /v1/organization/members/{memberId}') && <RemoveMember member={member} onRemoved={() => joinedOrLeft(list.filter((each) => each.id !== member.id))} />}
              </li>
            ))}
          </ul>
        )}
      </Loading>
      {may('POST /v1/organization/members') ? (
        <>
          <h3>Add a member</h3>
          <AddMember onAdded={(member) => joinedOrLeft([...(members.data ?? []), member])} />
        </>
      ) : (
        <p class="hint">An admin adds members and changes their roles.</p>
      )}
      <h3>Waiting to join</h3>
      <Loading loaded={invitations} what="invitations">
        {(list) =>
          list.length === 0 ? (
            <p>No invitations waiting.</p>
          ) : (
            <ul class="items">
              {list.map((invitation) => (
                <li key={invitation.id} class="item">
                  <span id={`invitation-${invitation.id}`}>
                    {invitation.email} · {ROLE_LABELS[invitation.role]}
                  </span>{' '}
                  {may('DELETE /v1/organization/invitations/{invitationId}') && (
                    <button type="button" disabled={busy} aria-describedby={`invitation-${invitation.id}`} onClick={() => cancel(invitation)}>
                      Cancel invitation
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )
        }
      </Loading>
    </>
  );
}
