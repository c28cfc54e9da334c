import * as v from 'valibot';
import { Email, NonEmptyString } from '#shared/schema';
import { defineEntity, RECORD_TIMES } from '#shared/store/entity';
import { organizationPartition as org, searchKey } from '#shared/store/keys';
import { leadKeys } from '../leads/entity';
import { TypedPhone } from '../leads/schema';

const Website = v.pipe(
  v.string('website must be a string'),
  v.trim(),
  v.maxLength(2000, 'website must be at most 2000 characters'),
  v.url('website must be a URL, e.g. https://example.com.au'),
  v.check((url) => /^https?:\/\//i.test(url), 'website must be an http or https URL'),
);

const Text = v.nullable(v.string());

/** A company's fields: the contact details are null until given, and a create states so. */
const attributes = {
  id: { type: v.string() },
  name: { type: v.string(), rule: NonEmptyString('name', 200), required: true },
  website: { type: Text, rule: Website, nullable: true, defaultInBody: true },
  email: { type: Text, rule: Email('email'), nullable: true, defaultInBody: true },
  phone: { type: Text, rule: TypedPhone, nullable: true, defaultInBody: true },
  address: { type: Text, rule: NonEmptyString('address', 500), nullable: true, defaultInBody: true },
  ...RECORD_TIMES,
} as const;

/**
 * A customer business of the organization. Its item's key is `leadKeys.company` (a lead's write checks its companyId
 * against it); gsi1 holds the organization's companies by name (read by `searchKey`), so a name prefix is one key
 * range of the index.
 */
export const companyEntity = defineEntity({
  entity: 'COMPANY',
  attributes,
  key: leadKeys.company,
  indexes: {
    gsi1: { fields: ['name'], keys: (o, company) => ({ pk: `${org(o)}#COMPANIES#NAME`, sk: `${searchKey(company.name)}#${company.id}` }) },
  },
  changes: 'COMPANIES',
});
