import { defineResource, namedComponents } from '#shared/resource';
import * as examples from './examples';
import { eventRoutes } from './routes';
import { Event } from './schema';
import { eventKeys, eventKeySamples } from './entity';

export const events = defineResource({
  name: 'events',
  tags: { Events: 'What changed in the organization, newest first: the events webhook subscriptions deliver.' },
  // Sending an event again resends what its subscriptions were already sent; the subscriptions themselves are ADMIN's.
  sessionRoles: { write: 'MEMBER' },
  routes: eventRoutes,
  components: namedComponents({ Event }, examples),
  keys: [{ builders: eventKeys, samples: eventKeySamples }],
  // Any event type a Zap chooses: every event type, this resource's list, reaches Zapier with no entry of its own.
  zapier: { triggers: [{ key: 'new_event', noun: 'Event', label: 'New Event', description: 'Triggers on any event type you choose: every change the API reports to webhooks.' }] },
});
