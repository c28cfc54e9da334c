import * as v from 'valibot';
import { Faq } from './schema';
import { keys } from '../../shared/store/keys';

/** Timestamps are kept for audit; the API's FAQ shows only id, question, answer and isActive. */
export function toFaqItem(organizationId: string, faq: Faq, at: string) {
  return { ...keys.faq(organizationId, faq.id), entity: 'FAQ', ...faq, createdAt: at, updatedAt: at };
}

export const fromFaqItem = (item: Record<string, unknown>): Faq => v.parse(Faq, item);
