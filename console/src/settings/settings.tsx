import type { ComponentChildren } from 'preact';
import { Page } from '../ui';
import { ApiKeys } from './api-keys';
import { Passkeys, SignOut } from './account';
import { Catalog } from './catalog';
import { Connections } from './connections';
import { Hours } from './hours';
import { Members } from './members';
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

const PARTS: [string, string][] = [
  ['hours', 'Hours and closed dates'],
  ['catalog', 'Services and products'],
  ['members', 'Members'],
  ['api-keys', 'API keys'],
  ['webhooks', 'Webhooks'],
  ['connections', 'Assistant connections'],
  ['passkeys', 'Passkeys'],
  ['session', 'Signing out'],
];

/** Every setting on one page, each part reading on its own: a part the member's role may not see says so alone. */
export function Settings() {
  return (
    <Page title="Settings">
      <nav aria-label="Settings sections" class="contents">
        <ul>
          {PARTS.map(([id, title]) => (
            <li key={id}>
              <a href={`#${id}`}>{title}</a>
            </li>
          ))}
        </ul>
      </nav>
      <Section id="hours" title="Hours and closed dates">
        <Hours />
      </Section>
      <Section id="catalog" title="Services and products">
        <Catalog />
      </Section>
      <Section id="members" title="Members">
        <Members />
      </Section>
      <Section id="api-keys" title="API keys">
        <ApiKeys />
      </Section>
      <Section id="webhooks" title="Webhooks">
        <Webhooks />
      </Section>
      <Section id="connections" title="Assistant connections">
        <Connections />
      </Section>
      <Section id="passkeys" title="Passkeys">
        <Passkeys />
      </Section>
      <Section id="session" title="Signing out">
        <SignOut />
      </Section>
    </Page>
  );
}
