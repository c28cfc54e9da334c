import * as v from 'valibot';
import { TradeCategoryIdSchema } from './trade-categories';
import { Money, MONEY_RULE, NonEmptyString, OptionalText } from '#shared/schema';
import { defineEntity, RECORD_TIMES } from '#shared/store/entity';
import { numberedKey } from '#shared/store/keys';
import { ScenarioSummary } from './scenario-schema';

export const DURATION_UNITS = ['MINUTES', 'HOURS', 'DAYS'] as const;
export const PRICING_MODES = ['NONE', 'FIXED', 'HOURLY', 'RANGE', 'CALL_OUT'] as const;
export const TEAM_ASSIGNMENT_METHODS = ['PRIORITY_ORDER', 'ROUND_ROBIN'] as const;

export const Integer = v.pipe(v.number(), v.integer());
const MAX_PRICE = 10_000_000;

export const Price = (name: string) => Money(name, MAX_PRICE);
/** The top of a range, with the rule it keeps against the bottom (SERVICE_RULES), which no schema keyword states. */
const MaxPrice = v.pipe(Price('maxPrice'), v.description(`${MONEY_RULE} Not less than \`minPrice\` when both are set.`));

const Bool = (name: string) => v.boolean(`${name} must be a boolean`);
export const oneOf = <T extends readonly string[]>(name: string, values: T) => v.picklist(values, `${name} must be one of ${values.join(', ')}`);

/**
 * At most this many members take a service: each one a write names anew is checked, in the write's own transaction,
 * to still be a member (store.ts), and a transaction holds 100 items, up to 4 of them the service's own writes.
 */
export const MAX_SERVICE_MEMBERS = 90;

/** The members who take the service, each a member of the organization (checked in rules.ts); none: every member. */
const MemberIds = v.pipe(
  v.array(
    v.pipe(v.number('each of memberIds must be a member id'), v.integer('each of memberIds must be a member id'), v.minValue(1, 'each of memberIds must be a member id'), v.maxValue(2_147_483_647, 'each of memberIds must be a member id')),
    'memberIds must be an array of member ids',
  ),
  v.maxLength(MAX_SERVICE_MEMBERS, `memberIds may name at most ${MAX_SERVICE_MEMBERS} members`),
  v.check((ids) => new Set(ids).size === ids.length, 'memberIds must not repeat a member'),
);

const FollowUpQuestions = v.pipe(
  v.array(NonEmptyString('each follow-up question', 500), 'followUpQuestions must be an array of strings'),
  v.maxLength(20, 'followUpQuestions may have at most 20 questions'),
);

const Duration = v.pipe(v.number('duration must be an integer'), v.integer('duration must be an integer'), v.minValue(1, 'duration must be at least 1'), v.maxValue(10_000, 'duration must be at most 10000'));

const Amount = v.nullable(v.number());

/**
 * A service's fields, in the order the create and change bodies take them. A price left out of a create is null, and
 * a change may clear it; the rules across fields (the price each pricingType needs) are SERVICE_RULES, in schema.ts.
 * Defaults are docs/decisions/services-and-products.md#service-create-required-fields-and-defaults.
 */
const attributes = {
  id: { type: Integer },
  name: { type: v.string(), rule: NonEmptyString('name', 200), required: true },
  description: { type: v.string(), rule: OptionalText('description', 2000), default: '', defaultInBody: true },
  followUpQuestions: { type: v.array(v.string()), rule: FollowUpQuestions, defaultInBody: true, answeredAfter: 'durationUnit' },
  duration: { type: Integer, rule: Duration, required: true },
  durationUnit: { type: v.picklist(DURATION_UNITS), rule: oneOf('durationUnit', DURATION_UNITS), required: true },
  tradeCategoryId: { type: Integer, rule: TradeCategoryIdSchema, required: true },
  pricingType: { type: v.picklist(PRICING_MODES), rule: oneOf('pricingType', PRICING_MODES), default: 'NONE' },
  /** FIXED: the price; otherwise null unless kept from before. */
  price: { type: Amount, rule: Price('price'), clearable: true },
  hourlyRate: { type: Amount, rule: Price('hourlyRate'), clearable: true },
  callOutFee: { type: Amount, rule: Price('callOutFee'), clearable: true },
  minPrice: { type: Amount, rule: Price('minPrice'), clearable: true },
  maxPrice: { type: Amount, rule: MaxPrice, clearable: true },
  plusGST: { type: v.boolean(), rule: Bool('plusGST') },
  plusMaterials: { type: v.boolean(), rule: Bool('plusMaterials') },
  isCustomPriceResponseActive: { type: v.boolean(), rule: Bool('isCustomPriceResponseActive') },
  customPriceResponse: { type: v.nullable(v.string()), rule: NonEmptyString('customPriceResponse', 1000), nullable: true },
  isDisclosePrice: { type: v.boolean(), rule: Bool('isDisclosePrice') },
  isActive: { type: v.boolean(), rule: Bool('isActive'), default: true },
  teamAssignmentMethod: { type: v.picklist(TEAM_ASSIGNMENT_METHODS), rule: oneOf('teamAssignmentMethod', TEAM_ASSIGNMENT_METHODS), default: 'PRIORITY_ORDER', defaultInBody: true },
  /** The members availability offers for the service; empty (as a service stored before it had them): every member. */
  memberIds: { type: v.optional(v.array(Integer), []), rule: MemberIds, defaultInBody: true },
  scenario: { type: ScenarioSummary },
  ...RECORD_TIMES,
} as const;

/** A service: its attributes and its item (`SERVICE#<id>`), which carries its scenario's summary. */
export const serviceEntity = defineEntity({
  entity: 'SERVICE',
  attributes,
  key: numberedKey('SERVICE'),
  changes: 'SERVICES',
});
