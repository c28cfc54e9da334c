/**
 * Whether the URLs the API posts to, or takes posts from a page at, may be http and on loopback or private networks,
 * read once. Deployed, never; `npm start` and the tests allow them (WEBHOOK_URLS_ALLOW_PRIVATE=true), so a developer's
 * receiver or page on localhost works.
 */
export const privateUrls: { allowed: boolean } = { allowed: process.env.WEBHOOK_URLS_ALLOW_PRIVATE === 'true' };
