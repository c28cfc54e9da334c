import { checkInvariants, itemsOfOrganization } from './invariants';
import { jsonClient, pool, tally, type Answer, type JsonClient } from './http';
import type { StressStack } from './stack';

export interface RunFigures {
  name: string;
  requests: number;
  byStatus: Record<string, number>;
  /** Answers by status before, during (or in flight across) and after a fault. */
  phases?: Record<string, Record<string, number>>;
  /** Answers that were neither what the run allows nor an error envelope. */
  unexpected: string[];
  violations: string[];
  notes: string[];
}

const isEnvelope = (answer: Answer) => answer.body?.success === false && answer.body?.error?.status === answer.status;
const KILL_MARGIN_MS = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const SERVICE = { description: 'Stress run service', duration: 60, durationUnit: 'MINUTES', tradeCategoryId: 1, pricingType: 'NONE' };
const phone = (i: number) => `+614${String(10_000_000 + i).slice(-8)}`;
const lead = (name: string, i: number) => ({ name, email: `lead${i}@example.com.au`, phone: phone(i) });

/** A member who can send SMS and a lead with a phone to text. */
async function smsParties(client: JsonClient, tag: string) {
  const member = await client.post('/v1/organization/members', { email: `sender.${tag}@example.com.au`, firstName: 'Sam', lastName: 'Sender', role: 'MEMBER' });
  const texted = await client.post('/v1/leads', lead(`Texted ${tag}`, 9_000_000));
  if (member.status !== 201 || texted.status !== 201) throw new Error(`stress setup failed: ${JSON.stringify(member.body)} ${JSON.stringify(texted.body)}`);
  return { userId: member.body.member.user.id as string, leadId: texted.body.lead.id as string };
}

/**
 * Faults: a stream of creates (leads, services with their scenarios, SMS) while DynamoDB Local is killed
 * and restarted from its data directory. Each request must get a success or a 5xx envelope (an SMS, racing the
 * others on its one lead, queues, and may answer 503 SERVICE_UNAVAILABLE); afterwards the
 * invariants must hold for everything that committed.
 */
