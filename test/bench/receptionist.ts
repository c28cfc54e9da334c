/**
 * The receptionist's routes for a business open around the clock, against the same routes for a business open office
 * hours, alternated in one run (`npm run bench` section 2). Whether the business is open is worked out on every call
 * of both routes (shared/schedule.ts), and 24/7 hours were once its slowest shape: 5–9× the office's. Alone, against
 * a stack of its own: `npx tsx test/bench/receptionist.ts` prints the two ratios.
 */
import type { JsonClient } from '../stress/http';
import { compare, type Comparison } from './timing';

const EVERY_DAY = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const HOURS = {
  aroundTheClock: Object.fromEntries(EVERY_DAY.map((day) => [day, [{ open: '00:00', close: '24:00' }]])),
  office: Object.fromEntries(EVERY_DAY.slice(0, 5).map((day) => [day, [{ open: '07:00', close: '17:00' }]])),
};

export interface AroundTheClock {
  /** GET /v1/callers/{phone} of a known caller with inquiries, and GET /v1/receptionist/context: 24/7 against office hours. */
  caller: Comparison;
  context: Comparison;
}

async function ok(answer: Promise<{ status: number; body: unknown }>): Promise<Record<string, any>> {
  const { status, body } = await answer;
  if (status < 200 || status >= 300) throw new Error(`answered ${status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body as Record<string, any>;
}

/** An organization in Sydney with these hours and a caller with three inquiries; its two receptionist reads. */
async function receptionistOf(api: JsonClient, businessHours: Record<string, unknown>) {
  await ok(api.patch('/v1/organization', { timezone: 'Australia/Sydney', businessHours, closedDates: [] }));
  await ok(api.post('/v1/leads', { name: 'Olivia Caller', phone: '+61412345001' }));
  for (let i = 0; i < 3; i++) {
    const fields = [{ name: 'message', label: 'Message', value: `Inquiry ${i}` }];
    await ok(api.post('/v1/inquiries', { source: 'WEBFORM', lead: { phone: '+61412345001' }, summary: `Inquiry ${i}`, data: { formName: 'Contact', submittedAt: '2026-11-20T09:00:00Z', pageUrl: 'https://bench.example.com/contact', fields } }));
  }
  return { caller: () => ok(api.get('/v1/callers/%2B61412345001')), context: () => ok(api.get('/v1/receptionist/context')) };
}

/** `aroundTheClock` and `office` answer for two new organizations of their own, made alike but for their hours here. */
export async function measureAroundTheClock(aroundTheClock: JsonClient, office: JsonClient, { rounds }: { rounds: number }): Promise<AroundTheClock> {
  const open = await receptionistOf(aroundTheClock, HOURS.aroundTheClock);
  const plain = await receptionistOf(office, HOURS.office);
  // Open now with no closing to name: the shape measured is the one meant.
  const { organization } = await open.context();
  if (organization.isOpenNow !== true || organization.closesAt !== null) throw new Error(`a 24/7 organization answered ${JSON.stringify(organization)}`);
  return { caller: await compare(open.caller, plain.caller, { rounds }), context: await compare(open.context, plain.context, { rounds }) };
}

// Alone: a stack of its own and the two organizations.
if (process.argv[1]?.endsWith('test/bench/receptionist.ts')) {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 200);
  process.stdout.write = () => true;
  const { startStressStack } = await import('../stress/stack');
  const { jsonClient } = await import('../stress/http');
  const stack = await startStressStack({ events: false, powertoolsDev: false, authorizerCacheTtlMs: 300_000 });
  try {
    const client = async (name: string) => jsonClient(stack.url, (await stack.newOrganization(name)).apiKey);
    const figures = await measureAroundTheClock(await client('Bench around the clock'), await client('Bench office hours'), { rounds });
    for (const [route, c] of [['GET /v1/callers/{phone}', figures.caller], ['GET /v1/receptionist/context', figures.context]] as const) {
      process.stderr.write(`${route}, open 24/7 ÷ open office hours: ${c.ratio.toFixed(2)} (${c.measured.toFixed(2)} ms ÷ ${c.baseline.toFixed(2)} ms, medians of ${rounds})\n`);
    }
  } finally {
    await stack.stop();
  }
}
