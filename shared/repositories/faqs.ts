import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import { toFaqItem } from '../entities/faq';
import { now } from '../ids';
import type { CreateFaqBody, Faq } from '../schemas/faqs';
import { reserveIds } from './sequences';

export const FAQ_SEQUENCE = 'FAQ';

export async function createFaq(organizationId: string, body: CreateFaqBody, at = now()): Promise<Faq> {
  const faq: Faq = { id: await reserveIds(organizationId, FAQ_SEQUENCE), question: body.question, answer: body.answer, isActive: body.isActive };
  await dynamo.send(new PutCommand({ TableName: config.tableName, Item: toFaqItem(organizationId, faq, at), ConditionExpression: 'attribute_not_exists(pk)' }));
  return faq;
}
