import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { clock } from '#shared/clock';
import { newId } from '#shared/ids';
import { OAuthError } from './errors';
import { TTL_ATTRIBUTE } from '#shared/table';
import { BlockedAddressError, canonicalHost, outboundRequest, refusalBeforeLookup, type OutboundReach } from '#shared/net/outbound';
import { OAUTH_CLIENT_ENTITY, oauthKeys } from './entity';
import { clientDocumentHosts, OAUTH_LIMITS } from './settings';
import { ClientMetadataDocument, RegisterClientBody } from './schema';

/** A client as the authorization server knows it: registered here, or described by its own https document (its kind, decided as it is read). */
export interface OAuthClient {
  kind: 'registered' | 'document';
  clientId: string;
  clientName: string;
  redirectUris: string[];
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Whether a redirect URI may be registered: https, or http on the loopback interface for a command-line client (RFC 8252 §7.3). */
export function redirectUriRefusal(uri: string): string | undefined {
  if (!URL.canParse(uri)) return `${uri} is not a URL`;
  const url = new URL(uri);
  if (url.hash) return `${uri} must not have a fragment`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return `${uri} must be an https URL, or http on 127.0.0.1, [::1] or localhost`;
}

/**
 * Whether a redirect URI asked for is one the client has: the same text, or, for a loopback URI, the same but for
 * its port, which a command-line client picks when it starts (RFC 8252 §7.3).
 */
export function hasRedirectUri(client: OAuthClient, asked: string): boolean {
  if (client.redirectUris.includes(asked)) return true;
  if (!URL.canParse(asked)) return false;
  const url = new URL(asked);
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) return false;
  return client.redirectUris.some((registered) => {
    if (!URL.canParse(registered)) return false;
    const known = new URL(registered);
    known.port = url.port;
    return known.href === url.href;
  });
}

/** Registers a client (RFC 7591): it expires unless something is granted to it within OAUTH_LIMITS.unusedRegistrationSeconds. */
export async function registerClient(metadata: v.InferOutput<typeof RegisterClientBody>): Promise<Omit<OAuthClient, 'kind'> & { createdAt: string }> {
  const client = { clientId: newId('client'), clientName: metadata.client_name ?? 'Unnamed client', redirectUris: metadata.redirect_uris, createdAt: new Date(clock.now()).toISOString() };
  const expires = Math.floor(clock.now() / 1000) + OAUTH_LIMITS.unusedRegistrationSeconds;
  await dynamo.send(new PutCommand({ TableName: config.tableName, Item: { ...oauthKeys.registeredClient(client.clientId), entity: OAUTH_CLIENT_ENTITY, ...client, [TTL_ATTRIBUTE]: expires }, ConditionExpression: 'attribute_not_exists(pk)' }));
  return client;
}

/** A registered client is kept once something has been granted to it. */
export const keepRegisteredClient = (clientId: string) => ({
  Update: { TableName: config.tableName, Key: oauthKeys.registeredClient(clientId), UpdateExpression: `REMOVE ${TTL_ATTRIBUTE}` },
});

export const deleteRegisteredClient = (clientId: string) => dynamo.send(new DeleteCommand({ TableName: config.tableName, Key: oauthKeys.registeredClient(clientId) }));

async function registeredClient(clientId: string): Promise<OAuthClient | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: oauthKeys.registeredClient(clientId) }));
  // DynamoDB deletes an expired item within days: until then it is as good as gone.
  if (!Item || (typeof Item[TTL_ATTRIBUTE] === 'number' && Item[TTL_ATTRIBUTE] * 1000 <= clock.now())) return undefined;
  return { kind: 'registered', clientId: Item.clientId as string, clientName: Item.clientName as string, redirectUris: Item.redirectUris as string[] };
}

/** Whether a client_id is a client ID metadata document's URL: https, with a path. */
export const isDocumentUrl = (clientId: string) => URL.canParse(clientId) && new URL(clientId).protocol === 'https:' && new URL(clientId).pathname !== '/';

/** The client a client_id names, or an OAuthError (`invalid_client`) saying why there is none. */
export async function resolveClient(clientId: string): Promise<OAuthClient> {
  if (isDocumentUrl(clientId)) return clientFromDocument(clientId);
  const client = /^client_[0-9A-Za-z]{26}$/.test(clientId) ? await registeredClient(clientId) : undefined;
  if (!client) throw new OAuthError('invalid_client', `client_id ${JSON.stringify(clientId.slice(0, 200))} is not a client registered here (register again) nor an https URL of a client ID metadata document`, 401);
  return client;
}

/**
 * The client a token request names, found without fetching anything: a registered client's item (or invalid_client),
 * or a client ID metadata document's URL as it is. The consent page fetched and checked the document; the code or
 * refresh token the request sends names the client it was issued to, and the exchange holds the request to it.
 */
export async function tokenClient(clientId: string): Promise<Pick<OAuthClient, 'kind' | 'clientId'>> {
  return isDocumentUrl(clientId) ? { kind: 'document', clientId } : resolveClient(clientId);
}

/**
 * Documents read, and failures, per URL: the outcome (pending while it is fetched, so a second request for the URL
 * waits for the same fetch), kept until `until`. Insertion order is recency: the first entry is forgotten first.
 */
const documents = new Map<string, { outcome: Promise<OAuthClient>; until: number }>();

