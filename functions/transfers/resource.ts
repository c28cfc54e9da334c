import { defineResource } from '#shared/resource';
import { transfers as collection, transferKeys, transferKeySamples } from './collection';
import { transferRoutes } from './routes';
import { changes } from './changes';

export const transfers = defineResource({
  name: 'transfers',
  tags: { Transfers: 'Rules for when and where the AI receptionist hands a call over to a person.' },
  routes: transferRoutes,
  // A member's session reads them; changing them is the pipeline's settings (shared/member-roles.ts).
  sessionRoles: { write: 'MANAGER' },
  components: collection.components,
  ...changes,
  keys: [{ builders: transferKeys, samples: transferKeySamples }],
});
