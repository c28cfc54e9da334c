/**
 * Trigger to text under `npm start`: the missed-call text-back recipe on, a missed call posted as an inquiry, and the
 * time until the caller's SMS list shows the outbound text. It is the whole no-wait path of an automation: the
 * inquiry's write, the stream consumer starting the run and queuing its step, the runner recording the SMS and the
 * local provider taking it. Each call is a new caller, as one lead gets at most three automated texts a day.
 */
import { pool, type JsonClient } from '../stress/http';

export interface TriggerToSms {
  /** Milliseconds from the inquiry's answer being sent for to the text being listed. */
  p50: number;
  p95: number;
  calls: number;
}

/** How often the caller's SMS list is read while waiting; a text not there after the limit fails the bench. */
const POLL_MS = 20;
const LIMIT_MS = 30_000;

/** The value at a fraction of a sorted sample (nearest rank). */
const percentile = (sorted: number[], fraction: number) => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;

async function textedWithin(api: JsonClient, leadId: string, since: number): Promise<number> {
  for (;;) {
    const { body } = await api.get(`/v1/sms?leadId=${leadId}`);
    if ((body.messages as { direction: string }[] | undefined)?.some(({ direction }) => direction === 'OUTBOUND')) return performance.now() - since;
    if (performance.now() - since > LIMIT_MS) throw new Error(`No text for the missed call of lead ${leadId} after ${LIMIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Posts `calls` missed calls one after the other, each from a new number (`numbers` and three digits), and times each until its text is listed. */
export async function measureTriggerToSms(api: JsonClient, { calls = 30, numbers = '+61412556' } = {}): Promise<TriggerToSms> {
  // Any hour, so the bench does not wait for quiet hours to end wherever and whenever it runs.
  const created = await api.post('/v1/automations', { fromTemplate: 'missed_call_text_back', quietHours: { allowedFrom: '00:00', allowedUntil: '24:00' } });
  if (created.status !== 201) throw new Error(`POST /v1/automations answered ${created.status}: ${JSON.stringify(created.body)}`);
  const automationId = created.body.automation.id as string;
  const samples: number[] = [];
  try {
    for (let call = 0; call < calls; call++) {
      const phone = `${numbers}${String(call).padStart(3, '0')}`;
      const since = performance.now();
      const inquiry = await api.post('/v1/inquiries', { source: 'CALL', lead: { phone, name: `Caller ${call} Bench` }, data: { summary: 'Hung up before anyone answered.', missed: true } });
      if (inquiry.status !== 201) throw new Error(`POST /v1/inquiries answered ${inquiry.status}: ${JSON.stringify(inquiry.body)}`);
      samples.push(await textedWithin(api, inquiry.body.inquiry.leadId as string, since));
    }
  } finally {
    await api.delete(`/v1/automations/${automationId}`);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), calls };
}

/** Trigger to text of a quiet organization while another enrols its leads, and how far that is from no load. */
export interface TriggerToSmsDuringBulk extends TriggerToSms {
  /** The leads the other organization enrolled meanwhile. */
  leads: number;
  /** p95 during the enrolment over the p95 with no load (`baseline`). */
  ratio: number;
}

/** Until the organization's events of `type` number `count`: the stream consumer has handled the writes that raise them. */
async function streamCaughtUp(api: JsonClient, type: string, count: number): Promise<void> {
  const since = performance.now();
  while ((await api.get(`/v1/events?type=${type}&limit=1`)).body.totalCount < count) {
    if (performance.now() - since > 10 * LIMIT_MS) throw new Error(`Fewer than ${count} ${type} events after ${(10 * LIMIT_MS) / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 10 * POLL_MS));
  }
}

/** Enrolments at once: as a CSV import or a CRM sync posts them. */
const ENROLLING_CLIENTS = 16;
/** Enrolled before the first missed call is posted, so the step queue holds a backlog of the enrolment's steps. */
const ENROLLED_BEFORE_CALLS = 100;

/**
 * The same missed calls (from other numbers) while `bulk`, another organization, enrols `leads` new leads in a
 * three-step automation (a text, a day's wait, a text), 16 enrolments at a time: each enrolment queues its run's first
 * step, faster than the runner takes them, so the step queue holds hundreds of the enrolment's steps when the calls
 * come. The queue serves each organization as its own group (an SQS fair queue deployed, the in-process queue alike),
 * so the text-back waits for a free slot, not for the backlog; what remains is the machine's own contention (DynamoDB
 * Local serializes every write of the enrolment and its steps).
 */
export async function measureTriggerToSmsDuringBulk(quiet: JsonClient, bulk: JsonClient, { baseline, leads = 1_000, calls = 30 }: { baseline: TriggerToSms; leads?: number; calls?: number }): Promise<TriggerToSmsDuringBulk> {
  const anyHour = { allowedFrom: '00:00', allowedUntil: '24:00' };
  const steps = [{ type: 'send_sms', template: 'Thanks for your enquiry: we will send a quote today.' }, { type: 'wait', duration: 'P1D' }, { type: 'send_sms', template: 'Did the quote suit? Reply here with any questions.' }];
  // Enrolled by hand only: a status no one sets in the bench.
  const followUp = await bulk.post('/v1/automations', { name: 'Bench bulk follow-up', trigger: { event: 'lead.status_changed', filter: { to: 'LOST' } }, steps, quietHours: anyHour });
  if (followUp.status !== 201) throw new Error(`POST /v1/automations answered ${followUp.status}: ${JSON.stringify(followUp.body)}`);
  const automationId = followUp.body.automation.id as string;
  const leadIds: string[] = [];
  await pool(leads, ENROLLING_CLIENTS, async (i) => {
    const lead = await bulk.post('/v1/leads', { name: `Enrolled ${i} Bench`, phone: `+6141355${String(i).padStart(4, '0')}` });
    leadIds.push(lead.body.lead.id as string);
  });
  // The leads' creation is the row's setup, not its load: its stream records are handled before the enrolment starts.
  await streamCaughtUp(bulk, 'lead.created', leads);
  let enrolled = 0;
  const enrolling = pool(leadIds.length, ENROLLING_CLIENTS, async (i) => {
    await bulk.post(`/v1/automations/${automationId}/runs`, { leadId: leadIds[i] });
    enrolled++;
  });
  try {
    while (enrolled < Math.min(ENROLLED_BEFORE_CALLS, leads)) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const during = await measureTriggerToSms(quiet, { calls, numbers: '+61412557' });
    return { ...during, leads, ratio: during.p95 / baseline.p95 };
  } finally {
    await enrolling;
    await bulk.delete(`/v1/automations/${automationId}`);
  }
}
