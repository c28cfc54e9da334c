import type { Faq } from '../schemas/faqs';
import { keys } from './keys';

/** Timestamps are kept for audit; the spec's FAQ shows only id, question, answer and isActive. */
export type FaqItem = Faq & { pk: string; sk: string; entity: 'FAQ'; createdAt: string; updatedAt: string };

export function toFaqItem(organizationId: string, faq: Faq, at: string): FaqItem {
  return { ...keys.faq(organizationId, faq.id), entity: 'FAQ', ...faq, createdAt: at, updatedAt: at };
}

export function fromFaqItem(item: Record<string, unknown>): Faq {
  const i = item as FaqItem;
  return { id: i.id, question: i.question, answer: i.answer, isActive: i.isActive ?? true };
}
