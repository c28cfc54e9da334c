/**
 * Trigger to text under `npm start`: the missed-call text-back recipe on, a missed call posted as an inquiry, and the
 * time until the caller's SMS list shows the outbound text. It is the whole no-wait path of an automation: the
 * inquiry's write, the stream consumer starting the run and queuing its step, the runner recording the SMS and the
 * local provider taking it. Each call is a new caller, as one lead gets at most three automated texts a day.
 */
import type { JsonClient } from '../stress/http';

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

/** Posts `calls` missed calls one after the other, each from a new number, and times each until its text is listed. */
export async function measureTriggerToSms(api: JsonClient, { calls = 30 } = {}): Promise<TriggerToSms> {
  // Any hour, so the bench does not wait for quiet hours to end wherever and whenever it runs.
  const created = await api.post('/v1/automations', { fromTemplate: 'missed_call_text_back', quietHours: { allowedFrom: '00:00', allowedUntil: '24:00' } });
  if (created.status !== 201) throw new Error(`POST /v1/automations answered ${created.status}: ${JSON.stringify(created.body)}`);
  const automationId = created.body.automation.id as string;
  const samples: number[] = [];
  try {
    for (let call = 0; call < calls; call++) {
      const phone = `+61412556${String(call).padStart(3, '0')}`;
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
