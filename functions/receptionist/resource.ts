import { defineResource, namedComponents } from '#shared/resource';
import { ReceptionistService } from './context-schema';
import { receptionistRoutes } from './routes';

/** What a voice agent asks during a call; it stores nothing of its own and reads the other resources' records. */
export const receptionist = defineResource({
  name: 'receptionist',
  tags: { Receptionist: 'What an AI receptionist asks during a live call: who is calling, and what the business may say.' },
  routes: receptionistRoutes,
  // A member's session reads them; changing them is the pipeline's settings (shared/member-roles.ts).
  sessionRoles: { write: 'MANAGER' },
  components: namedComponents({ ReceptionistService }, {}),
});
