import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { answer, api } from '../api';
import { consolePath } from '../base';
import { leadName, money, STATUS_LABELS, when } from '../format';
import { memberName, useMembers } from '../members';
import { useOrganization } from '../organization';
import { LEAD_STATUSES, type Lead, type LeadChanges, type LeadStatus, type Member } from '../types';
import { Loading, Options, Page, useAction, useLoad } from '../ui';
import { Activities, Appointments, Inquiries, LeadRuns } from './lead-history';
import { SmsThread } from './sms-thread';

function Facts({ lead, currency, members }: { lead: Lead; currency: string; members: Member[] | undefined }) {
  const rows: [string, ComponentChildren][] = [
    ['Status', STATUS_LABELS[lead.status]],
    ['Assigned to', lead.assignedMemberId === null ? 'Nobody' : memberName(lead.assignedMemberId, members)],
    ['Value', money(lead.value, currency)],
    // A tap calls the lead from a phone, or writes to them.
    ['Phone', lead.phone ? <a href={`tel:${lead.phone}`}>{lead.phone}</a> : '—'],
    ['Email', lead.email ? <a href={`mailto:${lead.email}`}>{lead.email}</a> : '—'],
    ['Suburb', lead.suburb ?? '—'],
    ['Business', lead.businessName ?? '—'],
    ['Created', when(lead.createdAt)],
    ['Last inquiry', when(lead.lastInquiryDate)],
  ];
  if (lead.wonAt) rows.push(['Won', when(lead.wonAt)]);
  if (lead.lostAt) rows.push(['Lost', `${when(lead.lostAt)}${lead.lostReason ? ` (${lead.lostReason})` : ''}`]);
  if (lead.smsOptedOut) rows.push(['Texts', 'Opted out']);
  return (
    <dl class="facts">
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * Who may be given the lead: the members who are not disabled, and whoever has it now (a disabled or removed member
 * stays choosable until the lead is given to someone else).
 */
function assignable(lead: Lead, members: Member[] | undefined): [id: string, name: string][] {
  const choices = (members ?? []).filter((member) => !member.isDisabled || member.id === lead.assignedMemberId).map((member): [string, string] => [String(member.id), memberName(member.id, members)]);
  const kept = lead.assignedMemberId !== null && !choices.some(([id]) => id === String(lead.assignedMemberId));
  return kept ? [[String(lead.assignedMemberId), memberName(lead.assignedMemberId!, members)], ...choices] : choices;
}

/** The lead's assignee, status, value and lost reason: PATCH /v1/leads/{id} with what changed. */
function Change({ lead, currency, members, onSaved }: { lead: Lead; currency: string; members: Member[] | undefined; onSaved: (lead: Lead) => void }) {
  // The select's value: a member's id, or '' for nobody.
  const [assignee, setAssignee] = useState(lead.assignedMemberId === null ? '' : String(lead.assignedMemberId));
  const [status, setStatus] = useState<LeadStatus>(lead.status);
  const [value, setValue] = useState(lead.value === null ? '' : String(lead.value));
  const [lostReason, setLostReason] = useState(lead.lostReason ?? '');
  const [busy, run] = useAction();
  useEffect(() => {
    setAssignee(lead.assignedMemberId === null ? '' : String(lead.assignedMemberId));
    setStatus(lead.status);
    setValue(lead.value === null ? '' : String(lead.value));
    setLostReason(lead.lostReason ?? '');
  }, [lead]);

  const save = (event: Event) => {
    event.preventDefault();
    const changes: LeadChanges = {};
    const assignedMemberId = assignee === '' ? null : Number(assignee);
    if (assignedMemberId !== lead.assignedMemberId) changes.assignedMemberId = assignedMemberId;
    if (status !== lead.status) changes.status = status;
    const amount = value.trim() === '' ? null : Number(value);
    if (amount !== lead.value) changes.value = amount;
    if (status === 'LOST' && (lostReason || null) !== lead.lostReason) changes.lostReason = lostReason || null;
    void run(async () => onSaved((await answer(api.PATCH('/v1/leads/{leadId}', { params: { path: { leadId: lead.id } }, body: changes }))).lead), 'Lead saved.');
  };

  return (
    <form class="inline-form" onSubmit={save}>
      <div class="field">
        <label for="lead-assignee">Assigned to</label>
        <select id="lead-assignee" value={assignee} onChange={(e) => setAssignee(e.currentTarget.value)}>
          <option value="">Nobody</option>
          {assignable(lead, members).map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="lead-status">Status</label>
        <select id="lead-status" value={status} onChange={(e) => setStatus(e.currentTarget.value as LeadStatus)}>
          <Options values={LEAD_STATUSES} labels={STATUS_LABELS} />
        </select>
      </div>
      <div class="field">
        <label for="lead-value">Value ({currency})</label>
        <input id="lead-value" type="number" min="0" step="0.01" inputMode="decimal" value={value} onInput={(e) => setValue(e.currentTarget.value)} />
      </div>
      {status === 'LOST' && (
        <div class="field">
          <label for="lead-lost-reason">Why it was lost</label>
          <input id="lead-lost-reason" value={lostReason} onInput={(e) => setLostReason(e.currentTarget.value)} />
        </div>
      )}
      <button type="submit" class="primary" disabled={busy}>
        Save
      </button>
    </form>
  );
}

export function LeadScreen({ leadId }: { leadId: string }) {
  const currency = useOrganization()?.currency ?? 'AUD';
  const members = useMembers();
  const loaded = useLoad((signal) => answer(api.GET('/v1/leads/{leadId}', { params: { path: { leadId } }, signal })).then(({ lead }) => lead), [leadId]);
  return (
    <Page title={loaded.data ? leadName(loaded.data) : 'Lead'}>
      <p>
        <a href={consolePath('/pipeline')}>Back to the pipeline</a>
      </p>
      <Loading loaded={loaded} what="the lead">
        {(lead) => (
          <>
            <section aria-labelledby="details-heading">
              <h2 id="details-heading">Details</h2>
              <Facts lead={lead} currency={currency} members={members} />
              <Change lead={lead} currency={currency} members={members} onSaved={loaded.set} />
            </section>
            <Activities leadId={lead.id} />
            <Inquiries leadId={lead.id} />
            <Appointments leadId={lead.id} />
            <LeadRuns leadId={lead.id} />
            <SmsThread lead={lead} />
          </>
        )}
      </Loading>
    </Page>
  );
}
