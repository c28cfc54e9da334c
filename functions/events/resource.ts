import { defineResource } from '#shared/resource';
import { event } from './examples';
import { eventRoutes } from './routes';
import { Event } from './schema';
import { eventKeys, eventKeySamples } from './entity';

export const events = defineResource({
  name: 'events',
  tags: { Events: 'What changed in the organization, newest first: the events webhook subscriptions deliver.' },
  routes: eventRoutes,
  components: { Event: { schema: Event, example: event } },
  keys: [{ builders: eventKeys, samples: eventKeySamples }],
});