export async function faultRun(stack: StressStack, { creates, clients, downMs, signal = 'SIGTERM' }: { creates: number; clients: number; downMs: number; signal?: NodeJS.Signals }): Promise<RunFigures> {
  const { organizationId, apiKey } = await stack.newOrganization('Fault run');
  const client = jsonClient(stack.url, apiKey);
  const parties = await smsParties(client, 'fault');
  const answers: Answer[] = [];
  const unexpected: string[] = [];
  // 201s answered clearly before or after the fault must be there; those in flight across it are reported.
  const committed = { leadIds: [] as string[], serviceIds: [] as number[] };
  const inFlight = { leadIds: [] as string[], serviceIds: [] as number[] };
  let fault: Promise<void> | undefined;
  let phase: 'before' | 'during' | 'after' = 'before';
  let afterCount = 0;
  const phases: Record<string, number[]> = { before: [], during: [], after: [] };
  const killAt = Math.floor(creates / 3);

  await pool(
    // A third of the creates before the kill, then on through the outage, then two thirds once DynamoDB is back.
    () => phase === 'after' && afterCount >= creates - killAt,
    clients,
    async (i) => {
      if (i === killAt && !fault) {
        phase = 'during';
        fault = (async () => {
          // DynamoDB Local acknowledges a write a moment before it is on disk; answers in this margin count as in flight.
          await sleep(KILL_MARGIN_MS);
          await stack.killDynamoDb(signal);
          await sleep(downMs);
          await stack.restartDynamoDb();
          phase = 'after';
        })();
      }
      const issuedIn = phase;
      if (issuedIn === 'after') afterCount++;
      const kind = i % 3;
      const answer =
        kind === 0
          ? await client.post('/v1/leads', lead(`Fault Lead ${i}`, i))
          : kind === 1
            ? await client.post('/v1/services', { ...SERVICE, name: `Fault service ${i}` })
            : await client.post('/v1/sms', { ...parties, message: `Fault run message ${i}` });
      answers.push(answer);
      // A request that began before the fault and ended in or after it was in flight across it.
      const bucket = issuedIn === phase ? issuedIn : 'during';
      // A send that could not take its turn on the one texted lead in time answers 503 SERVICE_UNAVAILABLE with
      // Retry-After, in any phase on a busy machine: documented contention, not the fault, so the phases leave it out.
      const contended = kind === 2 && answer.status === 503 && answer.body?.error?.code === 'SERVICE_UNAVAILABLE';
      if (!contended || bucket === 'during') phases[bucket]!.push(answer.status);
      if (answer.status === 201) {
        const ids = bucket === 'during' ? inFlight : committed;
        if (kind === 0) ids.leadIds.push(answer.body.lead.id);
        if (kind === 1) ids.serviceIds.push(answer.body.service.id);
      } else if (!(answer.status >= 500 && isEnvelope(answer))) {
        // Every SMS opens an inquiry on the one texted lead, so a third of the clients race on that lead: a send that
        // cannot take its turn in time answers 503 with Retry-After and writes nothing.
        unexpected.push(`${['lead', 'service', 'sms'][kind]} ${answer.status} ${answer.malformed ?? JSON.stringify(answer.body).slice(0, 160)}`);
      }
      // While DynamoDB is down every answer is immediate; pace the stream so it does not spin.
      if (phase === 'during') await sleep(20);
    },
  );
  await fault;
  // A fresh create after the restart must succeed again.
  const after = await client.post('/v1/leads', lead('After the fault', 8_999_999));
  answers.push(after);
  if (after.status === 201) committed.leadIds.push(after.body.lead.id);
  else unexpected.push(`after restart: ${after.status}`);
  const smsSent = answers.filter((a) => a.status === 201 && a.body?.message === 'SMS sent').length;

  const violations = await checkInvariants(client, organizationId, committed);
  const lostInFlight = await checkInvariants(client, organizationId, inFlight).then((lines) => lines.filter((line) => / was answered 201 but /.test(line)));
  return {
    name: `faults (${signal})`,
    requests: answers.length,
    byStatus: tally(answers.map((a) => a.status)),
    phases: Object.fromEntries(Object.entries(phases).map(([name, statuses]) => [name, tally(statuses)])),
    unexpected,
    violations,
    notes: [
      `DynamoDB Local killed (${signal}) after ${killAt} creates, down ${downMs} ms plus its restart`,
      ...Object.entries(phases).map(([name, statuses]) => `${name} the fault: ${JSON.stringify(tally(statuses))}`),
      `${smsSent} SMS sent`,
      `${lostInFlight.length} creates answered 201 at the moment of the kill were not kept by DynamoDB Local${lostInFlight.length ? ` (${lostInFlight.join('; ')})` : ''}`,
    ],
  };
}

/**
 * Load: creates from many concurrent clients across two organizations, product batch updates racing
 * single renames over a small pool of names, and parallel SMS appended to threads.
 */