/** How long a document's answer may be kept, from its Cache-Control, in seconds. */
function documentCacheSeconds(cacheControl: string | undefined): number {
  const { documentCacheSeconds: unsaid, documentCacheFloorSeconds: floor, documentCacheCeilingSeconds: ceiling } = OAUTH_LIMITS;
  if (!cacheControl) return unsaid;
  const directives = cacheControl.toLowerCase().split(',').map((directive) => directive.trim());
  if (directives.some((directive) => directive === 'no-store' || directive === 'no-cache')) return floor;
  const maxAge = directives.map((directive) => /^max-age="?(\d+)"?$/.exec(directive)?.[1]).find((value) => value !== undefined);
  return maxAge === undefined ? unsaid : Math.min(ceiling, Math.max(floor, Number(maxAge)));
}

/**
 * A client ID metadata document's client: fetched once for every request naming the URL meanwhile, then kept as
 * its Cache-Control says (bounded), or, refused, for OAUTH_LIMITS.documentFailureSeconds; at most
 * documentCacheEntries URLs kept.
 */
function clientFromDocument(url: string): Promise<OAuthClient> {
  const cached = documents.get(url);
  documents.delete(url);
  if (cached && cached.until > clock.now()) {
    documents.set(url, cached);
    return cached.outcome;
  }
  const read = fetchDocument(url).then(({ text, cacheControl }) => ({ client: documentClient(url, text), cacheControl }));
  const entry = { outcome: read.then(({ client }) => client), until: Infinity };
  const keep = (seconds: number) => void (entry.until = clock.now() + seconds * 1000);
  read.then(({ cacheControl }) => keep(documentCacheSeconds(cacheControl)), () => keep(OAUTH_LIMITS.documentFailureSeconds));
  if (documents.size >= OAUTH_LIMITS.documentCacheEntries) documents.delete(documents.keys().next().value!);
  documents.set(url, entry);
  return entry.outcome;
}

/**
 * What the document says, checked: it names itself as the client_id, and has a redirect URI this server accepts. Those
 * it does not (a native app's own scheme) are left out rather than the client refused: an authorization naming one is
 * refused as any unknown redirect URI is.
 */
function documentClient(url: string, text: string): OAuthClient {
  const refused = (why: string) => new OAuthError('invalid_client', `The client ID metadata document at ${url} ${why}`, 401);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw refused('is not JSON');
  }
  const parsed = v.safeParse(ClientMetadataDocument, json);
  if (!parsed.success) throw refused(`is not client metadata: ${parsed.issues[0].message}`);
  if (parsed.output.client_id !== url) throw refused(`names another client_id (${parsed.output.client_id})`);
  const redirectUris = parsed.output.redirect_uris.filter((uri) => redirectUriRefusal(uri) === undefined);
  if (redirectUris.length === 0) throw refused(`has no redirect URI this server accepts: ${redirectUriRefusal(parsed.output.redirect_uris[0]!)}`);
  return { kind: 'document', clientId: url, clientName: parsed.output.client_name ?? new URL(url).host, redirectUris };
}

/** host:port as the test setting names hosts. */
const hostPort = (url: URL) => `${canonicalHost(url.hostname)}:${url.port || '443'}`;

/**
 * GETs a client ID metadata document under the outbound guard: https only, no redirect followed, no
 * private address (before and after resolution), at most OAUTH_LIMITS.documentBytes, all of it (DNS, connect, TLS,
 * the body) within one deadline on the clock, documentDeadlineMs.
 */
function fetchDocument(clientId: string): Promise<{ text: string; cacheControl?: string }> {
  const url = new URL(clientId);
  const reach: OutboundReach = { local: clientDocumentHosts.allowed.has(hostPort(url)) };
  const refused = (why: string) => new OAuthError('invalid_client', `The client ID metadata document at ${clientId} could not be read: ${why}`, 401);
  // A client_id is a document's URL only when https (isDocumentUrl): the guard's one refusal before lookup left is the host.
  if (refusalBeforeLookup(url, reach)) return Promise.reject(refused('its host is a private, loopback or link-local address'));
  let cancel = () => {};
  const read = new Promise<{ text: string; cacheControl?: string }>((resolve, reject) => {
    const outgoing = outboundRequest(
      url,
      reach,
      {
        method: 'GET',
        // One connection per fetch, closed once its answer is read or refused: none is kept in a pool for a host that
        // anyone can name (the global agent keeps each for reuse, toward the sandbox's 1 024 descriptors).
        agent: false,
        headers: { accept: 'application/json', 'user-agent': 'SalesPipeline-OAuth/1.0', connection: 'close' },
        ...(reach.local && clientDocumentHosts.ca ? { ca: clientDocumentHosts.ca } : {}),
      },
      (answer) => {
        if (answer.statusCode !== 200) {
          answer.destroy();
          return reject(refused(`its host answered ${answer.statusCode}${answer.statusCode && answer.statusCode >= 300 && answer.statusCode < 400 ? ' (a redirect, which is not followed)' : ''}`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        answer.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > OAUTH_LIMITS.documentBytes) {
            answer.destroy();
            return reject(refused(`it is larger than ${OAUTH_LIMITS.documentBytes} bytes`));
          }
          chunks.push(chunk);
        });
        answer.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), ...(answer.headers['cache-control'] ? { cacheControl: answer.headers['cache-control'] } : {}) }));
        answer.on('error', (error) => reject(refused(error.message)));
      },
    );
    const late = refused(`no answer within ${OAUTH_LIMITS.documentDeadlineMs / 1000} s`);
    cancel = clock.setTimer(clock.now() + OAUTH_LIMITS.documentDeadlineMs, () => {
      reject(late);
      outgoing.destroy(late);
    });
    outgoing.on('error', (error: Error) => reject(refused(error instanceof BlockedAddressError ? 'its host resolves to a private, loopback or link-local address' : error.message)));
    outgoing.end();
  });
  return read.finally(() => cancel());
}

/** Forgets the documents read so far (tests). */
export const forgetClientDocuments = () => documents.clear();

