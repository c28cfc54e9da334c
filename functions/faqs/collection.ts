import { keySamplesOf, numberedKey, recordsOfKind, textClaimKey } from '#shared/store/keys';
import { defineCrudResource } from '#shared/crud/define';
import { flag, text } from '#shared/crud/fields';

export const faqKeys = {
  faq: numberedKey('FAQ'),
  faqs: recordsOfKind('FAQ'),
  /** A question an FAQ asks, ignoring case and spacing: no two FAQs of an organization ask the same. */
  faqQuestion: textClaimKey('FAQQUESTION'),
} as const;

/** The names of the faqs' counter items (`COUNT#<name>`). */
export const faqCounterNames = {
  faqs: 'FAQS',
} as const;

export const faqKeySamples = keySamplesOf(faqKeys, { faq: [1], faqs: [], faqQuestion: ['Are you licensed?'] });

/** Questions and answers the AI receptionist answers callers from. */
export const faqs = defineCrudResource({
  entity: 'FAQ',
  singular: 'faq',
  plural: 'faqs',
  label: 'FAQ',
  tag: 'FAQs',
  fields: { question: text(500), answer: text(5000), isActive: flag(true) },
  keys: { item: faqKeys.faq, collection: faqKeys.faqs, counter: faqCounterNames.faqs },
  unique: { field: 'question', claim: faqKeys.faqQuestion, taken: (question) => `An FAQ asking "${question}" already exists` },
  names: { one: 'Faq', many: 'Faqs' },
  example: { id: 1, question: 'Are you licensed?', answer: 'Yes: NSW plumbing licence 123456C and electrical licence 654321C.', isActive: true, updatedAt: '2026-10-02T23:00:00.000Z' },
  docs: {
    create: {
      summary: 'Create an FAQ the AI receptionist can answer from',
      description: 'An FAQ the AI receptionist answers callers from. `question` and `answer` are trimmed and required; `isActive` defaults to true. Ids count up from 1 per organization. A question another FAQ of the organization asks, ignoring case and spacing, answers 409 CONFLICT.',
    },
    list: { summary: 'List FAQs, newest first', description: 'Pages through the organization’s FAQs, newest first, with an exact `totalCount`.' },
    get: { summary: 'Read an FAQ', description: 'One FAQ of the organization, as the list shows it. Another organization’s FAQ, or one deleted, answers 404.' },
    update: { summary: 'Change an FAQ’s question, answer or isActive', description: 'Fields left out keep their values. A question another FAQ of the organization asks, ignoring case and spacing, answers 409 CONFLICT. Another organization’s FAQ answers 404.' },
    delete: { summary: 'Delete an FAQ', description: 'Removes the FAQ and lowers the FAQs count in one transaction; its question may be asked by another FAQ at once. An FAQ already gone answers 404.' },
  },
});
