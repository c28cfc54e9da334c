import { crudTests } from '#shared/crud/tests';
import { defineResource } from '#shared/resource';
import { faqs as collection, faqKeys, faqKeySamples } from './collection';
import { changes } from './changes';

export const faqs = defineResource({
  name: 'faqs',
  tags: { FAQs: 'Questions and answers the AI receptionist answers callers from.' },
  routes: collection.routes,
  components: collection.components,
  ...changes,
  keys: [{ builders: faqKeys, samples: faqKeySamples }],
  tests: crudTests(collection),
});
