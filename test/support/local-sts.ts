import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { STSClient } from '@aws-sdk/client-sts';
import { SESSION_SECONDS } from '#shared/tenancy/credentials';
import { LOCAL_ACCOUNT } from '../../infra/local/aws-calls';

/**
 * An STS endpoint on this machine, for what a deployed container does with it (there is no STS locally): it answers
 * AssumeRole with credentials lasting `lifetimeMs` from its clock's now, keeps each request's form, and refuses the
 * next one as throttled when told. Its client is an STSClient pointed at it.
 */
export async function startLocalSts() {
  const requests: URLSearchParams[] = [];
  let failNext = false;
  let emptyNext = false;
  const lifetimeMs = SESSION_SECONDS * 1000;
  // The machine's clock until a test sets one: an STS with a clock of its own hands out credentials already expired
  // to a caller on the real one (the bench's), which then assumes the role again at every call.
  let setAt: number | undefined;
  const now = () => setAt ?? Date.now();
  const server: Server = createServer(async (request: IncomingMessage, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    const form = new URLSearchParams(body);
    requests.push(form);
    if (failNext) {
      failNext = false;
      response.writeHead(400, { 'content-type': 'text/xml' }).end('<ErrorResponse><Error><Type>Sender</Type><Code>Throttling</Code><Message>Rate exceeded</Message></Error><RequestId>1</RequestId></ErrorResponse>');
      return;
    }
    const n = requests.length;
    if (emptyNext) {
      emptyNext = false;
      response.writeHead(200, { 'content-type': 'text/xml' }).end(`<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult></AssumeRoleResult><ResponseMetadata><RequestId>${n}</RequestId></ResponseMetadata></AssumeRoleResponse>`);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/xml' }).end(
      `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult><Credentials><AccessKeyId>ASIA${n}</AccessKeyId><SecretAccessKey>secret${n}</SecretAccessKey><SessionToken>token${n}</SessionToken><Expiration>${new Date(now() + lifetimeMs).toISOString()}</Expiration></Credentials><AssumedRoleUser><AssumedRoleId>AROA:${n}</AssumedRoleId><Arn>arn:aws:sts::${LOCAL_ACCOUNT}:assumed-role/TenantData/${form.get('RoleSessionName')}</Arn></AssumedRoleUser></AssumeRoleResult><ResponseMetadata><RequestId>${n}</RequestId></ResponseMetadata></AssumeRoleResponse>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const sts = new STSClient({ endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, region: 'us-east-1', credentials: { accessKeyId: 'own', secretAccessKey: 'own' }, maxAttempts: 1 });
  return {
    sts,
    requests,
    failNext: () => void (failNext = true),
    /** The next AssumeRole answers 200 with no credentials in it. */
    emptyNext: () => void (emptyNext = true),
    /** Its clock: the machine's, until `set` stops it at an instant; `live` starts it again. */
    clock: { now, set: (at: number) => void (setAt = at), live: () => void (setAt = undefined) },
    stop: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
