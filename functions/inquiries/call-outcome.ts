import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { openingState } from '#shared/schedule';
import { organizationKeys } from '../organization/entity';
import { fromOrganizationItem } from '../organization/schema';
import type { CallOutcome } from './schema';

/**
 * How an inbound call went for the business (docs/inquiry-sources.md, "Call outcome"), what the reports' calls figures
 * and the `call.missed` automations read. First match wins:
 * 1. the sender's `missed` flag: true → MISSED (false: not missed, so rules 3 and 4 are skipped);
 * 2. transferred: the platform's reason (Retell `call_transfer`, Vapi `assistant-forwarded-call`) or `transferred: true`;
 * 3. the platform says the caller was not served (Retell `inactivity` or an `error_…`; Vapi `silence-timed-out` or
 *    any reason naming an error) → MISSED;
 * 4. the caller hung up in under SHORT_CALL_SECONDS seconds, when the duration is known → MISSED;
 * 5. else ANSWERED.
 */

/** A caller who hangs up sooner was not served (a wrong number, a wait, a recorded greeting). */
export const SHORT_CALL_SECONDS = 15;

const TRANSFER_REASONS = new Set(['call_transfer', 'assistant-forwarded-call']);
const NOT_SERVED_REASONS = new Set(['inactivity', 'silence-timed-out']);

/** What of a CALL record the rule reads. */
export interface CallFacts {
  direction: string;
  duration: number;
  startedAt: string;
  endedBy: string;
  missed?: boolean | null;
  transferred?: boolean | null;
  endReason?: string | null;
}

/** Whether the call's duration is its own: a platform's (it reports why the call ended) or one above 0; 0 is log_call's default. */
const durationKnown = (call: CallFacts) => call.duration > 0 || typeof call.endReason === 'string';

/** The outcome of an inbound call; null for a call the agent made. */
export function callOutcome(call: CallFacts): CallOutcome | null {
  if (call.direction !== 'LEAD_TO_AI') return null;
  if (call.missed === true) return 'MISSED';
  const reason = call.endReason ?? '';
  if (call.transferred === true || TRANSFER_REASONS.has(reason)) return 'TRANSFERRED';
  if (call.missed === false) return 'ANSWERED';
  // Retell's error reasons start `error_`, Vapi's name `error` within (`pipeline-error-…`, `assistant-error`).
  if (NOT_SERVED_REASONS.has(reason) || reason.includes('error')) return 'MISSED';
  if (call.endedBy === 'user' && durationKnown(call) && call.duration < SHORT_CALL_SECONDS) return 'MISSED';
  return 'ANSWERED';
}

/** What the INQUIRY item keeps of a call beside its outcome, for the reports. */
export interface CallSummaryFields {
  callOutcome: CallOutcome | null;
  callDirection: string;
  callSeconds: number | null;
  afterHours: boolean;
}

/** Whether the organization was closed at `atMs` by its hours; false while it has set none. */
async function closedAt(organizationId: string, atMs: number): Promise<boolean> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: organizationKeys.organization(organizationId), ConsistentRead: true }));
  if (!Item) return false;
  const { businessHours, closedDates, timezone } = fromOrganizationItem(Item);
  return businessHours !== null && !openingState({ hours: businessHours, closedDates, timezone }, atMs).isOpenNow;
}

/** A CALL inquiry's outcome, direction, known length, and whether it started outside business hours (inbound calls only). */
export async function callSummaryFields(organizationId: string, call: CallFacts): Promise<CallSummaryFields> {
  const outcome = callOutcome(call);
  return {
    callOutcome: outcome,
    callDirection: call.direction,
    callSeconds: durationKnown(call) ? call.duration : null,
    afterHours: outcome !== null && (await closedAt(organizationId, Date.parse(call.startedAt))),
  };
}
