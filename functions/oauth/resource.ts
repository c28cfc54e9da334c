import { defineResource } from '#shared/resource';
import { oauthRoutes } from './routes';
import { oauthKeys, oauthKeySamples } from './entity';
import { OAuthGrant } from './schema';
import { oauthGrant } from './examples';
import { changes } from './changes';

/**
 * OAuth 2.1 for the MCP server (docs/oauth.md): its metadata, client registration, the consent page, the token
 * endpoint, and the grants an organization sees and revokes. The authorizer checks its tokens (./authorize-token.ts).
 */
export const oauth = defineResource({
  name: 'oauth',
  tags: { OAuth: 'OAuth 2.1 for the MCP server, as Claude and ChatGPT connect: discovery, client registration, the consent page, tokens, and the grants an organization sees and revokes.' },
  routes: oauthRoutes,
  // Who and what reaches the organization: an admin's alone, read or changed (shared/member-roles.ts).
  sessionRoles: { read: 'ADMIN', write: 'ADMIN' },
  components: { OAuthGrant: { schema: OAuthGrant, example: oauthGrant } },
  ...changes,
  keys: [{ builders: oauthKeys, samples: oauthKeySamples }],
});
