import { useState } from 'preact/hooks';
import { answer, api, listUntil } from '../api';
import { consolePath } from '../base';
import { segment } from '../url';
import { OUTCOME_LABELS, SOURCE_LABELS, when } from '../format';
import type { Appointment } from '../types';
import { Loading, useAction, useLoad } from '../ui';
import { RunList } from './runs';
import { BookAppointment } from './book';

const APPOINTMENT_WORDS: Record<Appointment['status'], string> = { BOOKED: 'Booked', CANCELLED: 'Cancelled', COMPLETED: 'Completed', NO_SHOW: 'No-show' };

/** The lead's timeline, newest first, and a note added to it (POST …/activities, event NOTE). */
export function Activities({ leadId }: { leadId: string }) {
  const loaded = useLoad((signal) => answer(api.GET('/v1/leads/{leadId}/activities', { params: { path: { leadId }, query: { limit: 50 } }, signal })), [leadId]);
  const [note, setNote] = useState('');
  const [busy, run] = useAction();
  const add = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const { activity } = await answer(api.POST('/v1/leads/{leadId}/activities', { params: { path: { leadId } }, body: { event: 'NOTE', data: note.trim() } }));
      loaded.set({ ...loaded.data!, activities: [activity, ...(loaded.data?.activities ?? [])] });
      setNote('');
    }, 'Note added.');
  };
  return (
    <section aria-labelledby="activity-heading">
      <h2 id="activity-heading">Notes and activity</h2>
      <form class="stack" onSubmit={add}>
        <label for="lead-note">Note</label>
        <textarea id="lead-note" rows={2} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
        <button type="submit" disabled={busy || !note.trim()}>
          Add note
        </button>
      </form>
      <Loading loaded={loaded} what="activity">
        {({ activities }) =>
          activities.length === 0 ? (
            <p>No activity yet.</p>
          ) : (
            <ul class="timeline">
              {activities.map((activity) => (
                <li key={activity.id}>
                  <span class="muted">{when(activity.createdAt)}</span> <strong>{activity.event.replace(/_/g, ' ').toLowerCase()}</strong>
                  {activity.data && <span class="body"> {activity.data}</span>}
                </li>
              ))}
            </ul>
          )
        }
      </Loading>
    </section>
  );
}

export function Inquiries({ leadId }: { leadId: string }) {
  const loaded = useLoad((signal) => answer(api.GET('/v1/inquiries', { params: { query: { leadId, limit: 50 } }, signal })), [leadId]);
  return (
    <section aria-labelledby="inquiries-heading">
      <h2 id="inquiries-heading">Inquiries</h2>
      <Loading loaded={loaded} what="inquiries">
        {({ inquiries }) =>
          inquiries.length === 0 ? (
            <p>No inquiries.</p>
          ) : (
            <ul>
              {inquiries.map((item) => (
                <li key={item.id}>
                  <a href={consolePath(`/inbox/${segment(item.id)}`)}>
                    {SOURCE_LABELS[item.source]}
                    {item.callOutcome ? ` (${OUTCOME_LABELS[item.callOutcome]})` : ''}, {when(item.createdAt)}
                  </a>
                  {item.summary && `: ${item.summary}`}
                </li>
              ))}
            </ul>
          )
        }
      </Loading>
    </section>
  );
}

export function Appointments({ leadId }: { leadId: string }) {
  const loaded = useLoad((signal) => answer(api.GET('/v1/appointments', { params: { query: { leadId, limit: 50 } }, signal })), [leadId]);
  return (
    <section aria-labelledby="appointments-heading">
      <h2 id="appointments-heading">Appointments</h2>
      <Loading loaded={loaded} what="appointments">
        {({ appointments }) =>
          appointments.length === 0 ? (
            <p>No appointments.</p>
          ) : (
            <ul>
              {appointments.map((appointment) => (
                <li key={appointment.id}>
                  <strong>{appointment.title}</strong>, {when(appointment.startsAt)} · {APPOINTMENT_WORDS[appointment.status]}
                  {appointment.location && ` · ${appointment.location}`}
                </li>
              ))}
            </ul>
          )
        }
      </Loading>
      <BookAppointment leadId={leadId} onBooked={loaded.reload} />
    </section>
  );
}

/**
 * The lead's automation runs of every automation, with why each stopped; `waiting`: only those still to act (a text held by quiet hours, a follow-up's wait), said
 * where the owner answers the lead, so they know a canned text is coming and may cancel it. Nothing when there are none.
 */
export function LeadRuns({ leadId, waiting = false }: { leadId: string; waiting?: boolean }) {
  const loaded = useLoad(async (signal) => {
    // The lead's runs (its newest 100) and the automations' names, read together.
    const [page, { items: automations }] = await Promise.all([
      answer(api.GET('/v1/leads/{leadId}/automation-runs', { params: { path: { leadId }, query: { limit: 100 } }, signal })),
      listUntil((limit, cursor) => api.GET('/v1/automations', { params: { query: { limit, cursor } }, signal }), 'automations'),
    ]);
    return { automations, runs: waiting ? page.runs.filter((run) => run.status === 'WAITING' || run.status === 'RUNNING') : page.runs };
  }, [leadId]);
  const nameOf = (id: string) => loaded.data?.automations.find((automation) => automation.id === id)?.name ?? 'Automation';
  if (waiting && loaded.data?.runs.length === 0) return null;
  return (
    <section aria-labelledby="runs-heading">
      <h2 id="runs-heading">{waiting ? 'Automations waiting to act for this lead' : 'Automation runs'}</h2>
      <Loading loaded={loaded} what="automation runs">
        {({ runs }) => (
          <RunList
            runs={runs}
            heading={(run) => ({ text: nameOf(run.automationId), href: consolePath(`/automations/${segment(run.automationId)}`) })}
            onChanged={(changed) => loaded.set({ ...loaded.data!, runs: runs.map((run) => (run.id === changed.id ? changed : run)) })}
          />
        )}
      </Loading>
    </section>
  );
}
