import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';

/** An item as anyone reading the table (or its export) sees it: binary attributes as base64, and as text. */
export const asRead = (item: Record<string, unknown>) =>
  JSON.stringify(item, (_, value) => (value instanceof Uint8Array ? `${Buffer.from(value).toString('base64')} ${Buffer.from(value).toString('latin1')}` : value));

/** The parts of a secret (every 8 characters in a row, and of its key's bytes) that show in the text. */
export const partsIn = (text: string, secret: string) => {
  const forms = [secret, secret.replace(/^whsec_/, ''), Buffer.from(secret.replace(/^whsec_/, ''), 'base64').toString('latin1')];
  return forms.flatMap((form) => Array.from({ length: Math.max(0, form.length - 7) }, (_, i) => form.slice(i, i + 8))).filter((part) => text.includes(part));
};

/** Every item of this test file's table as anyone reading it sees it (asRead), one per line: a Scan, never the API's. */
export async function tableAsRead(): Promise<string> {
  const read: string[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(new ScanCommand({ TableName: config.tableName, ConsistentRead: true, ExclusiveStartKey: startKey }));
    read.push(...(page.Items ?? []).map(asRead));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return read.join('\n');
}
