import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { LOCAL_ACCOUNT, LOCAL_REGION } from '../../infra/local/aws-calls';

/** One call KMS received: its action, the access key that signed it, and the organization its encryption context names. */
export interface KmsCall {
  action: string;
  signer: string;
  organizationId: string | undefined;
}

/**
 * A KMS endpoint on this machine, for what a deployed function's keyrings ask of it (there is none locally): it hands
 * out data keys (GenerateDataKey) and gives them back (Decrypt) for the ciphertext it made, and keeps who signed each
 * call and with which encryption context. No policy is evaluated here: the strict mode and the simulation do that.
 */
export async function startLocalKms() {
  const calls: KmsCall[] = [];
  const keyArn = `arn:aws:kms:${LOCAL_REGION}:${LOCAL_ACCOUNT}:key/00000000-0000-4000-8000-000000000001`;
  const dataKeys = new Map<string, string>();
  const server: Server = createServer(async (request: IncomingMessage, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    const input = JSON.parse(body) as { EncryptionContext?: Record<string, string>; CiphertextBlob?: string };
    const action = String(request.headers['x-amz-target']).replace(/^TrentService\./, '');
    const signer = String(request.headers.authorization).replace(/^.*Credential=([^/]+)\/.*$/, '$1');
    calls.push({ action, signer, organizationId: input.EncryptionContext?.organizationId });
    const answer = (status: number, json: unknown) => response.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' }).end(JSON.stringify(json));
    if (action === 'GenerateDataKey') {
      const plaintext = randomBytes(32).toString('base64');
      const ciphertext = randomBytes(48).toString('base64');
      dataKeys.set(ciphertext, plaintext);
      return answer(200, { KeyId: keyArn, Plaintext: plaintext, CiphertextBlob: ciphertext });
    }
    const plaintext = action === 'Decrypt' ? dataKeys.get(input.CiphertextBlob ?? '') : undefined;
    if (!plaintext) return answer(400, { __type: 'InvalidCiphertextException', message: 'not a ciphertext this KMS made' });
    return answer(200, { KeyId: keyArn, Plaintext: plaintext });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    stop: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
