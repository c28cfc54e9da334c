import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { clock } from '#shared/clock';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { NotFoundError } from '#shared/errors';
import { derivedId } from '#shared/ids';
import { writeAlone } from '#shared/store/transact';
import { setFields } from '#shared/store/update-fields';
import { TTL_ATTRIBUTE } from '#shared/table';
import { listLeadsPage } from '../../leads/search';
import { automationKeys } from '../entity';
import { enrolLeadOfJob, enrollableDefinition } from '../runs/start';
import type { EnrolmentJob } from './queue';
import { Enrolment } from './schema';

/** How long an enrolment's record is kept after it started, to be read back. */
const KEPT_DAYS = 30;
/** Leads read a page at a time, the progress written after each. */
const PAGE = 100;

export const iso = (ms: number) => new Date(ms).toISOString();

export const toEnrolmentItem = (organizationId: string, enrolment: Enrolment) => ({
  ...automationKeys.automationEnrolment(organizationId, enrolment.id),
  entity: 'AUTOMATION_ENROLMENT',
  ...enrolment,
  [TTL_ATTRIBUTE]: Math.ceil(Date.parse(enrolment.createdAt) / 1000) + KEPT_DAYS * 86_400,
});

/** The enrolment as its record stands, if there is one. */
async function readEnrolment(organizationId: string, enrolmentId: string): Promise<Enrolment | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: automationKeys.automationEnrolment(organizationId, enrolmentId), ConsistentRead: true }));
  return Item && v.parse(Enrolment, Item);
}

/** The enrolment, as its record stands; 404 for another automation's or an unknown one. */
export async function getEnrolment(organizationId: string, automationId: string, enrolmentId: string): Promise<Enrolment> {
  const enrolment = await readEnrolment(organizationId, enrolmentId);
  if (enrolment?.automationId !== automationId) throw new NotFoundError('Enrolment not found');
  return enrolment;
}

const record = (organizationId: string, enrolmentId: string, changes: Partial<Enrolment>) =>
  writeAlone(setFields(automationKeys.automationEnrolment(organizationId, enrolmentId), { ...changes, updatedAt: iso(clock.now()) }, { onConditionFailed: () => new NotFoundError('Enrolment not found') }));

/** The enrolment ended: its record says how. */
export const finishEnrolment = (organizationId: string, enrolmentId: string, ending: Pick<Enrolment, 'status'> & Partial<Enrolment>) =>
  record(organizationId, enrolmentId, { ...ending, finishedAt: iso(clock.now()) });

/**
 * The worker's part: the status's leads a page at a time, each enrolled by a run id made from the enrolment and the
 * lead, the progress recorded after each page. A message handed again (the worker stopped midway) goes through the
 * leads again and meets the runs it put, starting none twice. An enrolment that ended is left as it is; one that
 * throws is marked FAILED, then throws, so the failure is counted and nothing runs it again.
 */
export async function runEnrolment({ organizationId, enrolmentId }: EnrolmentJob): Promise<void> {
  const enrolment = await readEnrolment(organizationId, enrolmentId);
  if (!enrolment || enrolment.status === 'SUCCEEDED' || enrolment.status === 'FAILED') return;
  try {
    const atMs = Date.parse(enrolment.createdAt);
    let [done, enrolled, cursor] = [0, 0, undefined as string | undefined];
    do {
      // Read again before each page (one GetItem): an automation switched off or deleted midway takes no more leads.
      const definition = await enrollableDefinition(organizationId, enrolment.automationId);
      const page = await listLeadsPage(organizationId, { status: enrolment.leadStatus, page: 1, limit: PAGE, cursor });
      for (const lead of page.items) {
        if (await enrolLeadOfJob(organizationId, definition, lead.id, derivedId('run', atMs, `${enrolmentId}#${lead.id}`))) enrolled++;
      }
      done += page.items.length;
      cursor = page.nextCursor ?? undefined;
      // The total is the status's count as the first page read it, or what was gone through if more came meanwhile.
      await record(organizationId, enrolmentId, { status: 'RUNNING', progress: { done, total: Math.max(done, enrolment.progress.total ?? page.totalCount) }, enrolled });
      enrolment.progress.total ??= page.totalCount;
    } while (cursor);
    await finishEnrolment(organizationId, enrolmentId, { status: 'SUCCEEDED', progress: { done, total: done }, enrolled });
  } catch (error) {
    await finishEnrolment(organizationId, enrolmentId, { status: 'FAILED', failure: failureOf(error) });
    throw error;
  }
}

/** Why an enrolment failed, in the owner's words: the automation changed under it, or the worker stopped on an error. */
function failureOf(error: unknown): string {
  if (error instanceof NotFoundError) return 'The automation was deleted.';
  if (error instanceof Error && 'code' in error && error.code === 'AUTOMATION_DISABLED') return 'The automation was switched off.';
  return 'The enrolment stopped on an error. The runs it started stay: start another for the rest.';
}
