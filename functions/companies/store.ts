import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { COMPANY_CHANGES, companyAudit, companyCounterNames, companyKeys, fromCompanyItem, toCompanyItem } from './entity';
import { leadCounterNames, leadKeys } from '../leads/entity';
import { ApiError, NotFoundError, ValidationError } from '#shared/errors';
import { newId, now, requestTime } from '#shared/ids';
import type { Page, PageRequest } from '#shared/pagination';
import type { Company, CompanyChanges, CreateCompanyBody, ListCompaniesQuery } from './schema';
import { pageOfMatches } from '#shared/store/match-page';
import { searchKey } from '#shared/store/keys';
import { counterUpdate } from '#shared/store/counters';
import { countedPage, queryAll } from '#shared/store/query-page';
import { changeLogKey, countedCollectionPage, listOrChanges } from '#shared/store/change-log';
import { deleteItems } from '#shared/store/batch-write';
import { keys, type Key } from '#shared/store/keys';
import { deleteItem, insertIfAbsent, transact } from '#shared/store/transact';
import { updateExistingItem } from '#shared/store/update-fields';
import { auditDeletion } from '#shared/audit/deletion';

const companyNotFound = () => new NotFoundError('Company not found');

/** The company, its notes counter (at 0: its presence is the company's) and the companies counter, together. */
export async function createCompany(organizationId: string, body: CreateCompanyBody, createdAt = requestTime()): Promise<Company> {
  const at = createdAt.toISOString();
  const company: Company = { id: newId('company', createdAt), ...body, createdAt: at, updatedAt: at };
  await transact([
    insertIfAbsent(toCompanyItem(organizationId, company)),
    counterUpdate(organizationId, companyCounterNames.companyNotes(company.id), 0),
    counterUpdate(organizationId, companyCounterNames.companies, 1),
  ]);
  return company;
}

export async function getCompany(organizationId: string, companyId: string): Promise<Company> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: leadKeys.company(organizationId, companyId), ConsistentRead: true }));
  if (!Item) throw companyNotFound();
  return fromCompanyItem(Item);
}

/** The list, its changes with `updatedSince`, or with `q` the companies whose name starts with it (ignoring case and accents). */
export async function listCompaniesPage(organizationId: string, request: ListCompaniesQuery): Promise<Page<Company>> {
  const { q, page, limit, cursor } = request;
  if (q !== undefined && request.updatedSince === undefined) return companiesByNamePage(organizationId, q, { page, limit, cursor });
  const companies = { organizationId, collection: companyKeys.companies(organizationId), counter: companyCounterNames.companies, changes: COMPANY_CHANGES, filters: { q } };
  return countedCollectionPage(request, companies, fromCompanyItem);
}

/**
 * The companies whose name starts with `prefix`: one Query of the name index's key range (gsi1), each company once,
 * counted and paged here, newest first like the list.
 */
async function companiesByNamePage(organizationId: string, prefix: string, request: PageRequest): Promise<Page<Company>> {
  if (!searchKey(prefix)) throw new ValidationError([{ path: 'q', message: 'q must have a letter or digit' }]);
  const { gsi1pk } = companyKeys.companyNameIndex(organizationId, { id: '', name: prefix });
  const source = { index: 'gsi1' as const, pk: gsi1pk, skPrefix: searchKey(prefix) };
  const companies = (await queryAll(source)).map(fromCompanyItem);
  const { items, totalCount, nextCursor } = await pageOfMatches(companies, (company) => company.id, source, request);
  return { items, totalCount, page: request.page, limit: request.limit, nextCursor };
}

/** One conditional update: a company has no rule across fields, so nothing needs reading first; a new name moves its name index key with it. */
export async function updateCompany(organizationId: string, companyId: string, changes: CompanyChanges): Promise<Company> {
  const nameIndex = changes.name === undefined ? {} : companyKeys.companyNameIndex(organizationId, { id: companyId, name: changes.name });
  return fromCompanyItem(await updateExistingItem(leadKeys.company(organizationId, companyId), { ...changes, ...nameIndex, updatedAt: now() }, companyNotFound));
}

const companyHasLeads = () =>
  new ApiError(409, 'Leads still belong to the company: move them to another company or set their companyId to null first', 'COMPANY_HAS_LEADS');

/**
 * The company goes with its notes counter only while no lead points at it: the company's lead counter (moved in the
 * transaction of every lead write that links or unlinks the company, which also checks the company exists) must be
 * absent or 0, and goes too. A lead linking the company at the same moment touches both items, so one of the two
 * transactions fails: the lead's (400, unknown company) or this one (409). The notes are removed after it.
 */
export async function deleteCompany(organizationId: string, companyId: string): Promise<void> {
  // A retried delete whose first attempt stopped after the transaction answers 404, and still finishes removing the notes.
  const notFound = await transact([
    deleteItem(leadKeys.company(organizationId, companyId), companyNotFound),
    deleteItem(keys.counter(organizationId, companyCounterNames.companyNotes(companyId))),
    {
      item: {
        Delete: {
          TableName: config.tableName,
          Key: keys.counter(organizationId, leadCounterNames.leads({ companyId })),
          ConditionExpression: 'attribute_not_exists(#count) OR #count = :zero',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':zero': 0 },
        },
      },
      onConditionFailed: companyHasLeads,
    },
    counterUpdate(organizationId, companyCounterNames.companies, -1),
    ...auditDeletion(organizationId, companyAudit, companyId),
  ]).then(
    () => undefined,
    (error: unknown) => {
      if (error instanceof NotFoundError) return error;
      throw error;
    },
  );
  // No note can be added now (its counter is gone), so these are all there will be.
  await deleteItems((await queryAll({ ...companyKeys.companyNotes(organizationId, companyId), consistentRead: true }, ['pk', 'sk'])) as unknown as Key[]);
  if (notFound) throw notFound;
}
