import * as v from 'valibot';
import { Instant, PageQuery, PrefixedId, pageSchema } from '#shared/schema';
import { STEP_TYPES } from '../steps/schema';
import { RUN_STATUSES, RUN_STOPPED_REASONS, runEntity } from './attributes';
import { LeadSummary } from '../../leads/summaries';

/** One lead's way through one version of an automation: where it is, what each step did, and how it ended. */
export const Run = runEntity.Record;
export type Run = v.InferOutput<typeof Run>;

export const RunResponse = v.object({ run: Run });

/** A run as a list shows it: with `expand=lead`, its lead beside it (null once the lead is deleted). */
export const RunListItem = v.object({ ...Run.entries, lead: v.optional(v.nullable(LeadSummary)) });
export type RunListItem = v.InferOutput<typeof RunListItem>;
export const RunPage = pageSchema('runs', RunListItem);

/** What a list of runs adds beside each: `lead`, its lead, so a list shows whom each run is for in one request. */
const RunExpansion = v.optional(v.pipe(v.picklist(['lead'], 'expand must be lead'), v.description('`lead` adds each run’s lead (`lead`, null once the lead is deleted).')));

export const AutomationIdPath = v.object({ automationId: PrefixedId('automation', 'automationId') });
export const RunIdPath = v.object({ runId: PrefixedId('run', 'runId') });

export const ListRunsQuery = v.object({
  ...PageQuery.entries,
  status: v.optional(v.pipe(v.picklist(RUN_STATUSES, `status must be one of ${RUN_STATUSES.join(', ')}`), v.description('Only the runs in this status.'))),
  expand: RunExpansion,
});
export type ListRunsQuery = v.InferOutput<typeof ListRunsQuery>;

/** The stopped runs' list: a stopped run never changes again, so `stoppedSince` is what a poller syncs by. */
export const ListStoppedRunsQuery = v.object({
  page: PageQuery.entries.page,
  limit: PageQuery.entries.limit,
  cursor: PageQuery.entries.cursor,
  stoppedReason: v.optional(v.pipe(v.picklist(RUN_STOPPED_REASONS, `stoppedReason must be one of ${RUN_STOPPED_REASONS.join(', ')}`), v.description('Only the runs stopped for this reason (`lead.replied`: the lead answered).'))),
  stoppedSince: v.optional(Instant('stoppedSince', 'Only the runs stopped at or after this instant.')),
  expand: RunExpansion,
});
export type ListStoppedRunsQuery = v.InferOutput<typeof ListStoppedRunsQuery>;

export const LeadRunsPath = v.object({ leadId: PrefixedId('lead', 'leadId') });
export const ListLeadRunsQuery = v.object({ page: PageQuery.entries.page, limit: PageQuery.entries.limit, cursor: PageQuery.entries.cursor });
export type ListLeadRunsQuery = v.InferOutput<typeof ListLeadRunsQuery>;

/** Whom a run is for: a lead, and for an automation on an appointment's trigger, its appointment (of that lead). */
export const EnrolBody = v.strictObject({
  leadId: PrefixedId('lead', 'leadId'),
  appointmentId: v.optional(v.pipe(PrefixedId('appointment', 'appointmentId'), v.description('Required when the automation’s trigger is an `appointment.*` one; the appointment must be the lead’s.'))),
});
export type EnrolBody = v.InferOutput<typeof EnrolBody>;

const PreviewStep = v.object({
  index: v.number(),
  type: v.picklist(STEP_TYPES),
  dueAt: v.pipe(v.nullable(v.string()), v.description('When the step would run, were the lead enrolled now (UTC).')),
  skipped: v.optional(v.pipe(v.string(), v.description('Why the step would be skipped (`time passed`: its anchored time is already past).'))),
  sms: v.optional(v.object({ to: v.nullable(v.string()), body: v.string(), characters: v.number() })),
  deferredBy: v.optional(v.literal('QUIET_HOURS')),
  failure: v.optional(v.pipe(v.string(), v.description('Why the step would fail (a rendered SMS over 1 600 characters).'))),
});
export const PreviewResponse = v.object({ preview: v.object({ steps: v.array(PreviewStep) }) });
export type PreviewStep = v.InferOutput<typeof PreviewStep>;
