/**
 * What the stream's events do to automations (functions/stream/record.ts runs it for each record's events, before
 * their webhooks are queued): an event starts a run of every enabled automation on a trigger it fires whose filter
 * matches, stops the runs watching its lead or appointment whose `stopWhen` names what happened, and moves the waits
 * anchored on an appointment that moved. Each of these is idempotent (one run per automation and event; a stop or
 * move of a run that ended does nothing), so a record handed again repeats them harmlessly. No route is imported:
 * this is in the stream consumer's bundle.
 */
import { sameWrite, stampOf, type WriterStamp } from '#shared/audit/writer';
import { readsOnce } from '#shared/reads-once';
import type { ItemChange } from '#shared/resource';
import type { Event } from '../../events/schema';
import type { StopCondition, TriggerName } from '../catalog';
import type { Watched } from '../runs/start';
import { readRunState } from '../runs/store';
import { enabledAutomationsFor, type TriggerEntry } from '../store';
import { changed, filterMatches, isCancellation, triggersOf } from './conditions';

type Data = Record<string, unknown>;

/**
 * Starting, stopping and moving runs (the run's store, the records its start reads, the caps), loaded at the first
 * event that starts, stops or moves one: most of the stream consumer's batches do none, and its bundle has chunks.
 */
const runStart = () => import('../runs/start');

/** An organization's enabled automations on a trigger. */
export type EnabledAutomations = (organizationId: string, trigger: TriggerName) => Promise<TriggerEntry[]>;

/** Reads each organization's automations on a trigger once, however many records of one stream batch ask. */
export const enabledAutomationsOnce = (read: EnabledAutomations = enabledAutomationsFor): EnabledAutomations => readsOnce(read);

/** A stop an event asks for: the runs watching this record whose `stopWhen` holds the condition. */
export interface StopOf {
  watched: Watched;
  condition: StopCondition | 'lead.deleted';
}

const leadStop = (leadId: unknown, condition: StopOf['condition']): StopOf[] => (typeof leadId === 'string' ? [{ watched: { kind: 'lead', leadId }, condition }] : []);

/** The runs an event stops: a lead's reply, status move, opt-out or deletion; a member's own text; an appointment's cancellation. */
export function stopsOf(event: Event): StopOf[] {
  const data = event.data as Data;
  const { type } = event;
  if (type === 'sms.received') return leadStop(data.leadId, 'lead.replied');
  // A member's own text: an automation's names no member.
  if (type === 'sms.sent' && typeof data.userId === 'string') return leadStop(data.leadId, 'member.contacted');
  if (type === 'lead.deleted') return leadStop(data.id, 'lead.deleted');
  if (type === 'lead.updated') {
    const optedOut = data.smsOptedOut === true && changed(event, 'smsOptedOut');
    return [...(changed(event, 'status') ? leadStop(data.id, 'lead.status_changed') : []), ...(optedOut ? leadStop(data.id, 'lead.opted_out') : [])];
  }
  if (isCancellation(event) && typeof data.id === 'string') return [{ watched: { kind: 'appointment', appointmentId: data.id }, condition: 'appointment.cancelled' }];
  return [];
}

/** The appointment whose times moved (a booked one: a cancelled one stops its runs instead), if the event is such a move. */
export function movedAppointmentOf(event: Event): string | undefined {
  const data = event.data as Data;
  const moved = event.type === 'appointment.updated' && data.status === 'BOOKED' && (changed(event, 'startsAt') || changed(event, 'endsAt'));
  return moved && typeof data.id === 'string' ? data.id : undefined;
}

/** The stamp of the write that made this change, if a writer made it: a stamp the item already had is an earlier write's. */
function ownStampOf(change: ItemChange): WriterStamp | undefined {
  const stamp = stampOf(change.newItem);
  return stamp && !sameWrite(stamp, stampOf(change.oldItem)) ? stamp : undefined;
}

/** The run whose step made this change, if one did: the writer's stamp on the item (shared/audit/writer.ts) names the run as its request. */
export function runWriterOf(change: ItemChange): string | undefined {
  const stamp = ownStampOf(change);
  return stamp && String(stamp.via) === 'automation' ? stamp.requestId : undefined;
}

