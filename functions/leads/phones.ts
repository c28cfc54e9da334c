import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '#shared/dynamo';
import { config } from '#shared/config';
import { ValidationError } from '#shared/errors';
import { countryCodeOf, looksLikePhone, toE164, type CountryCode } from '#shared/phone';
import { DEFAULT_COUNTRY } from '#shared/countries';
import { leadKeys } from './entity';

// Phones as people type them, read with the organization's country: every write that takes a phone (leads, companies,
// inquiries, transfers) and every lookup by phone reads it here, so one number is one text wherever it is stored.

/** The country the organization's national phone numbers are read in: its own, else Australia (one GetItem of one attribute). */
export async function organizationCountry(organizationId: string): Promise<CountryCode> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: config.tableName, Key: leadKeys.organizationRecord(organizationId), ProjectionExpression: '#country', ExpressionAttributeNames: { '#country': 'country' } }),
  );
  return countryCodeOf(String(Item?.country ?? '')) ?? countryCodeOf(DEFAULT_COUNTRY)!;
}

/**
 * A typed phone number as E.164: as it is with its country code, else read with the organization's country (read only
 * then); undefined when it is no valid number of either.
 */
export async function readPhone(organizationId: string, text: string): Promise<string | undefined> {
  return (await toE164(text, undefined)) ?? toE164(text, await organizationCountry(organizationId));
}

/** A typed phone number as E.164, as readPhone reads it; text that is no valid number answers 400 naming `path`. */
export async function e164Of(organizationId: string, text: string, path: string): Promise<string> {
  const phone = await toE164(text, undefined);
  if (phone) return phone;
  const country = await organizationCountry(organizationId);
  const national = await toE164(text, country);
  if (!national) throw new ValidationError([{ path, message: `${path} must be a valid phone number: with its country code (+61412345678), or in the national form of the organization's country (${country})` }]);
  return national;
}

/** What a write took with its phone as typed, the phone now E.164 (`path` names it when it is no valid number). */
export async function withPhoneRead<T extends { phone?: string | null }>(organizationId: string, body: T, path = 'phone'): Promise<T> {
  return typeof body.phone === 'string' ? { ...body, phone: await e164Of(organizationId, body.phone, path) } : body;
}

/**
 * The organization's country when `text` needs it: a phone without its country code. A number written with it (what
 * voice platforms and most integrations send), and text that is no phone at all (a department's name), cost no read.
 */
export async function countryToRead(organizationId: string, text: string | undefined): Promise<CountryCode | undefined> {
  return text === undefined || !looksLikePhone(text) || (await toE164(text, undefined)) ? undefined : organizationCountry(organizationId);
}
