/**
 * A secret's value read through the AWS Parameters and Secrets Lambda Extension, the layer the stack adds to the
 * functions that need one: a GET on its localhost port, authorized by the function's session token, and the
 * extension calls Secrets Manager with the function's role. It keeps the SDK's Secrets Manager client out of every
 * bundle. `undefined` when the secret has no version at that stage (no AWSPREVIOUS before the first replacement).
 */
export async function readSecretVersion(secretId: string, versionStage: 'AWSCURRENT' | 'AWSPREVIOUS'): Promise<string | undefined> {
  const port = process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT ?? '2773';
  const url = `http://localhost:${port}/secretsmanager/get?secretId=${encodeURIComponent(secretId)}&versionStage=${versionStage}`;
  const response = await fetch(url, { headers: { 'X-Aws-Parameters-Secrets-Token': process.env.AWS_SESSION_TOKEN ?? '' }, signal: AbortSignal.timeout(3_000) });
  const text = await response.text();
  if (response.ok) return (JSON.parse(text) as { SecretString: string }).SecretString;
  if (/ResourceNotFoundException/.test(text)) return undefined;
  throw new Error(`Reading secret ${secretId} (${versionStage}) answered ${response.status}: ${text.slice(0, 200)}`);
}
