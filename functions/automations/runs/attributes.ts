import * as v from 'valibot';
import { Timestamp } from '#shared/schema';
import { defineEntity, RECORD_TIMES } from '#shared/store/entity';
import { organizationPartition as org } from '#shared/store/keys';
import { STEP_TYPES } from '../steps/schema';
import { prose } from '#shared/prose';

export const RUN_STATUSES = ['WAITING', 'RUNNING', 'COMPLETED', 'STOPPED', 'FAILED'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
/** A run in one of these has ended: nothing moves it again, and its event says how it ended. */
export const ENDED_RUN_STATUSES: readonly RunStatus[] = ['COMPLETED', 'STOPPED', 'FAILED'];
export const isEnded = (status: string) => (ENDED_RUN_STATUSES as readonly string[]).includes(status);

/** What a run started by another run's write, more than `LIMITS.chainDepth` runs deep, is stopped with before its first step. */
export const LOOP_DETECTED = 'LOOP_DETECTED';
/** What a run past `LIMITS.runsPerLeadPerDay` of its automation for its lead that local day is stopped with before its first step. */
export const DAILY_RUN_CAP_REACHED = 'DAILY_RUN_CAP_REACHED';

/** Why a run stopped: by hand, by what its `stopWhen` (or a deletion) names, or before its first step, by a bound on runs. */
export const RUN_STOPPED_REASONS = ['cancelled', 'lead.replied', 'lead.opted_out', 'lead.status_changed', 'appointment.cancelled', 'member.contacted', 'lead.deleted', 'automation.deleted', LOOP_DETECTED, DAILY_RUN_CAP_REACHED] as const;
export type RunStoppedReason = (typeof RUN_STOPPED_REASONS)[number];

export const RUN_STEP_STATUSES = ['PENDING', 'WAITING', 'RUNNING', 'DONE', 'SKIPPED', 'FAILED', 'CANCELLED'] as const;
export type RunStepStatus = (typeof RUN_STEP_STATUSES)[number];

const RunStepResult = v.pipe(
  v.object({
    smsId: v.optional(v.string()),
    reason: v.optional(v.string()),
    deferredBy: v.optional(v.literal('QUIET_HOURS')),
    webhookStatus: v.optional(v.nullable(v.number())),
    attempts: v.optional(v.number()),
  }),
  v.description('What the step did: the SMS it recorded (`smsId`), why it was skipped or failed (`reason`), that quiet hours moved it (`deferredBy`), the webhook receiver’s status and the attempts made.'),
);

export const RunStep = v.object({
  index: v.number(),
  type: v.picklist(STEP_TYPES),
  status: v.pipe(v.picklist(RUN_STEP_STATUSES), v.description('`PENDING` not reached yet, `WAITING` for `dueAt`, `RUNNING` now, then `DONE`, `SKIPPED`, `FAILED`, or `CANCELLED` when the run stopped first.')),
  dueAt: v.pipe(v.nullable(Timestamp), v.description('When the step is due (UTC); null until the run reaches it.')),
  at: v.pipe(v.nullable(Timestamp), v.description('When it ran (UTC); later than dueAt when it ran late.')),
  result: RunStepResult,
});
export type RunStep = v.InferOutput<typeof RunStep>;

/**
 * A run's fields as the API answers them. The item also keeps what only the runner reads (`stepIndex`, `wake`,
 * `leaseUntil`, `scheduleName`, `triggeredAt`, `chainDepth`), which the record schema leaves out.
 */
const attributes = {
  id: { type: v.string() },
  automationId: { type: v.string() },
  automationVersion: { type: v.number() },
  leadId: { type: v.string() },
  appointmentId: { type: v.nullable(v.string()) },
  triggerEventId: { type: v.pipe(v.nullable(v.string()), v.description('The event that started the run; null for a lead enrolled by hand.')) },
  status: { type: v.picklist(RUN_STATUSES) },
  stoppedReason: {
    type: v.pipe(
      v.nullable(v.picklist(RUN_STOPPED_REASONS)),
      v.description(prose`
        Why a STOPPED run stopped: \`cancelled\` (by hand); \`lead.replied\`, \`lead.opted_out\`,
        \`lead.status_changed\`, \`appointment.cancelled\`, \`member.contacted\` (its \`stopWhen\`); \`lead.deleted\`, \`automation.deleted\`;
        or, never started (every step \`CANCELLED\`): \`LOOP_DETECTED\`, started by a write of a run that was itself
        started by runs’ writes 3 deep (automations that trigger each other), or \`DAILY_RUN_CAP_REACHED\`, the
        automation already started 10 runs for the lead that local day.
      `),
    ),
  },
  failedReason: { type: v.nullable(v.string()) },
  nextStepAt: { type: v.pipe(v.nullable(Timestamp), v.description('When the run next moves; null once it has ended.')) },
  steps: { type: v.array(RunStep) },
  ...RECORD_TIMES,
} as const;

/** A run: its item (`ORG#<o>#RUN#<runId>` / `RUN`), listed per automation newest first (gsi1). */
export const runEntity = defineEntity({
  entity: 'AUTOMATION_RUN',
  attributes,
  key: (o, runId) => ({ pk: `${org(o)}#RUN#${runId}`, sk: 'RUN' }),
  indexes: { gsi1: { fields: ['automationId'], keys: (o, run) => ({ pk: `${org(o)}#AUTOMATION#${run.automationId}#RUNS`, sk: run.id }) } },
});
