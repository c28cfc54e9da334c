import * as v from 'valibot';
import { expect, it, vi } from 'vitest';
import { useTestApi } from '../../test/support/api';
import { AutomationTemplateList } from './schema';

// valibot as it is, its parse watched: which schema each parse is given.
vi.mock('valibot', async (importOriginal) => {
  const real = await importOriginal<typeof import('valibot')>();
  return { ...real, parse: vi.fn(real.parse) };
});

const api = useTestApi();

/** How many times the recipes were read as the template list answers them. */
const templateListParses = () => vi.mocked(v.parse).mock.calls.filter(([schema]) => schema === AutomationTemplateList).length;

it('reads the recipes at the first listing of templates, not when an automation function starts', async () => {
  // The module every automation function's bundle is made from, imported as a cold start imports it.
  await import('./handlers');
  expect(templateListParses()).toBe(0);
  const { client } = await api.organization();
  const first = await client.get('/v1/automation-templates');
  expect(first.status).toBe(200);
  expect(first.body.templates).toHaveLength(5);
  // Read once, then kept by the container.
  expect((await client.get('/v1/automation-templates')).body).toEqual(first.body);
  expect(templateListParses()).toBe(1);
});
