import { counterNames, keys } from '../../shared/store/keys';
import { defineTextCollection } from '../../shared/text-collection';

/** Questions and answers the AI receptionist answers callers from. */
export const faqs = defineTextCollection({
  entity: 'FAQ',
  singular: 'faq',
  plural: 'faqs',
  label: 'FAQ',
  tag: 'FAQs',
  text: { question: 500, answer: 5000 },
  keys: { item: keys.faq, collection: keys.faqs, counter: counterNames.faqs },
  names: { one: 'Faq', many: 'Faqs' },
  docs: {
    create: {
      summary: 'Create an FAQ the AI receptionist can answer from',
      description: 'An FAQ the AI receptionist answers callers from. `question` and `answer` are trimmed and required; `isActive` defaults to true. Ids count up from 1 per organization.',
    },
    list: { summary: 'List FAQs, newest first', description: 'Pages through the organization’s FAQs, newest first, with an exact `totalCount`.' },
    update: { summary: 'Change an FAQ’s question, answer or isActive', description: 'Fields left out keep their values. Another organization’s FAQ answers 404.' },
    delete: { summary: 'Delete an FAQ', description: 'Removes the FAQ and lowers the FAQs count in one transaction. An FAQ already gone answers 404.' },
  },
});
