import { paginateScan } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { resources, routes } from '../functions/resources';
import { WRITER_ATTRIBUTE } from '#shared/audit/writer';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { useTestApi } from './support/api';
import { routeVisitor, TOUR_STOPS, TOURED_ROUTES, withinBudget, type RouteVisit } from './support/route-tour';
import type { TourStop } from '#shared/route-tour';

const api = useTestApi();

/**
 * Write units of the tour's lead create (with a company, an email and a phone), its status change and a web form
 * inquiry, as DynamoDB Local counts them (by the distinct sizes of a transaction's items: docs/performance.md,
 * section 1; docs/capacity.md has DynamoDB's own per item). A lead's create writes its copy in the index of each
 * status's leads by when they took it (gsi4): 2 of its 13; a status change moves that copy: 4 of its 18. An inquiry's
 * two read-state index copies and two read-state counters took it from 12 to 52 here (6 WRU more by DynamoDB's rules).
 */
const WRITE_UNITS = { leadCreate: 13, leadStatusChange: 18, inquiry: 52 };

/**
 * The round trips each route needs are the physical limit of this service: a single read is 1 DynamoDB call;
 * a list page 1 at most 2, sent together; a create 1 transaction and nothing else; a batch of N, 1 read and
 * N writes. A route that needs more says why (docs/performance.md), and may not need more than it does now.
 */
