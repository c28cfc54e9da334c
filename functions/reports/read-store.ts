import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { queryAll } from '#shared/store/query-page';
import { DEFAULT_CURRENCY } from '../organization/schema';
import { organizationKeys } from '../organization/entity';
import { dayOfReportKey, reportKeys } from './entity';
import type { Totals } from './figures';
import { isDayAttribute } from './catalog';
import { rangeBeforeTimezone, resolveRange, type AskedRange, type DateRange } from './range';

/** What every report is read from: the organization's time zone and currency, the range, and each day's counters in it. */
export interface ReportDays {
  timezone: string;
  currency: string;
  range: DateRange;
  /** The days of the range that have counters, by date; a day with none is all zeros. */
  days: ReadonlyMap<string, Totals>;
  asOf: string;
}

/** The organization's time zone and currency: the one item the read needs besides the days. */
async function readSettings(organizationId: string): Promise<{ timezone: string; currency: string }> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: config.tableName, Key: organizationKeys.organization(organizationId), ProjectionExpression: '#timezone, currency', ExpressionAttributeNames: { '#timezone': 'timezone' } }),
  );
  return { timezone: typeof Item?.timezone === 'string' ? Item.timezone : 'UTC', currency: typeof Item?.currency === 'string' ? Item.currency : DEFAULT_CURRENCY };
}

/** The counters of the day items from `from` to `to`, by date: one Query (366 small items stay under its 1 MB), more pages past it (days of many distinct speed-to-lead waits). */
async function readDays(organizationId: string, { from, to }: DateRange): Promise<Map<string, Totals>> {
  const items = await queryAll(reportKeys.reportDays(organizationId, from, to));
  return new Map(items.map((item) => [dayOfReportKey(String(item.sk)), Object.fromEntries(Object.entries(item).filter((entry): entry is [string, number] => isDayAttribute(entry[0]) && typeof entry[1] === 'number'))]));
}

/**
 * The organization's day counters over the range asked. The Query goes with the organization's GetItem when the
 * dates it needs are known without the time zone (./range.ts), after it when `from` alone was given; the days of a
 * wider Query outside the range are left out.
 */
export async function readReportDays(organizationId: string, asked: AskedRange): Promise<ReportDays> {
  const nowMs = Date.now();
  const early = rangeBeforeTimezone(asked, nowMs);
  const [settings, earlyDays] = await Promise.all([readSettings(organizationId), early && readDays(organizationId, early)]);
  const range = resolveRange(asked, settings.timezone, nowMs);
  const read = earlyDays ?? (await readDays(organizationId, range));
  const days = new Map([...read].filter(([date]) => date >= range.from && date <= range.to));
  return { ...settings, range, days, asOf: new Date(nowMs).toISOString() };
}
