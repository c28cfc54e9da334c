import * as v from 'valibot';
import { faqs } from '../faqs/collection';
import { Organization } from '../organization/schema';
import { policies } from '../policies/collection';
import { Product } from '../products/schema';
import { Scenario, ScenarioSummary } from '../services/scenario-schema';
import { Service } from '../services/schema';
import { Transfer } from '../transfers/schema';

/** At most this many of each kind are answered: what a receptionist's prompt can hold, and one Query page each. */
export const CONTEXT_LIMIT = 200;

/** The longest If-None-Match taken, as the document states: room for dozens of ETags, and no megabyte to split on commas. */
export const IF_NONE_MATCH_MAX = 2000;
export const IfNoneMatch = v.optional(v.pipe(v.string(), v.maxLength(IF_NONE_MATCH_MAX, `If-None-Match must be at most ${IF_NONE_MATCH_MAX} characters`)));

/** A service as the receptionist is told it: its scenario only while active (otherwise null: offered, not scripted). */
export const ReceptionistService = v.object({ ...Service.entries, scenario: v.nullable(ScenarioSummary) });

export const ReceptionistContext = v.object({
  organization: v.pick(Organization, ['name', 'timezone', 'businessHours', 'closedDates', 'isOpenNow', 'closesAt', 'nextOpenAt']),
  /**
   * Active services; a price is shown only where `isDisclosePrice` (otherwise its fields are null), and the scenario
   * only while it is active (otherwise null: the service is offered, its script is not to be followed).
   */
  services: v.array(ReceptionistService),
  /** Active products; a price only where `isDisclosePrice`. */
  products: v.array(Product),
  faqs: v.array(faqs.schemas.Record),
  policies: v.array(policies.schemas.Record),
  /** Active scenarios of active services, with their questions and outcomes. */
  scenarios: v.array(Scenario),
  /** Enabled transfer rules, each with its conditions. */
  transfers: v.array(Transfer),
});
export type ReceptionistContext = v.InferOutput<typeof ReceptionistContext>;
