import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { normalizeName } from '#shared/store/keys';
import { walk, type JsonClient } from './http';

/** Every item of an organization, read after a run to check links the API cannot show broken. */
export async function itemsOfOrganization(organizationId: string): Promise<Record<string, any>[]> {
  const { dynamo } = await import('#shared/dynamo');
  const { config } = await import('#shared/config');
  const items: Record<string, any>[] = [];
  let ExclusiveStartKey: Record<string, any> | undefined;
  do {
    const page = await dynamo.send(new ScanCommand({ TableName: config.tableName, ConsistentRead: true, ExclusiveStartKey }));
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items.filter((item) => String(item.pk).startsWith(`ORG#${organizationId}`));
}

export interface Expected {
  /** Ids the API answered 2xx for: each must exist. */
  leadIds?: string[];
  serviceIds?: number[];
  /** Per SMS thread, how many sends to it were answered 201 (the thread must hold at least that many). */
  smsSentPerThread?: Map<string, number>;
  /** How many products were answered 201. */
  products?: number;
}

/**
 * The properties no failure or race may break, checked through the API and the table:
 * counters equal their rows, every 2xx'd entity exists, and nothing exists without its linked items.
 * Returns one line per violation.
 */
export async function checkInvariants(client: JsonClient, organizationId: string, expected: Expected = {}): Promise<string[]> {
  const violations: string[] = [];
  const leads = await walk(client, '/v1/leads', 'leads');
  const smsInquiries = await walk(client, '/v1/inquiries?source=SMS', 'inquiries');
  const organization = (await client.get('/v1/organization')).body.organization;
  for (const [name, list, counted] of [
    ['leads', leads, organization.counts.leads],
    ['SMS inquiries', smsInquiries, undefined],
  ] as const) {
    const listed = list.rows.length;
    const ids = new Set(list.rows.map((row) => String(row.id)));
    if (ids.size !== listed) violations.push(`${name}: ${listed - ids.size} listed twice`);
    if ([...list.totalCounts].some((total) => total !== listed)) violations.push(`${name}: totalCount ${[...list.totalCounts].join('/')} but ${listed} rows`);
    if (counted !== undefined && counted !== listed) violations.push(`${name}: organization counts ${counted} but ${listed} rows`);
  }

  const leadIds = new Set(leads.rows.map((lead) => lead.id as string));
  for (const id of expected.leadIds ?? []) if (!leadIds.has(id)) violations.push(`lead ${id} was answered 201 but is not listed`);
  // Services have no list route: each one answered 201 is read back by id.
  for (const id of expected.serviceIds ?? []) {
    const { status } = await client.get(`/v1/services/${id}`);
    if (status !== 200) violations.push(`service ${id} was answered 201 but reads ${status}`);
  }

  const items = await itemsOfOrganization(organizationId);
  const bySk = (prefix: string) => items.filter((item) => String(item.sk).startsWith(prefix));
  const entities = (entity: string) => items.filter((item) => item.entity === entity);

  const createdActivity = new Set(entities('ACTIVITY').filter((item) => item.event === 'LEAD_CREATED').map((item) => item.leadId));
  for (const lead of entities('LEAD')) if (!createdActivity.has(lead.id)) violations.push(`lead ${lead.id} has no LEAD_CREATED activity`);
  // Activity ids come from each container's blocks: unique across the organization, whatever the order.
  const activityIds = entities('ACTIVITY').map((item) => item.id);
  if (new Set(activityIds).size !== activityIds.length) violations.push(`${activityIds.length - new Set(activityIds).size} activity ids handed out twice`);

  const scenarios = new Map(entities('SCENARIO').map((item) => [item.id, item]));
  for (const service of entities('SERVICE')) {
    const scenario = scenarios.get(service.scenario?.id);
    if (!scenario || scenario.tradeServiceId !== service.id) violations.push(`service ${service.id} has no scenario of its own (${service.scenario?.id})`);
  }
  if (scenarios.size !== entities('SERVICE').length) violations.push(`${scenarios.size} scenarios for ${entities('SERVICE').length} services`);
  if (organization.counts.services !== entities('SERVICE').length) violations.push(`services: organization counts ${organization.counts.services} but ${entities('SERVICE').length} exist`);

  const threads = new Map(entities('SMS_THREAD').map((item) => [item.threadId, item]));
  const inquiryPartitions = new Set(entities('INQUIRY').map((item) => item.pk));
  const messagesPerThread = new Map<string, number>();
  for (const message of entities('SMS_MESSAGE')) {
    if (!threads.has(message.threadId)) violations.push(`SMS message ${message.id} has no thread ${message.threadId}`);
    if (!inquiryPartitions.has(message.pk)) violations.push(`SMS message ${message.id} has no inquiry`);
    messagesPerThread.set(message.threadId, (messagesPerThread.get(message.threadId) ?? 0) + 1);
  }
  for (const thread of threads.values()) if (!inquiryPartitions.has(`ORG#${organizationId}#INQUIRY#${thread.inquiryId}`)) violations.push(`SMS thread ${thread.threadId} has no inquiry`);
  for (const [threadId, sent] of expected.smsSentPerThread ?? []) {
    const held = messagesPerThread.get(threadId) ?? 0;
    if (held < sent) violations.push(`SMS thread ${threadId} holds ${held} messages but ${sent} sends were answered 201`);
  }
  if (threads.size !== smsInquiries.rows.length) violations.push(`${threads.size} SMS threads but ${smsInquiries.rows.length} SMS inquiries listed`);

  // Product names: one claim per product, for its own current name, and no name held twice.
  const products = bySk('PRODUCT#');
  const claims = bySk('PRODUCTNAME#');
  const heldNames = products.map((product) => normalizeName(product.name));
  if (new Set(heldNames).size !== heldNames.length) violations.push(`duplicate product names: ${heldNames.filter((n, i) => heldNames.indexOf(n) !== i).join(', ')}`);
  const productById = new Map(products.map((product) => [product.id, product]));
  for (const claim of claims) {
    const owner = productById.get(claim.productId);
    if (!owner || `PRODUCTNAME#${normalizeName(owner.name)}` !== claim.sk) violations.push(`name claim ${claim.sk} is held for product ${claim.productId}, which has another name or is gone`);
  }
  if (claims.length !== products.length) violations.push(`${claims.length} product name claims for ${products.length} products`);
  if (expected.products !== undefined && products.length !== expected.products) violations.push(`${products.length} products stored, ${expected.products} created`);

  const counters = new Map(bySk('COUNT#').map((item) => [String(item.sk).slice('COUNT#'.length), Number(item.count)]));
  for (const [name, entity] of [['LEADS', 'LEAD'], ['SERVICES', 'SERVICE']] as const) {
    const stored = counters.get(name) ?? 0;
    if (stored !== entities(entity).length) violations.push(`counter ${name} is ${stored} but ${entities(entity).length} ${entity} items exist`);
  }
  return violations;
}
