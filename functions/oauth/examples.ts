/** A grant as the document shows it: Claude, granted read by the Zapier key. */
export const oauthGrant = {
  id: 'grant_01JD3F4G5H6J7K8M9N0P1Q2R3S',
  clientId: 'https://claude.ai/oauth/mcp-oauth-client-metadata',
  clientName: 'Claude',
  scope: 'read',
  keyId: 'key_01JA1B2C3D4E5F6G7H8J9K0M1N',
  createdAt: '2026-11-20T09:00:00.000Z',
  lastUsedAt: '2026-11-20T09:12:00.000Z',
};
