import { crudResource } from '#shared/crud/resource';
import { faqs as collection, faqKeys, faqKeySamples } from './collection';

export const faqs = crudResource(collection, {
  name: 'faqs',
  tags: { FAQs: 'Questions and answers the AI receptionist answers callers from.' },
  // A member's session reads them; changing them is the pipeline's settings (shared/member-roles.ts).
  sessionRoles: { write: 'MANAGER' },
  keys: [{ builders: faqKeys, samples: faqKeySamples }],
});
