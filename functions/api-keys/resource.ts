import { defineResource } from '#shared/resource';
import { apiKeyRoutes } from './routes';

/**
 * The organization's API keys, which its ADMINs make and revoke from a session (the console): each key's token shown
 * once and kept by its hash. The keys themselves, and what the authorizer reads of them, are shared/auth/api-keys.ts:
 * the authorizer, members' removal and OAuth's grants use them too.
 */
export const apiKeys = defineResource({
  name: 'api-keys',
  tags: { 'API keys': 'The organization’s API keys, which its ADMINs make and revoke in the console: each shown once.' },
  // Every route says ADMIN on its own row.
  sessionRoles: { read: 'ADMIN', write: 'ADMIN' },
  routes: apiKeyRoutes,
});
