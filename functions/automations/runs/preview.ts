import { clock } from '#shared/clock';
import { NotFoundError } from '#shared/errors';
import { getLead } from '../../leads/read';
import { getMember } from '../../organization/member-store';
import { unhandledStep, type Step } from '../steps/schema';
import { LIMITS } from '../catalog';
import { quietUntil } from '../steps/quiet-hours';
import { anchorAt, readRunContext, templateValues, type RunContext } from './context';
import { enrolledAppointment } from './start';
import type { EnrolBody, PreviewStep } from './schema';
import { isLate, waitDue } from '../steps/times';
import { readAutomationDefinition } from '../store';
import { renderTemplate } from '../steps/templates';

const iso = (ms: number) => new Date(ms).toISOString();

/** A rendered text as the preview shows it, with why it would fail when too long. */
function smsOf(to: string | null, body: string): Pick<PreviewStep, 'sms' | 'failure'> {
  const failure = body.length > LIMITS.smsCharacters ? { failure: `rendered SMS is ${body.length} characters; at most ${LIMITS.smsCharacters}` } : {};
  return { sms: { to, body, characters: body.length }, ...failure };
}

/** One step as it would go were the lead enrolled now, with the time the steps before it reach; answers the time after it. */
async function previewStep(context: RunContext, step: Step, index: number, atMs: number): Promise<{ shown: PreviewStep; atMs: number }> {
  const base = { index, type: step.type, dueAt: iso(atMs) };
  const anchorOf = (anchor: string) => anchorAt(context, anchor);
  switch (step.type) {
    case 'wait': {
      const due = waitDue(step, atMs, anchorOf);
      if (due === undefined) return { shown: { ...base, dueAt: null, skipped: 'no anchor' }, atMs };
      if (due <= atMs) return { shown: { ...base, dueAt: iso(due), skipped: 'time passed' }, atMs };
      return { shown: { ...base, dueAt: iso(due) }, atMs: due };
    }
    case 'send_sms': {
      if (isLate(context.definition, index, atMs, anchorOf)) return { shown: { ...base, skipped: 'late' }, atMs };
      const allowedAt = quietUntil(context.definition.quietHours, context.organization, atMs);
      const dueAt = typeof allowedAt === 'number' ? allowedAt : atMs;
      const deferred = typeof allowedAt === 'number' ? { deferredBy: 'QUIET_HOURS' as const } : {};
      const body = renderTemplate(step.template, templateValues(context));
      return { shown: { ...base, dueAt: iso(dueAt), ...deferred, ...smsOf(context.lead?.phone ?? null, body) }, atMs: dueAt };
    }
    case 'notify_member': {
      const member = await getMember(context.organizationId, step.memberId);
      const body = renderTemplate(step.template, templateValues(context, { firstName: member?.firstName ?? null }));
      return { shown: { ...base, ...smsOf((member as { phone?: string | null } | undefined)?.phone ?? null, body) }, atMs };
    }
    // What these write is shown by nothing but their place in the run.
    case 'set_lead_status':
    case 'add_note':
    case 'webhook':
      return { shown: base, atMs };
    default:
      return unhandledStep(step);
  }
}

/** Every step of the automation's current version rendered for this lead as if enrolled now; nothing is sent or written. */
export async function previewAutomation(organizationId: string, automationId: string, body: EnrolBody): Promise<{ steps: PreviewStep[] }> {
  const definition = await readAutomationDefinition(organizationId, automationId);
  if (!definition) throw new NotFoundError('Automation not found');
  if (!(await getLead(organizationId, body.leadId))) throw new NotFoundError('Lead not found');
  const appointmentId = await enrolledAppointment(organizationId, definition, body);
  const context = await readRunContext(organizationId, definition, body.leadId, appointmentId);
  const steps: PreviewStep[] = [];
  let atMs = clock.now();
  for (const [index, step] of definition.steps.entries()) {
    const previewed = await previewStep(context, step, index, atMs);
    steps.push(previewed.shown);
    atMs = previewed.atMs;
  }
  return { steps };
}
