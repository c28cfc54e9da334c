import { useRef, useState } from 'preact/hooks';
import { answer, api, listUntil, newKey } from '../api';
import { STATUS_LABELS } from '../format';
import { announce, problemOf, showProblem } from '../notices';
import { LEAD_STATUSES, type Automation, type LeadStatus, type TriggerEvent } from '../types';
import { Options, Progress } from '../ui';

/** Whether a person may start a trigger's runs by hand: `appointment.*` ones need an appointment, the rest only start from events. */
export const ENROLLABLE: Record<TriggerEvent, boolean> = {
  'call.missed': false,
  'inquiry.created': false,
  'lead.created': true,
  'lead.status_changed': true,
  'appointment.booked': false,
  'appointment.cancelled': false,
  'appointment.completed': false,
  'sms.received': false,
};
/** How many leads one bulk enrolment takes: a larger batch is a job for the API (see the TODO below). */
const MOST = 500;

interface Work {
  done: number;
  total: number;
  refused: string[];
}

/**
 * Enrols every lead of a status, one request each, showing the progress as it goes; "Stop" ends it after the request in
 * flight. TODO(api): no bulk enrolment with a job to poll (POST …/runs takes one lead): the loop runs in this page.
 */
export function BulkEnrol({ automation, onDone }: { automation: Automation; onDone: () => void }) {
  const [status, setStatus] = useState<LeadStatus>('NEW');
  const [work, setWork] = useState<Work | null>(null);
  const [running, setRunning] = useState(false);
  const stopped = useRef(false);

  const start = async (event: Event) => {
    event.preventDefault();
    stopped.current = false;
    setRunning(true);
    setWork(null);
    try {
      const { items: leads } = await listUntil((limit, cursor) => api.GET('/v1/leads', { params: { query: { status, limit, cursor } } }), 'leads', { max: MOST });
      const batch = newKey();
      const progress: Work = { done: 0, total: leads.length, refused: [] };
      setWork({ ...progress });
      for (const lead of leads) {
        if (stopped.current) break;
        try {
          await answer(
            api.POST('/v1/automations/{automationId}/runs', { params: { path: { automationId: automation.id }, header: { 'Idempotency-Key': `${batch}-${lead.id}` } }, body: { leadId: lead.id } }),
          );
        } catch (error) {
          progress.refused.push(problemOf(error).message);
        }
        progress.done += 1;
        setWork({ ...progress, refused: [...progress.refused] });
      }
      const enrolled = progress.done - progress.refused.length;
      announce(`${stopped.current ? 'Stopped. ' : ''}Enrolled ${enrolled} of ${progress.total} leads${progress.refused.length ? `; ${progress.refused.length} refused` : ''}.`);
      onDone();
    } catch (error) {
      showProblem(error);
    } finally {
      setRunning(false);
    }
  };

  return (
    <section aria-labelledby="enrol-heading">
      <h2 id="enrol-heading">Enrol leads</h2>
      <p>Start a run for every lead in a status (up to {MOST} at a time).</p>
      <form class="inline-form" onSubmit={start}>
        <div class="field">
          <label for="enrol-status">Leads in status</label>
          <select id="enrol-status" value={status} onChange={(e) => setStatus(e.currentTarget.value as LeadStatus)} disabled={running}>
            <Options values={LEAD_STATUSES} labels={STATUS_LABELS} />
          </select>
        </div>
        <button type="submit" class="primary" disabled={running || !automation.isEnabled}>
          Enrol leads
        </button>
        {running && (
          <button type="button" onClick={() => (stopped.current = true)}>
            Stop
          </button>
        )}
      </form>
      {!automation.isEnabled && <p class="hint">Turn the automation on to enrol leads.</p>}
      {work && <Progress id="enrol-progress" label="Leads enrolled" done={work.done} total={work.total} />}
      {work && work.refused.length > 0 && (
        <details>
          <summary>{work.refused.length} refused</summary>
          <ul>
            {[...new Set(work.refused)].map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
