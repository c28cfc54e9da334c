import { clock } from '#shared/clock';
import { NotFoundError } from '#shared/errors';
import { insertIfAbsent, type TransactWrite } from '#shared/store/transact';
import { TTL_ATTRIBUTE } from '#shared/table';
import { addLeadActivity, updateLead } from '../../leads/rules';
import { getMember } from '../../organization/member-store';
import type { AutomatedSmsOutcome } from '../../sms/automated';
import { postSigned } from '../../webhooks/post';
import { unhandledStep, type Step, type StepOf } from './schema';
import type { AutomationDefinition } from '../catalog';
import { DAILY_CAP_REACHED, dailyCapWrite, memberCapWrite } from './cap';
import { derivedId } from '#shared/ids';
import { runKeys, type RunState } from '../runs/entity';
import type { RunStep } from '../runs/attributes';
import { runStillAtCheck } from '../runs/store';
import { templateValues, type RunContext } from '../runs/context';
import { renderTemplate } from './templates';
import { signingSecretOf, type StoredSigningSecret } from '../signing-secret';

/** What a step's effect did: the step's end and result, and, when it ends the run, how; or a time to try again. */
export interface EffectOutcome {
  status: 'DONE' | 'SKIPPED' | 'FAILED';
  result: RunStep['result'];
  end?: { status: 'STOPPED' | 'FAILED'; reason: string };
  retryAt?: number;
}

/** The run moved on while the effect was under way (stopped, cancelled): nothing was done, nothing is recorded. */
export const RUN_MOVED = 'RUN_MOVED';

/** A step's marker lasts as long as anyone could redeliver its message, and a month more. */
const MARKER_TTL_SECONDS = 30 * 86_400;

/** Where a claimed step runs: the run, its step, the delivery's wake and the time the claim gave it. */
export interface ClaimedStep {
  context: RunContext;
  run: RunState;
  index: number;
  atMs: number;
}

class StepDoneBefore extends Error {}

/** The step's marker, put only once: in the transaction of a write outside the run, it makes that write once per step. */
function stepMarker({ run, index, atMs }: ClaimedStep): TransactWrite {
  const key = runKeys.stepMarker(run.organizationId, run.id, index);
  return insertIfAbsent({ ...key, entity: 'AUTOMATION_STEP', runId: run.id, stepIndex: index, [TTL_ATTRIBUTE]: Math.floor(atMs / 1000) + MARKER_TTL_SECONDS }, () => new StepDoneBefore());
}

/** Runs a write marked once per step: done when the marker was there already; a lead gone stops the run. */
async function onceForStep(claimed: ClaimedStep, write: (also: TransactWrite[]) => Promise<unknown>): Promise<EffectOutcome> {
  try {
    await write([stepMarker(claimed)]);
  } catch (error) {
    if (error instanceof StepDoneBefore) return { status: 'DONE', result: {} };
    if (error instanceof NotFoundError) return { status: 'SKIPPED', result: { reason: 'lead not found' }, end: { status: 'STOPPED', reason: 'lead.deleted' } };
    throw error;
  }
  return { status: 'DONE', result: {} };
}

/**
 * The automated texts (sms/automated.ts: the thread, its records and the sender, and the inquiry code a thread reads),
 * loaded at the runner's first text to a lead or a member, once per container, as its End User Messaging client is
 * (sms/end-user-messaging.ts): a step that posts a webhook, notes or sets a status never parses them.
 */
let automatedSms: Promise<typeof import('../../sms/automated')> | undefined;
const loadAutomatedSms = () => (automatedSms ??= import('../../sms/automated'));

/** Why an SMS step failed, by its refusal: the provider refused the text, or never said it took it (it is not sent again). */
const SMS_FAILURES: Readonly<Record<string, string>> = { FAILED: 'provider refused the SMS', NOT_CONFIRMED: 'not confirmed sent', NO_PHONE: 'lead has no phone' };

/** What an automated SMS's outcome makes of its step. */
function smsOutcome(outcome: AutomatedSmsOutcome): EffectOutcome | typeof RUN_MOVED {
  if (outcome.sent) return { status: 'DONE', result: { smsId: outcome.smsId } };
  const { refusal, smsId } = outcome;
  if (refusal === RUN_MOVED) return RUN_MOVED;
  // The store did not take the record in time: nothing was sent, and the message's next delivery tries again.
  if (refusal === 'NOT_RECORDED') throw new Error('the automated SMS was not recorded; its step is tried again');
  if (refusal === DAILY_CAP_REACHED) return { status: 'SKIPPED', result: { reason: DAILY_CAP_REACHED } };
  if (refusal === 'OPTED_OUT') return { status: 'SKIPPED', result: { reason: 'OPTED_OUT' }, end: { status: 'STOPPED', reason: 'lead.opted_out' } };
  if (refusal === 'LEAD_NOT_FOUND') return { status: 'SKIPPED', result: { reason: refusal }, end: { status: 'STOPPED', reason: 'lead.deleted' } };
  const reason = SMS_FAILURES[refusal] ?? refusal;
  return { status: 'FAILED', result: { reason, ...(smsId ? { smsId } : {}) }, end: { status: 'FAILED', reason } };
}

