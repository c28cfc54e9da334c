import { defineResource } from '../../shared/resource';
import { policies as collection, policyKeys, policyKeySamples } from './collection';
import { changes } from './changes';

export const policies = defineResource({
  name: 'policies',
  tags: { Policies: 'Business policies the AI receptionist can quote: cancellations, warranties, payment terms.' },
  routes: collection.routes,
  components: {
    Policy: {
      schema: collection.schemas.Record,
      example: { id: 1, title: 'Call-out fee', content: 'A $99 call-out fee applies to every visit and covers the first 30 minutes on site.', isActive: true, updatedAt: '2026-09-03T23:00:00.000Z' },
    },
  },
  ...changes,
  keys: [{ builders: policyKeys, samples: policyKeySamples }],
});
