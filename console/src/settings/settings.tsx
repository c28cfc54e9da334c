import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Page } from '../ui';
import { ApiKeys } from './api-keys';
import { Passkeys, SignOut } from './account';
import { Catalog } from './catalog';
import { Connections } from './connections';
import { Hours } from './hours';
import { Members } from './members';
import { Notifications } from './notifications';
import { Webhooks } from './webhooks';

/** A part of Settings: a heading to link to (Today links to #webhooks), focused when a link lands on it. */
export function Section({ id, title, children }: { id: string; title: string; children: ComponentChildren }) {
  return (
    <section id={id} tabIndex={-1} aria-labelledby={`${id}-heading`} class="settings-section">
      <h2 id={`${id}-heading`}>{title}</h2>
      {children}
    </section>
  );
}

/** Settings' parts in order, each once: its anchor (Today links to #webhooks), its heading and what it shows. */
const PARTS: { id: string; title: string; Part: () => ComponentChildren }[] = [
  { id: 'hours', title: 'Hours and closed dates', Part: Hours },
  { id: 'catalog', title: 'Services and products', Part: Catalog },
  { id: 'members', title: 'Members', Part: Members },
  { id: 'api-keys', title: 'API keys', Part: ApiKeys },
  { id: 'webhooks', title: 'Webhooks', Part: Webhooks },
  { id: 'connections', title: 'Assistant connections', Part: Connections },
  { id: 'notifications', title: 'Notifications on this device', Part: Notifications },
  { id: 'passkeys', title: 'Passkeys', Part: Passkeys },
  { id: 'session', title: 'Signing out', Part: SignOut },
];

/** The part the address names (`#webhooks`, as Today links to it), else the first. */
const partOf = (hash: string) => PARTS.find(({ id }) => `#${id}` === decodeURIComponent(hash)) ?? PARTS[0]!;

/**
 * Settings one part at a time, each part reading on its own (a part the member's role may not see says so alone): its
 * contents link to each by its anchor, so a part is a link to share and the back button goes to the part before.
 */
export function Settings() {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const moved = () => setHash(location.hash);
    addEventListener('hashchange', moved);
    return () => removeEventListener('hashchange', moved);
  }, []);
  const { id, title, Part } = partOf(hash);
  // A part chosen from the contents takes the focus, as a new screen's heading does, so a screen reader starts there.
  useEffect(() => {
    if (hash) document.getElementById(id)?.focus();
  }, [hash]);
  return (
    <Page title="Settings">
      <nav aria-label="Settings sections" class="contents">
        <ul>
          {PARTS.map((part) => (
            <li key={part.id}>
              <a href={`#${part.id}`} aria-current={part.id === id ? 'page' : undefined}>
                {part.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <Section key={id} id={id} title={title}>
        <Part />
      </Section>
    </Page>
  );
}
