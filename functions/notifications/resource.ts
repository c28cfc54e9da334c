import { defineResource } from '#shared/resource';
import { pushKeys, pushKeySamples } from './entity';
import { pushRoutes } from './routes';

/**
 * Notifications on a member's phone or desk: each browser a member subscribes (Web Push, RFC 8030 with VAPID, RFC 8292)
 * is pushed the notices they chose. The stream consumer sends them (./send.ts), signed with the organization's own key.
 */
export const notifications = defineResource({
  name: 'notifications',
  tags: { Notifications: 'Push notifications to a member’s browsers and phones: a missed call, a customer’s reply, a failing webhook, each the member’s choice.' },
  // A member's own browsers, whatever their role.
  sessionRoles: { write: 'MEMBER' },
  routes: pushRoutes,
  keys: [{ builders: pushKeys, samples: pushKeySamples }],
});
