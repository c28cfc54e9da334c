import { useEffect, useState } from 'preact/hooks';
import { answer, api } from '../api';
import { STOPPED_REASONS } from '../format';
import { useMay } from '../roles';
import { WEEKDAYS, type Automation, type Weekday } from '../types';
import { useAction } from '../ui';
import { durationOf, UNITS, waitOf, type Unit } from '../waits';
import { Part } from './automation-edit';

type StopCondition = Automation['stopWhen'][number];
type QuietHours = Automation['quietHours'];

/** Every condition an automation may stop on, in the order offered: a new one fails this typecheck until listed. */
const STOP_CONDITIONS = Object.keys({
  'lead.replied': true,
  'member.contacted': true,
  'lead.status_changed': true,
  'appointment.cancelled': true,
  'lead.opted_out': true,
} satisfies Record<StopCondition, true>) as StopCondition[];

const DAY_WORDS: Record<Weekday, string> = { monday: 'Mon', tuesday: 'Tue', wednesday: 'Wed', thursday: 'Thu', friday: 'Fri', saturday: 'Sat', sunday: 'Sun' };

/**
 * When an automation's steps go and what stops it, written by the owner: each wait's length, the hours its texts may go
 * out in, and the conditions that stop a run. One PATCH, a new version (runs already started keep theirs); a value the
 * API refuses is named in its answer.
 */
export function AutomationRules({ automation, onChanged }: { automation: Automation; onChanged: (automation: Automation) => void }) {
  const may = useMay();
  const [busy, run] = useAction();
  const waits = automation.steps.flatMap((step, index) => (step.type === 'wait' ? [{ index, wait: waitOf(step.duration), before: step.before }] : []));
  const initial = () => ({ waits: waits.map(({ wait }) => wait ?? { amount: '', unit: 'hours' as Unit }), hours: automation.quietHours, stopWhen: automation.stopWhen });
  const [draft, setDraft] = useState(initial);
  useEffect(() => setDraft(initial()), [automation.version]);
  const setHours = (hours: Partial<QuietHours>) => setDraft({ ...draft, hours: { ...draft.hours, ...hours } });

  const save = (event: Event) => {
    event.preventDefault();
    const steps = automation.steps.map((step, index) => {
      const at = waits.findIndex((wait) => wait.index === index);
      // A wait in seconds (the API's own, not the console's) is kept as written.
      return at === -1 || !waits[at]!.wait ? step : { ...step, duration: durationOf(draft.waits[at]!) };
    });
    void run(async () => {
      const body = { steps, quietHours: draft.hours, stopWhen: draft.stopWhen };
      onChanged((await answer(api.PATCH('/v1/automations/{automationId}', { params: { path: { automationId: automation.id } }, body }))).automation);
    }, 'Saved. Runs already started keep the waits, hours and stops they started with.');
  };

  return (
    <Part shown={may('PATCH /v1/automations/{automationId}')} id="rules" title="When it runs and stops">
      <form class="stack" onSubmit={save}>
        {waits.map(({ index, wait, before }, at) => (
          <fieldset key={index}>
            <legend>{`Wait ${waits.length > 1 ? `${at + 1} ` : ''}${before ? `before the appointment ${before === 'appointment.startsAt' ? 'starts' : 'ends'}` : 'after the step before'}`}</legend>
            {wait ? (
              <div class="inline-form">
                <div class="field">
                  <label for={`wait-${index}`}>How long</label>
                  <input id={`wait-${index}`} type="number" min={1} step={1} inputMode="numeric" value={draft.waits[at]!.amount} onInput={(e) => setDraft({ ...draft, waits: draft.waits.map((one, other) => (other === at ? { ...one, amount: e.currentTarget.value } : one)) })} />
                </div>
                <div class="field">
                  <label for={`wait-unit-${index}`}>Unit</label>
                  <select id={`wait-unit-${index}`} value={draft.waits[at]!.unit} onChange={(e) => setDraft({ ...draft, waits: draft.waits.map((one, other) => (other === at ? { ...one, unit: e.currentTarget.value as Unit } : one)) })}>
                    {(Object.keys(UNITS) as Unit[]).map((unit) => (
                      <option key={unit} value={unit}>
                        {unit}
                      </option>
                    ))}
                  </select>
                </div>
              </div>
            ) : (
              <p>{(automation.steps[index] as { duration: string }).duration}, kept as the API wrote it.</p>
            )}
          </fieldset>
        ))}
        <fieldset>
          <legend>Hours its texts may go out</legend>
          <div class="inline-form">
            <div class="field">
              <label for="allowed-from">From (HH:MM)</label>
              <input id="allowed-from" inputMode="numeric" value={draft.hours.allowedFrom} onInput={(e) => setHours({ allowedFrom: e.currentTarget.value })} />
            </div>
            <div class="field">
              <label for="allowed-until">Until (HH:MM, 24:00 the day’s end)</label>
              <input id="allowed-until" inputMode="numeric" value={draft.hours.allowedUntil} onInput={(e) => setHours({ allowedUntil: e.currentTarget.value })} />
            </div>
          </div>
          <div class="inline-form">
            {WEEKDAYS.map((day) => (
              <label key={day} class="choice">
                <input type="checkbox" checked={draft.hours.days.includes(day)} onChange={(e) => setHours({ days: WEEKDAYS.filter((one) => (one === day ? e.currentTarget.checked : draft.hours.days.includes(one))) })} /> {DAY_WORDS[day]}
              </label>
            ))}
          </div>
          <label class="choice">
            <input type="checkbox" checked={draft.hours.closedDates} onChange={(e) => setHours({ closedDates: e.currentTarget.checked })} /> Not on the business’s closed dates
          </label>
        </fieldset>
        <fieldset>
          <legend>A run stops when</legend>
          {STOP_CONDITIONS.map((condition) => (
            <label key={condition} class="choice">
              <input type="checkbox" checked={draft.stopWhen.includes(condition)} onChange={(e) => setDraft({ ...draft, stopWhen: STOP_CONDITIONS.filter((one) => (one === condition ? e.currentTarget.checked : draft.stopWhen.includes(one))) })} />{' '}
              {STOPPED_REASONS[condition]}
            </label>
          ))}
        </fieldset>
        <button type="submit" class="primary" disabled={busy}>
          Save when it runs
        </button>
      </form>
    </Part>
  );
}
