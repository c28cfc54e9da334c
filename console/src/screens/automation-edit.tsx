import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { answer, api } from '../api';
import { consolePath } from '../base';
import { leadName, when } from '../format';
import { useMay } from '../roles';
import { navigate } from '../router';
import type { Automation, AutomationStep } from '../types';
import { useAction, useLoad } from '../ui';

type Preview = Awaited<ReturnType<typeof readPreview>>;
/** Whom a preview is for: a lead, and for an automation on an appointment's trigger, one of its appointments. */
interface Subject {
  id: string;
  label: string;
  body: { leadId: string; appointmentId?: string };
}
const readPreview = (automationId: string, body: Subject['body']) => answer(api.POST('/v1/automations/{automationId}/preview', { params: { path: { automationId } }, body })).then(({ preview }) => preview);

/** The leads (or, on an appointment's trigger, the appointments) a preview may be for: the newest. */
async function subjectsOf(automation: Automation, signal: AbortSignal): Promise<Subject[]> {
  if (automation.trigger.event.startsWith('appointment.')) {
    const { appointments } = await answer(api.GET('/v1/appointments', { params: { query: { limit: 25 } }, signal }));
    return appointments.flatMap((appointment) => (appointment.leadId ? [{ id: appointment.id, label: `${appointment.title}, ${when(appointment.startsAt)}`, body: { leadId: appointment.leadId, appointmentId: appointment.id } }] : []));
  }
  const { leads } = await answer(api.GET('/v1/leads', { params: { query: { limit: 25 } }, signal }));
  return leads.map((lead) => ({ id: lead.id, label: leadName(lead), body: { leadId: lead.id } }));
}

/** The steps whose words the owner writes: the texts sent to the lead. */
const isText = (step: AutomationStep) => step.type === 'send_sms';

/** A part of the screen with its heading, offered only where `shown` (the member's role may send its request). */
export function Part({ shown, id, title, children }: { shown: boolean; id: string; title: string; children: ComponentChildren }) {
  if (!shown) return null;
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{title}</h2>
      {children}
    </section>
  );
}

/**
 * The texts an automation sends, written by the owner (PATCH: a new version; runs already started keep theirs), what
 * they would say to one of the leads (its preview, nothing sent), and deleting it.
 */
export function EditAutomation({ automation, onChanged }: { automation: Automation; onChanged: (automation: Automation) => void }) {
  const may = useMay();
  const [busy, run] = useAction();
  const texts = automation.steps.flatMap((step, index) => (isText(step) && 'template' in step ? [{ index, template: step.template ?? '' }] : []));
  const [drafts, setDrafts] = useState(texts.map(({ template }) => template));
  useEffect(() => setDrafts(texts.map(({ template }) => template)), [automation.version]);
  const changed = drafts.some((draft, at) => draft !== texts[at]!.template);
  const [subjectId, setSubjectId] = useState('');
  const [preview, setPreview] = useState<Preview | null>(null);
  const subjects = useLoad((signal) => subjectsOf(automation, signal), [automation.trigger.event]);
  useEffect(() => setSubjectId((chosen) => chosen || subjects.data?.[0]?.id || ''), [subjects.data]);
  const subject = subjects.data?.find(({ id }) => id === subjectId);
  const onAppointments = automation.trigger.event.startsWith('appointment.');

  const save = (event: Event) => {
    event.preventDefault();
    const steps = automation.steps.map((step, index) => {
      const at = texts.findIndex((text) => text.index === index);
      return at === -1 ? step : { ...step, template: drafts[at]! };
    });
    void run(async () => {
      onChanged((await answer(api.PATCH('/v1/automations/{automationId}', { params: { path: { automationId: automation.id } }, body: { steps } }))).automation);
      setPreview(null);
    }, 'Texts saved. Runs already started keep the texts they started with.');
  };
  const showPreview = (event: Event) => {
    event.preventDefault();
    if (subject) void run(async () => setPreview(await readPreview(automation.id, subject.body)));
  };
  const remove = () => {
    if (!confirm(`Delete ${automation.name}? Its runs under way stop, and it starts no more.`)) return;
    void run(async () => {
      await answer(api.DELETE('/v1/automations/{automationId}', { params: { path: { automationId: automation.id } } }));
      // Back to the list, whose heading takes the focus; the automation is no longer in it.
      navigate(consolePath('/automations'));
    });
  };

  return (
    <>
      <Part shown={texts.length > 0 && may('PATCH /v1/automations/{automationId}')} id="texts" title="Texts it sends">
        <p class="hint">
          <code>{'{{lead.firstName|there}}'}</code> is the lead’s first name (or “there”); a part in <code>[[…]]</code> is yours to write before it can be switched on.
        </p>
        <form class="stack" onSubmit={save}>
          {texts.map((text, at) => (
            <div class="field" key={text.index}>
              <label for={`text-${text.index}`}>{texts.length > 1 ? `Text ${at + 1}` : 'Text'}</label>
              <textarea id={`text-${text.index}`} rows={4} value={drafts[at]} onInput={(e) => setDrafts(drafts.map((draft, other) => (other === at ? e.currentTarget.value : draft)))} />
            </div>
          ))}
          <button type="submit" class="primary" disabled={busy || !changed || drafts.some((draft) => !draft.trim())}>
            Save texts
          </button>
        </form>
      </Part>
      <Part shown={may('POST /v1/automations/{automationId}/preview')} id="preview" title="Preview">
        <p>What it would do for {onAppointments ? 'an appointment’s lead' : 'a lead'} enrolled now, its texts as they would read. Nothing is sent.</p>
        <form class="inline-form" onSubmit={showPreview}>
          <div class="field">
            <label for="preview-for">{onAppointments ? 'Appointment' : 'Lead'}</label>
            <select id="preview-for" value={subjectId} onChange={(e) => setSubjectId(e.currentTarget.value)}>
              {(subjects.data ?? []).map(({ id, label }) => (
                <option key={id} value={id}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" disabled={busy || !subject}>
            Preview
          </button>
        </form>
        {preview && (
          <ol class="preview">
            {preview.steps.map((step) => (
              <li key={step.index}>
                {step.dueAt ? `${when(step.dueAt)}: ` : ''}
                {step.sms ? `text to ${step.sms.to ?? 'no phone'}: “${step.sms.body}” (${step.sms.characters} characters)` : step.type.replaceAll('_', ' ')}
                {step.deferredBy === 'QUIET_HOURS' && ', held for the quiet hours'}
                {step.skipped && `, skipped: ${step.skipped}`}
                {step.failure && `, would fail: ${step.failure}`}
              </li>
            ))}
          </ol>
        )}
      </Part>
      <Part shown={may('DELETE /v1/automations/{automationId}')} id="delete" title="Delete">
        <button type="button" class="danger" disabled={busy} onClick={remove}>
          Delete automation
        </button>
      </Part>
    </>
  );
}
