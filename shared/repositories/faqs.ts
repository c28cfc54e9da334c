import { toFaqItem } from '../entities/faq';
import { now } from '../ids';
import type { CreateFaqBody, Faq } from '../schemas/faqs';
import { reserveIds } from './sequences';
import { insertIfAbsent, writeAlone } from './transact';

export const FAQ_SEQUENCE = 'FAQ';

export async function createFaq(organizationId: string, body: CreateFaqBody, at = now()): Promise<Faq> {
  const faq: Faq = { id: await reserveIds(organizationId, FAQ_SEQUENCE), ...body };
  await writeAlone(insertIfAbsent(toFaqItem(organizationId, faq, at)));
  return faq;
}
