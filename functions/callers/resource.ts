import { defineResource } from '../../shared/resource';
import { callerRoutes } from './routes';

/** What a voice agent asks during a call; it stores nothing of its own and reads leads, inquiries, appointments and the organization. */
export const callers = defineResource({
  name: 'callers',
  tags: { Receptionist: 'What an AI receptionist asks during a live call: who is calling, and what the business can offer.' },
  routes: callerRoutes,
});
