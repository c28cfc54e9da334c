import { useState } from 'preact/hooks';
import { hasEnded, useJob } from '../job';
import { answer, api } from '../api';
import { STATUS_LABELS } from '../format';
import { announce, showProblem } from '../notices';
import { LEAD_STATUSES, type Automation, type AutomationEnrolment, type LeadStatus, type TriggerEvent } from '../types';
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
/** What the enrolment did, in the owner's words. */
function outcomeOf({ status, enrolled, progress, failure }: AutomationEnrolment): string {
  if (status === 'FAILED') return `The enrolment stopped after ${enrolled} leads: ${failure ?? 'start another'}`;
  return `Enrolled ${enrolled} of ${progress.total ?? enrolled} leads.`;
}

/**
 * Enrols every lead of a status (POST /v1/automations/{automationId}/enrolments, a job the API runs), then follows it
 * until it ends, showing its progress; `onDone` reloads the runs.
 */
export function BulkEnrol({ automation, onDone }: { automation: Automation; onDone: () => void }) {
  const [status, setStatus] = useState<LeadStatus>('NEW');
  const [starting, setStarting] = useState(false);
  const { job: enrolment, started } = useJob(
    async (enrolmentId) => (await answer(api.GET('/v1/automations/{automationId}/enrolments/{enrolmentId}', { params: { path: { automationId: automation.id, enrolmentId } } }))).enrolment,
    (ended) => {
      announce(outcomeOf(ended));
      onDone();
    },
  );

  const start = async (event: Event) => {
    event.preventDefault();
    setStarting(true);
    try {
      const { enrolment: enrolmentStarted } = await answer(
        api.POST('/v1/automations/{automationId}/enrolments', { params: { path: { automationId: automation.id } }, body: { leadStatus: status } }),
      );
      started(enrolmentStarted);
    } catch (error) {
      showProblem(error);
    } finally {
      setStarting(false);
    }
  };

  const running = enrolment !== null && !hasEnded(enrolment);
  return (
    <section aria-labelledby="enrol-heading">
      <h2 id="enrol-heading">Enrol leads</h2>
      <p>Start a run for every lead in a status. It goes on if you leave this page.</p>
      <form class="inline-form" onSubmit={start}>
        <div class="field">
          <label for="enrol-status">Leads in status</label>
          <select id="enrol-status" value={status} onChange={(e) => setStatus(e.currentTarget.value as LeadStatus)} disabled={running}>
            <Options values={LEAD_STATUSES} labels={STATUS_LABELS} />
          </select>
        </div>
        <button type="submit" class="primary" disabled={starting || running || !automation.isEnabled}>
          Enrol leads
        </button>
      </form>
      {!automation.isEnabled && <p class="hint">Turn the automation on to enrol leads.</p>}
      {running && enrolment.progress.total === null && <p aria-live="polite">Waiting to start…</p>}
      {enrolment && enrolment.progress.total !== null && <Progress id="enrol-progress" label="Leads enrolled" done={enrolment.progress.done} total={enrolment.progress.total} />}
      {enrolment && hasEnded(enrolment) && <p>{outcomeOf(enrolment)}</p>}
    </section>
  );
}
