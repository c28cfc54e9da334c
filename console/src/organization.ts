import { useEffect } from 'preact/hooks';
import { answer, api } from './api';
import { store, useStore } from './store';
import type { Organization } from './types';

/** The organization's settings several screens read (its currency, hours): read once, replaced after a change. */
const organization = store<Organization | undefined>(undefined);
let reading: Promise<void> | undefined;

export const setOrganization = (next: Organization) => organization.set(next);

export function useOrganization(): Organization | undefined {
  const value = useStore(organization);
  useEffect(() => {
    if (organization.get() || reading) return;
    reading = answer(api.GET('/v1/organization')).then(
      (answer) => organization.set(answer.organization),
      () => {
        // Amounts then show in the default currency; the next screen that asks reads it again.
        reading = undefined;
      },
    );
  }, []);
  return value;
}