describe('DynamoDB round trips per request', () => {
  let visits: RouteVisit[] = [];
  let tourOrganizationId = '';
  /** The tour's own API key, issued by code before any request: no writer made it. */
  let seedKey = '';
  const visit = (key: string) => visits.find((v) => `${v.route.method} ${v.route.path}` === key)!;

  // The tour, a test per stop: each has its own time, and a failure names its route. A stop finds what earlier ones made.
  describe('the route tour', () => {
    let visitStop: ((stop: TourStop) => Promise<RouteVisit>) | undefined;
    beforeAll(async () => {
      const { client, organizationId, keyId } = await api.organization();
      tourOrganizationId = organizationId;
      seedKey = `KEY#${keyId}`;
      visitStop = routeVisitor({ ...client, queuesIdle: api.queuesIdle });
    });
    TOUR_STOPS.forEach((stop, i) => {
      it(`${i + 1}. ${stop.route}`, async () => {
        visits.push(await visitStop!(stop));
      });
    });
  });

  it('visits every route that touches the table', () => {
    expect(visits).toHaveLength(TOUR_STOPS.length);
    const touching = routes.filter((route) => route.dynamodb.length).map((route) => `${route.method} ${route.path}`);
    expect(touching.filter((key) => !TOURED_ROUTES.includes(key))).toEqual([]);
  });

  it('keeps each class within its budget, unless the route names why it cannot', () => {
    const over = visits.filter((v) => !withinBudget(v) && !v.exception).map((v) => `${v.route.method} ${v.route.path}: ${v.calls.map((c) => c.command).join(', ')}`);
    expect(over).toEqual([]);
    // An exception that no longer needs its extra calls is a stale excuse: it goes.
    expect(visits.filter((v) => v.exception && withinBudget(v)).map((v) => `${v.route.method} ${v.route.path}`)).toEqual([]);
  });

  it('reads a single item with one call and a list page 1 with two calls in flight together', () => {
    expect(visit('GET /v1/leads/{leadId}').calls.map((c) => c.command)).toEqual(['GetItemCommand']);
    const list = visit('GET /v1/leads').calls;
    expect(list.map((c) => c.command).sort()).toEqual(['GetItemCommand', 'QueryCommand']);
    expect(list[1]!.sentAt).toBeLessThan(list[0]!.answeredAt);
  });

  it('answers a lead or company search page within two DynamoDB round trips', () => {
    const searches = visits.filter((v) => /^\/v1\/(leads|companies)$/.test(v.route.path) && v.route.method === 'GET');
    // The plain lists and four lead searches (email, phone, national phone, name) and one company search.
    expect(searches).toHaveLength(7);
    // A national phone number reads the organization's country first: one call more.
    for (const search of searches) expect(search.calls.length).toBeLessThanOrEqual(search.path.includes('phone=0') ? 3 : 2);
  });

  it('creates with exactly one transaction where ids need no sequence', () => {
    for (const key of ['POST /v1/companies', 'POST /v1/webhooks', 'POST /v1/inbound-endpoints']) {
      expect(visit(key).calls.map((c) => c.command), key).toEqual(['TransactWriteItemsCommand']);
    }
  });

  it('holds each exception to the calls it needs today: one sequence call before the transaction', () => {
    for (const key of ['POST /v1/leads', 'POST /v1/policies', 'POST /v1/faqs', 'POST /v1/products', 'POST /v1/transfers']) {
      expect(visit(key).calls.map((c) => c.command), key).toEqual(['UpdateItemCommand', 'TransactWriteItemsCommand']);
    }
  });

  it('reserves activity ids once per block: only the first activity of the organization in the container sends the UpdateItem', () => {
    // POST /v1/leads took the container's block; the note, the status change, the booking and the inquiry after it take ids from it.
    expect(visit('POST /v1/leads/{leadId}/activities').calls.map((c) => c.command)).toEqual(['TransactWriteItemsCommand']);
    for (const key of ['PATCH /v1/leads/{leadId}', 'POST /v1/appointments', 'POST /v1/inquiries', 'POST /v1/inbound/{inboundEndpointId}']) {
      expect(visit(key).calls.map((c) => c.command), key).not.toContain('UpdateItemCommand');
    }
  });

  it('applies a batch of N as one read and N conditional writes', () => {
    const batch = visit('PATCH /v1/products/batch');
    expect(withinBudget(batch, 3)).toBe(true);
    expect(batch.calls).toHaveLength(4);
  });

  /**
   * What the writes of a lead and an inquiry cost, as DynamoDB Local reports it (docs/performance.md, section 1, says
   * how it counts a transaction): a ceiling at today's figure, so an index copy or a bigger item is noticed.
   */
  it('writes a lead, a status change and an inquiry within their write units', () => {
    const writeUnits = (key: string) => visit(key).calls.reduce((total, call) => total + call.writeUnits, 0);
    expect(writeUnits('POST /v1/leads')).toBeLessThanOrEqual(WRITE_UNITS.leadCreate);
    expect(writeUnits('PATCH /v1/leads/{leadId}')).toBeLessThanOrEqual(WRITE_UNITS.leadStatusChange);
    expect(writeUnits('POST /v1/inquiries')).toBeLessThanOrEqual(WRITE_UNITS.inquiry);
  });

  it('stamps the writer on records and only on records: every audited item carries it, no counter, claim or name item does', async () => {
    const items = [];
    for await (const page of paginateScan({ client: dynamo }, { TableName: config.tableName })) items.push(...(page.Items ?? []));
    const ofTour = items.filter((item) => String(item.pk).startsWith(`ORG#${tourOrganizationId}`));
    const auditedEntities = new Set(resources.flatMap((resource) => resource.audited ?? []).map((record) => record.entity));
    const audited = ofTour.filter((item) => auditedEntities.has(String(item.entity)) && item.sk !== seedKey);
    // What the tour leaves standing (functions/audit-log/audit-log.test.ts follows every kind's create, update and delete).
    expect(new Set(audited.map((item) => item.entity)).size).toBeGreaterThanOrEqual(5);
    expect(audited.filter((item) => !item[WRITER_ATTRIBUTE]).map((item) => `${item.entity} ${item.sk}`)).toEqual([]);
    const bookkeeping = ofTour.filter((item) => /^(COUNT|SEQ|PRODUCTNAME|SERVICENAME|MEMBEREMAIL|TRANSFERLABEL)#/.test(String(item.sk)) || /#(LEADNAMES|LEADCONTACT#.*)$/.test(String(item.pk)));
    expect(bookkeeping.length).toBeGreaterThan(10);
    expect(bookkeeping.filter((item) => item[WRITER_ATTRIBUTE]).map((item) => String(item.sk))).toEqual([]);
  });

  it('reports the capacity DynamoDB consumed for each call', () => {
    const read = visit('GET /v1/leads/{leadId}').calls[0]!;
    expect(read.readUnits).toBeGreaterThan(0);
    const create = visit('POST /v1/companies').calls[0]!;
    expect(create.writeUnits).toBeGreaterThan(0);
  });
});