/** The write that made this change, if a writer made it: one name for every item that write put or updated. */
function writeOf(change: ItemChange): string | undefined {
  const stamp = ownStampOf(change);
  return stamp && `${stamp.requestId}#${stamp.write}#${stamp.at}`;
}

/** The run that wrote a change, as the runs it starts need it: read only when the change would start one. */
type Chain = () => Promise<{ byAutomationId: string | undefined; chainDepth: number }>;

/**
 * Starts a run of each enabled automation on each trigger the event fires, whose filter matches, except the automation
 * whose own run made the change (`byAutomationId`): its step does not enrol the lead in it again. Answers their ids.
 */
async function startRunsOf(event: Event, enabled: EnabledAutomations, chainOf: Chain, triggerWrite: string | undefined): Promise<string[]> {
  const candidates = (
    await Promise.all(
      triggersOf(event).map(async ({ trigger, leadId, appointmentId, fields }) => {
        const entries = await enabled(event.organizationId, trigger);
        return entries.filter(({ filter }) => filterMatches(filter, fields)).map(({ automationId, version }) => ({ automationId, version, leadId, appointmentId }));
      }),
    )
  ).flat();
  if (candidates.length === 0) return [];
  const { byAutomationId, chainDepth } = await chainOf();
  const started = await Promise.all(
    candidates
      .filter(({ automationId }) => automationId !== byAutomationId)
      .map(({ appointmentId, ...start }) =>
        runStart().then(({ startRun }) => startRun({ organizationId: event.organizationId, ...start, ...(appointmentId ? { appointmentId } : {}), triggerEventId: event.id, triggeredAt: event.occurredAt, chainDepth, ...(triggerWrite ? { triggerWrite } : {}) })),
      ),
  );
  return started.map(({ runId }) => runId);
}

/**
 * One record's events, applied to automations: the runs an event starts, then the stops and moves it asks for. The
 * runs it started, and those the other changes of its write (`write`) started, are spared its stops (a lead moved to QUOTED starts a quote follow-up that stops on a status
 * change, and stops the earlier ones), also when its record is handed again and finds them started. `byRunId`: the
 * run that wrote the change, which it does not stop (its own `set_lead_status`), nor enrol in its own automation again
 * (an automation on status changes that sets a status would otherwise run once more for each run). The runs it
 * starts are one deeper in the chain of runs than `byRunId` (automations that trigger each other end at `LIMITS.chainDepth`).
 */
export async function automationEffects(events: readonly Event[], { enabled = enabledAutomationsOnce(), byRunId, write }: { enabled?: EnabledAutomations; byRunId?: string; write?: string } = {}): Promise<void> {
  // One record's events are one organization's. The writing run is read once, and only when an event would start a
  // run: most changes a run's step writes (its text, the inquiry it opens) start none.
  let chain: ReturnType<Chain> | undefined;
  const chainOf: Chain = () =>
    (chain ??= (byRunId && events[0] ? readRunState(events[0].organizationId, byRunId) : Promise.resolve(undefined)).then((byRun) => ({
      byAutomationId: byRun?.automationId,
      chainDepth: (byRun?.chainDepth ?? 0) + 1,
    })));
  for (const event of events) {
    const { organizationId } = event;
    const startedBy = await startRunsOf(event, enabled, chainOf, write);
    const moved = movedAppointmentOf(event);
    const deletedAutomation = event.type === 'automation.deleted' ? (event.data as Data).id : undefined;
    await Promise.all([
      ...stopsOf(event).map(({ watched, condition }) => runStart().then(({ stopRunsWatching }) => stopRunsWatching(organizationId, watched, condition, { byRunId, startedBy, write }))),
      moved ? runStart().then(({ rescheduleRunsWatching }) => rescheduleRunsWatching(organizationId, moved)) : undefined,
      typeof deletedAutomation === 'string' ? runStart().then(({ stopRunsOfAutomation }) => stopRunsOfAutomation(organizationId, deletedAutomation)) : undefined,
    ]);
  }
}

/** The effects of each record of one stream batch, the enabled automations read once per organization and trigger. */
export function automationEffectsOnce(): (events: readonly Event[], change: ItemChange) => Promise<void> {
  const enabled = enabledAutomationsOnce();
  return (events, change) => automationEffects(events, { enabled, byRunId: runWriterOf(change), write: writeOf(change) });
}