async function sendSmsStep(claimed: ClaimedStep, body: string): Promise<EffectOutcome | typeof RUN_MOVED> {
  const { context, run, index, atMs } = claimed;
  const { organizationId, organization } = context;
  const { sendAutomatedSms } = await loadAutomatedSms();
  const outcome = await sendAutomatedSms({
    organizationId,
    leadId: run.leadId,
    messageId: derivedId('message', atMs, `${run.id}#${index}`),
    body,
    automationRunId: run.id,
    also: [dailyCapWrite(organizationId, run.leadId, organization.dailyCap, organization.timezone, atMs), { write: runStillAtCheck(organizationId, run.id, run.wake, index), refusal: RUN_MOVED }],
  });
  return smsOutcome(outcome);
}

async function notifyMemberStep(claimed: ClaimedStep, step: StepOf<'notify_member'>): Promise<EffectOutcome | typeof RUN_MOVED> {
  const { context, run, index, atMs } = claimed;
  const member = await getMember(context.organizationId, step.memberId);
  const body = renderTemplate(step.template, templateValues(context, { firstName: member?.firstName ?? null }));
  const markerKey = runKeys.stepMarker(run.organizationId, run.id, index);
  const also = [memberCapWrite(context.organizationId, step.memberId, context.organization.timezone, atMs)];
  const { notifyMember } = await loadAutomatedSms();
  const outcome = await notifyMember({ organizationId: context.organizationId, memberId: step.memberId, body, markerKey, also });
  if (outcome.sent) return { status: 'DONE', result: { smsId: outcome.smsId } };
  // The member's texts of the day are at their cap: this one is skipped, and the run goes on, as for a lead's.
  if (outcome.refusal === DAILY_CAP_REACHED) return { status: 'SKIPPED', result: { reason: DAILY_CAP_REACHED } };
  // A text the provider may have taken (NOT_CONFIRMED) keeps its id, as a lead's does: its receipt or the provider's log names it.
  const { refusal, smsId } = outcome;
  return { status: 'FAILED', result: { reason: refusal, ...(smsId ? { smsId } : {}) }, end: { status: 'FAILED', reason: refusal } };
}

/** How many times a webhook step posts before it fails the run, a minute apart. */
export const WEBHOOK_ATTEMPTS = 3;
const WEBHOOK_RETRY_MS = 60_000;

type Signed = AutomationDefinition & { signingSecret?: StoredSigningSecret | null };

async function webhookStep(claimed: ClaimedStep, step: StepOf<'webhook'>, previous: RunStep): Promise<EffectOutcome> {
  const { context, run, index } = claimed;
  const secret = await signingSecretOf(run.organizationId, run.automationId, (context.definition as Signed).signingSecret);
  const body = JSON.stringify({ type: 'automation_run.step', runId: run.id, automationId: run.automationId, stepIndex: index, lead: context.lead ?? null, appointment: context.appointment ?? null });
  const outcome = await postSigned(step.url, secret ? [secret] : [], `${run.id}_${index}`, body);
  const attempts = (previous.result.attempts ?? 0) + 1;
  if (outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300) return { status: 'DONE', result: { webhookStatus: outcome.statusCode, attempts } };
  const reason = outcome.statusCode === null ? `no answer: ${outcome.error}` : `answered ${outcome.statusCode}`;
  const result = { webhookStatus: outcome.statusCode, attempts, reason };
  if (attempts < WEBHOOK_ATTEMPTS) return { status: 'FAILED', result, retryAt: clock.now() + WEBHOOK_RETRY_MS };
  return { status: 'FAILED', result, end: { status: 'FAILED', reason: `webhook ${reason}` } };
}

/**
 * The effect of a claimed step, made at most once for its (run, step): an SMS by its id derived from both, a note or
 * a status with the step's marker in their transaction, a member's text by its marker, a webhook by its `webhook-id`.
 */
export async function runEffect(claimed: ClaimedStep, step: Exclude<Step, { type: 'wait' }>, previous: RunStep, smsBody: string): Promise<EffectOutcome | typeof RUN_MOVED> {
  const { context, run } = claimed;
  switch (step.type) {
    case 'send_sms':
      return sendSmsStep(claimed, smsBody);
    case 'notify_member':
      return notifyMemberStep(claimed, step);
    case 'set_lead_status':
      return onceForStep(claimed, (also) => updateLead(context.organizationId, run.leadId, { status: step.status }, undefined, also));
    case 'add_note':
      return onceForStep(claimed, (also) => addLeadActivity(context.organizationId, run.leadId, { event: 'NOTE', data: renderTemplate(step.template, templateValues(context)) }, also));
    case 'webhook':
      return webhookStep(claimed, step, previous);
    default:
      return unhandledStep(step);
  }
}
