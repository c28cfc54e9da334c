import { defineResource } from '../../shared/resource';
import { faqKeys, faqKeySamples, faqs as collection } from './collection';
import { changes } from './changes';

export const faqs = defineResource({
  name: 'faqs',
  tags: { FAQs: 'Questions and answers the AI receptionist answers callers from.' },
  routes: collection.routes,
  components: {
    Faq: { schema: collection.schemas.Record, example: { id: 1, question: 'Are you licensed?', answer: 'Yes: NSW plumbing licence 123456C and electrical licence 654321C.', isActive: true, updatedAt: '2026-10-02T23:00:00.000Z' } },
  },
  ...changes,
  keys: [{ builders: faqKeys, samples: faqKeySamples }],
});
