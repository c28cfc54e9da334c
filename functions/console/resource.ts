import { defineResource } from '#shared/resource';
import { consoleRoutes } from './routes';
import { consoleKeys, consoleKeySamples } from './entity';
import { signInCodes, signInCodeWorker } from './code-queue';

/**
 * The owners' console: members sign in (a code texted to their phone, or a passkey) to a session whose cookie the
 * console's requests carry, and the console itself, a single-page app on the same origin (./app). A session is
 * authorized as a key is (./authorize-session.ts), held to the member's role and to its CSRF token.
 */
export const console = defineResource({
  name: 'console',
  tags: {
    'Console sign-in': 'How a member signs in to the console: a code texted to their phone, or a passkey; their session, passkeys and signing out.',
    'API keys': 'The organization’s API keys, which its ADMINs make and revoke in the console: each shown once.',
  },
  // A member's own sign-in, session and passkeys; the organization's API keys say ADMIN on their own rows.
  sessionRoles: { write: 'MEMBER' },
  routes: consoleRoutes,
  // Codes are made and texted off the request (./code-queue.ts), so asking takes the same time for anyone's phone.
  workers: [signInCodeWorker],
  channels: [signInCodes],
  keys: [{ builders: consoleKeys, samples: consoleKeySamples }],
});
