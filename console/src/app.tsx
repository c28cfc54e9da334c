import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { consolePath } from './base';
import { showUnreadOnIcon } from './badge';
import { clearNotices, Notices, problemOf, ProblemText } from './notices';
import { match, moved, navigate, usePlace } from './router';
import { loadSession, useSession } from './session';
import { useStore } from './store';
import { timeZone } from './format';
import { useOrganization } from './organization';
import { Page } from './ui';
import { SignIn } from './screens/sign-in';
import { Today } from './screens/today';
import { Inbox } from './screens/inbox';
import { InquiryScreen } from './screens/inquiry';
import { Pipeline } from './screens/pipeline';
import { LeadScreen } from './screens/lead';
import { Automations } from './screens/automations';
import { AutomationScreen } from './screens/automation';
import { Reports } from './screens/reports';
import { Settings } from './settings/settings';
import { Search } from './screens/search';
import { Schedule } from './screens/schedule';

type Params = Record<string, string>;

/** Each screen by its path below the base; the first that matches is shown. */
const SCREENS: [string, (params: Params) => JSX.Element][] = [
  ['/', () => <Today />],
  ['/inbox', () => <Inbox />],
  ['/inbox/:inquiryId', ({ inquiryId }) => <InquiryScreen inquiryId={inquiryId!} />],
  ['/pipeline', () => <Pipeline />],
  ['/leads/:leadId', ({ leadId }) => <LeadScreen leadId={leadId!} />],
  ['/schedule', () => <Schedule />],
  ['/automations', () => <Automations />],
  ['/automations/:automationId', ({ automationId }) => <AutomationScreen automationId={automationId!} />],
  ['/reports', () => <Reports />],
  ['/settings', () => <Settings />],
  ['/search', () => <Search />],
];

/** The main navigation; a screen below another (an inquiry, a lead) marks its list's link as the current page. */
const NAV: { label: string; path: string; owns: RegExp }[] = [
  { label: 'Today', path: '/', owns: /^\/$/ },
  { label: 'Inbox', path: '/inbox', owns: /^\/inbox(\/|$)/ },
  { label: 'Pipeline', path: '/pipeline', owns: /^\/(pipeline|leads)(\/|$)/ },
  { label: 'Schedule', path: '/schedule', owns: /^\/schedule$/ },
  { label: 'Automations', path: '/automations', owns: /^\/automations(\/|$)/ },
  { label: 'Reports', path: '/reports', owns: /^\/reports$/ },
  { label: 'Settings', path: '/settings', owns: /^\/settings$/ },
  { label: 'Search', path: '/search', owns: /^\/search$/ },
];

function screenAt(path: string): JSX.Element {
  for (const [pattern, screen] of SCREENS) {
    const params = match(pattern, path);
    if (params) return screen(params);
  }
  return (
    <Page title="Page not found">
      <p>
        There is no such page. <a href={consolePath('/')}>Go to Today</a>.
      </p>
    </Page>
  );
}

function Header({ signedIn, organization }: { signedIn: boolean; organization?: string }) {
  const { path } = usePlace();
  const [open, setOpen] = useState(false);
  const moves = useStore(moved);
  useEffect(() => setOpen(false), [moves]);
  return (
    <header class="top">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <p class="brand">{organization ?? 'Owners’ console'}</p>
      {signedIn && (
        <>
          <button type="button" class="menu" aria-expanded={open} aria-controls="site-nav" onClick={() => setOpen(!open)}>
            Menu
          </button>
          <nav id="site-nav" aria-label="Main" class={open ? 'open' : undefined}>
            <ul>
              {NAV.map((item) => (
                <li key={item.path}>
                  <a href={consolePath(item.path)} aria-current={item.owns.test(path) ? 'page' : undefined}>
                    {item.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </>
      )}
    </header>
  );
}

/** Reads the organization once signed in, so times show in its timezone (format.ts). */
function OrganizationClock() {
  const zone = useOrganization()?.timezone;
  useEffect(() => timeZone.set(zone), [zone]);
  return null;
}

export function App() {
  const session = useSession();
  // Every screen's times are drawn again once the organization's timezone is known.
  useStore(timeZone);
  const place = usePlace();
  const moves = useStore(moved);
  const [bootProblem, setBootProblem] = useState<unknown>(undefined);
  const [boot, setBoot] = useState(0);

  useEffect(() => {
    setBootProblem(undefined);
    loadSession().catch(setBootProblem);
  }, [boot]);

  // Nobody signed in: the sign-in screen, which brings the person back here after.
  useEffect(() => {
    if (session === null && place.path !== '/sign-in') navigate(`${consolePath('/sign-in')}?return=${encodeURIComponent(place.href)}`, { replace: true });
  }, [session, place.path]);

  // The app's icon counts the unread inquiries: at sign-in, on each screen change, and when the app is shown again.
  useEffect(() => {
    if (!session) return;
    void showUnreadOnIcon();
    const shown = () => document.visibilityState === 'visible' && void showUnreadOnIcon();
    document.addEventListener('visibilitychange', shown);
    return () => document.removeEventListener('visibilitychange', shown);
  }, [session?.member.id, moves]);

  // A new screen: the old one's notices go, and focus starts at its heading (or the section its link names).
  useEffect(() => {
    if (moves === 0) return;
    clearNotices();
    const target = (location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)))) || document.getElementById('page-title');
    target?.focus();
    if (location.hash) target?.scrollIntoView();
  }, [moves]);

  let screen: JSX.Element;
  if (bootProblem !== undefined) {
    screen = (
      <Page title="The console could not start">
        <div class="problem inline">
          <ProblemText problem={problemOf(bootProblem)} />
        </div>
        <button type="button" onClick={() => setBoot(boot + 1)}>
          Try again
        </button>
      </Page>
    );
  } else if (place.path === '/sign-in') screen = <SignIn />;
  else if (session) screen = screenAt(place.path);
  else screen = <p class="muted">Loading…</p>;

  return (
    <>
      {session && <OrganizationClock />}
      <Header signedIn={Boolean(session)} organization={session?.organization.name} />
      <main id="main" tabIndex={-1}>
        <Notices />
        {screen}
      </main>
    </>
  );
}
