import * as v from 'valibot';
import { faqs } from '../faqs/collection';
import { Organization } from '../organization/schema';
import { policies } from '../policies/collection';
import { Product } from '../products/schema';
import { Scenario } from '../services/scenario-schema';
import { Service } from '../services/schema';
import { Transfer } from '../transfers/schema';

/** At most this many of each kind are answered: what a receptionist's prompt can hold, and one Query page each. */
export const CONTEXT_LIMIT = 200;

export const ReceptionistContext = v.object({
  organization: v.pick(Organization, ['name', 'timezone', 'businessHours', 'closedDates', 'isOpenNow', 'closesAt', 'nextOpenAt']),
  /** Active services; a price is shown only where `isDisclosePrice` (otherwise its fields are null). */
  services: v.array(Service),
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
