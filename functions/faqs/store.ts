import { fromFaqItem, toFaqItem } from './entity';
import { counterNames, keys } from '../../shared/store/keys';
import { NotFoundError } from '../../shared/errors';
import { now } from '../../shared/ids';
import type { Page, PageRequest } from '../../shared/pagination';
import type { CreateFaqBody, Faq, FaqChanges } from './schema';
import { counterUpdate } from '../../shared/store/counters';
import { countedPage } from '../../shared/store/query-page';
import { reserveIds } from '../../shared/store/sequences';
import { deleteItem, insertIfAbsent, transact } from '../../shared/store/transact';
import { updateExistingItem } from '../../shared/store/update-fields';

export const FAQ_SEQUENCE = 'FAQ';

const faqNotFound = () => new NotFoundError('FAQ not found');

/** The FAQ and the FAQs counter in one transaction. */
export async function createFaq(organizationId: string, body: CreateFaqBody, at = now()): Promise<Faq> {
  const faq: Faq = { id: await reserveIds(organizationId, FAQ_SEQUENCE), ...body };
  await transact([insertIfAbsent(toFaqItem(organizationId, faq, at)), counterUpdate(organizationId, counterNames.faqs, 1)]);
  return faq;
}

export async function listFaqsPage(organizationId: string, { page, limit, cursor }: PageRequest): Promise<Page<Faq>> {
  const { items, totalCount, nextCursor } = await countedPage(keys.faqs(organizationId), organizationId, counterNames.faqs, { page, limit, cursor });
  return { items: items.map(fromFaqItem), totalCount: totalCount ?? 0, page, limit, nextCursor };
}

/** One conditional update: an FAQ has no rule across fields, so nothing needs reading first. */
export async function updateFaq(organizationId: string, faqId: number, changes: FaqChanges): Promise<Faq> {
  return fromFaqItem(await updateExistingItem(keys.faq(organizationId, faqId), { ...changes, updatedAt: now() }, faqNotFound));
}

export async function deleteFaq(organizationId: string, faqId: number): Promise<void> {
  await transact([deleteItem(keys.faq(organizationId, faqId), faqNotFound), counterUpdate(organizationId, counterNames.faqs, -1)]);
}
