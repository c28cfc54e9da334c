import { describe, expect, it } from 'vitest';
import { useTestApi } from './support/api';
import { countDynamoCalls } from './support/dynamo-calls';

const api = useTestApi();

const licensed = { question: 'Are you licensed?', answer: 'Yes, licence number 123456C.' };

describe('POST /v1/faqs', () => {
  it('answers 201 with every FAQ field, trimmed, active by default', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/faqs', { question: '  Are you licensed? ', answer: ' Yes, licence number 123456C.  ' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ faq: { id: 1, ...licensed, isActive: true } });
  });

  it('keeps isActive false, and numbers ids per organization from 1', async () => {
    const { client } = await api.organization();
    await client.post('/v1/faqs', licensed);
    const res = await client.post('/v1/faqs', { question: 'Do you work weekends?', answer: 'Saturdays only.', isActive: false });
    expect(res.body.faq).toEqual({ id: 2, question: 'Do you work weekends?', answer: 'Saturdays only.', isActive: false });
    const other = await api.organization({ demo: true });
    expect((other.demo!.faqIds as number[]).length).toBeGreaterThanOrEqual(3);
    expect((await other.client.post('/v1/faqs', licensed)).body.faq.id).toBe((other.demo!.faqIds as number[]).length + 1);
  });

  it.each([
    ['a missing question', { answer: 'Yes.' }, 'question'],
    ['a blank question', { question: '   ', answer: 'Yes.' }, 'question'],
    ['a missing answer', { question: 'Why?' }, 'answer'],
    ['a blank answer', { question: 'Why?', answer: '' }, 'answer'],
    ['a question of the wrong type', { question: 1, answer: 'Yes.' }, 'question'],
    ['isActive that is not a boolean', { ...licensed, isActive: 'yes' }, 'isActive'],
    ['an unknown field', { ...licensed, category: 'general' }, 'category'],
  ])('answers 400 for %s, naming the field, without touching DynamoDB', async (_, body, field) => {
    const { client } = await api.organization();
    let status = 0;
    let message = '';
    const calls = await countDynamoCalls(async () => {
      const res = await client.post('/v1/faqs', body);
      ({ status, message } = { status: res.status, message: res.body.message });
    });
    expect(status).toBe(400);
    expect(message).toContain(field);
    expect(calls).toEqual([]);
  });

  it('costs one sequence update and one conditional Put', async () => {
    const { client } = await api.organization();
    expect(await countDynamoCalls(() => client.post('/v1/faqs', licensed))).toEqual(['UpdateItemCommand', 'PutItemCommand']);
  });
});