export async function loadRun(stack: Pick<StressStack, 'url' | 'newOrganization'>, { creates, clients, products, renames, sms }: { creates: number; clients: number; products: number; renames: number; sms: number }): Promise<RunFigures> {
  const organizations = await Promise.all([stack.newOrganization('Load run A'), stack.newOrganization('Load run B')]);
  const orgClients = organizations.map(({ apiKey }) => jsonClient(stack.url, apiKey));
  const answers: Answer[] = [];
  const unexpected: string[] = [];
  const expect = (answer: Answer, allowed: number[], what: string) => {
    answers.push(answer);
    if (!allowed.includes(answer.status) || (answer.status >= 400 && !isEnvelope(answer))) unexpected.push(`${what}: ${answer.status} ${answer.malformed ?? JSON.stringify(answer.body).slice(0, 160)}`);
    return answer;
  };

  // 1. Creates, spread over both organizations.
  const leadIds: string[][] = [[], []];
  await pool(creates, clients, async (i) => {
    const answer = expect(await orgClients[i % 2]!.post('/v1/leads', lead(`Load Lead ${i}`, i)), [201], 'lead create');
    if (answer.status === 201) leadIds[i % 2]!.push(answer.body.lead.id);
  });

  // 2. Renames racing over a pool of names smaller than the products: batches and single updates.
  const client = orgClients[0]!;
  const productIds: number[] = [];
  for (let i = 0; i < products; i++) {
    const answer = expect(await client.post('/v1/products', { name: `Load product ${i}`, tradeCategoryId: 1, pricingType: 'FIXED', price: 100 + i }), [201], 'product create');
    productIds.push(answer.body.product.id);
  }
  const names = Array.from({ length: Math.ceil(products * 1.5) }, (_, i) => `Racing name ${i}`);
  const pick = (i: number, salt: number) => names[(i * 7 + salt * 13) % names.length]!;
  let batchItems = 0;
  await pool(renames, clients, async (i) => {
    const id = productIds[i % productIds.length]!;
    if (i % 2 === 0) {
      expect(await client.put(`/v1/products/${id}`, { name: pick(i, 1) }), [200, 409], 'product rename');
    } else {
      const updates = [0, 1, 2].map((k) => ({ id: productIds[(i + k * 5) % productIds.length], name: pick(i, k + 2) }));
      expect(await client.patch('/v1/products/batch', { updates }), [200], 'product batch');
      batchItems += updates.length;
    }
  });

  // 3. Parallel SMS: new threads, and appends to one thread per lead.
  const smsClient = orgClients[1]!;
  const parties = await smsParties(smsClient, 'load');
  const first = expect(await smsClient.post('/v1/sms', { ...parties, message: 'Opening the thread' }), [201], 'sms');
  const threadList = await smsClient.get(`/v1/inquiries?leadId=${parties.leadId}&source=SMS`);
  const threadId = threadList.body.inquiries[0].sourceId as string;
  let appended = first.status === 201 ? 1 : 0;
  await pool(sms, clients, async (i) => {
    const answer = expect(await smsClient.post('/v1/sms', { ...parties, messageThreadId: threadId, message: `Parallel message ${i}` }), [201], 'sms append');
    if (answer.status === 201) appended++;
  });

  const violations: string[] = [];
  for (const [index, { organizationId }] of organizations.entries()) {
    const orgClient = orgClients[index]!;
    const sent = index === 1 ? new Map([[threadId, appended]]) : undefined;
    const made = index === 0 ? { products } : {};
    violations.push(...(await checkInvariants(orgClient, organizationId, { leadIds: leadIds[index], smsSentPerThread: sent, ...made })).map((v) => `org ${index === 0 ? 'A' : 'B'}: ${v}`));
  }
  // A name that no product holds after the race can be taken again: no claim was left behind.
  const held = new Set((await itemsOfOrganization(organizations[0]!.organizationId)).filter((item) => String(item.sk).startsWith('PRODUCT#')).map((item) => item.name as string));
  const free = names.filter((name) => !held.has(name));
  for (const name of free) {
    const claim = expect(await client.post('/v1/products', { name, tradeCategoryId: 1, pricingType: 'NONE' }), [201], 'claim a released name');
    if (claim.status !== 201) violations.push(`org A: the released name "${name}" cannot be taken (${claim.status})`);
  }
  return {
    name: 'load',
    requests: answers.length,
    byStatus: tally(answers.map((a) => a.status)),
    unexpected,
    violations,
    notes: [
      `${creates} lead creates from ${clients} concurrent clients over 2 organizations`,
      `${renames} racing renames over ${products} products and ${names.length} names (${batchItems} batch items)`,
      `${sms} parallel SMS appended to one thread`,
      `${free.length} released names taken again`,
    ],
  };
}
