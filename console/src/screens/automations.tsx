import { answer, api, listUntil } from '../api';
import { segment } from '../url';
import { consolePath } from '../base';
import { leadName, STEP_LABELS } from '../format';
import { usePlace } from '../router';
import type { Automation, AutomationTemplate, TriggerEvent } from '../types';
import { Loading, Page, useAction, useLoad } from '../ui';
import { RunList } from './runs';
import { runsStoppedByReply, STOPPED_DAYS } from './today-counts';
import { useMay } from '../roles';

export const TRIGGER_WORDS: Record<TriggerEvent, string> = {
  'call.missed': 'When a call is missed',
  'inquiry.created': 'When an inquiry comes in',
  'lead.created': 'When a lead is created',
  'lead.status_changed': 'When a lead’s status changes',
  'appointment.booked': 'When an appointment is booked',
  'appointment.cancelled': 'When an appointment is cancelled',
  'appointment.completed': 'When an appointment is completed',
  'sms.received': 'When a text comes in',
};

export const stepsInWords = (automation: Automation) => automation.steps.map((step) => STEP_LABELS[step.type] ?? step.type).join(', then ');

/** The automation's on/off switch (PATCH isEnabled); its name is "On", described by the automation's heading. */
export function OnSwitch({ automation, describedBy, onChanged }: { automation: Automation; describedBy: string; onChanged: (automation: Automation) => void }) {
  const [busy, run] = useAction();
  const may = useMay();
  const id = `on-${automation.id}`;
  const toggle = (isEnabled: boolean) =>
    run(
      async () => onChanged((await answer(api.PATCH('/v1/automations/{automationId}', { params: { path: { automationId: automation.id } }, body: { isEnabled } }))).automation),
      `${automation.name} is ${isEnabled ? 'on' : 'off'}.`,
    );
  return (
    <div class="switch">
      <input id={id} type="checkbox" role="switch" checked={automation.isEnabled} disabled={busy || !may('PATCH /v1/automations/{automationId}')} aria-describedby={describedBy} onChange={(e) => toggle(e.currentTarget.checked)} />
      <label for={id}>On</label>
    </div>
  );
}

/** The runs a reply stopped lately (Today's link), each under its lead's name. */
function StoppedByReply() {
  const loaded = useLoad(runsStoppedByReply, []);
  return (
    <section aria-labelledby="stopped-heading">
      <h2 id="stopped-heading">Runs a reply stopped in the last {STOPPED_DAYS} days</h2>
      <p>
        The lead wrote back, so the automation stopped to let you answer. <a href={consolePath('/automations')}>Hide these</a>
      </p>
      <Loading loaded={loaded} what="stopped runs">
        {({ runs, automations }) => (
          <RunList
            runs={runs}
            heading={(run) => ({
              text: `${leadName(run.lead)}, in ${automations.find((each) => each.id === run.automationId)?.name ?? 'an automation'}`,
              href: consolePath(`/leads/${segment(run.leadId)}`),
            })}
            onChanged={() => loaded.reload()}
          />
        )}
      </Loading>
    </section>
  );
}

export function Automations() {
  const { query } = usePlace();
  const automations = useLoad((signal) => listUntil((limit, cursor) => api.GET('/v1/automations', { params: { query: { limit, cursor } }, signal }), 'automations').then(({ items }) => items), []);
  const templates = useLoad((signal) => answer(api.GET('/v1/automation-templates', { signal })).then(({ templates }) => templates), []);
  const [busy, run] = useAction();
  const may = useMay();
  const replace = (changed: Automation) => automations.set((automations.data ?? []).map((each) => (each.id === changed.id ? changed : each)));
  const startFrom = (template: AutomationTemplate) =>
    run(async () => {
      // Made off: the owner reads what it will text their customers, then switches it on.
      const { automation } = await answer(api.POST('/v1/automations', { body: { fromTemplate: template.id, isEnabled: false } }));
      automations.set([automation, ...(automations.data ?? [])]);
    }, `${template.name} added, off: read what it will send, then switch it on.`);

  return (
    <Page title="Automations">
      {query.get('stopped') === 'lead.replied' && <StoppedByReply />}
      <section aria-labelledby="yours-heading">
        <h2 id="yours-heading">Your automations</h2>
        <Loading loaded={automations} what="automations">
          {(list) =>
            list.length === 0 ? (
              <p>No automations yet: start one from a recipe below.</p>
            ) : (
              <ul class="items">
                {list.map((automation) => (
                  <li key={automation.id} class="item">
                    <h3 id={`automation-${automation.id}`}>
                      <a href={consolePath(`/automations/${segment(automation.id)}`)}>{automation.name}</a>
                    </h3>
                    <p>
                      {TRIGGER_WORDS[automation.trigger.event] ?? automation.trigger.event}: {stepsInWords(automation)}.
                    </p>
                    <OnSwitch automation={automation} describedBy={`automation-${automation.id}`} onChanged={replace} />
                  </li>
                ))}
              </ul>
            )
          }
        </Loading>
      </section>
      <section aria-labelledby="recipes-heading">
        <h2 id="recipes-heading">Recipes</h2>
        <Loading loaded={templates} what="recipes">
          {(list) => (
            <ul class="items">
              {list.map((template) => (
                <li key={template.id} class="item">
                  <h3 id={`recipe-${template.id}`}>{template.name}</h3>
                  <p>{template.description}</p>
                  {may('POST /v1/automations') && (
                    <button type="button" disabled={busy} aria-describedby={`recipe-${template.id}`} onClick={() => startFrom(template)}>
                      Use this recipe
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </Loading>
      </section>
    </Page>
  );
}
