import { consolePath } from '../base';
import { when } from '../format';
import { problemOf } from '../notices';
import { useSession } from '../session';
import { Page, useLoad, type Loaded } from '../ui';
import { segment } from '../url';
import { failingWebhooks, lastVisit, liveHolds, newInquiries, QUIET_DAYS, quietQuotes, STOPPED_DAYS, stoppedOnReply, unreadCalls, type Count } from './today-counts';

interface Tile {
  /** What is counted, after the number: "new inquiries since your last visit". */
  label: string;
  load: (signal: AbortSignal) => Promise<Count>;
  /** The filtered list the count is of. */
  href: string;
}

/** One count, a link into the list it counts; each reads on its own, so a slow one holds back no other. */
function CountTile({ tile }: { tile: Tile }) {
  return <Counted label={tile.label} href={tile.href} loaded={useLoad(tile.load, [tile.href])} />;
}

/** A tile's figure as its read stands: the count, `?` when the read failed, `…` meanwhile. */
function Counted({ label, href, loaded }: { label: string; href: string; loaded: Pick<Loaded<Count>, 'data' | 'error'> }) {
  const figure = loaded.data ? `${loaded.data.count}${loaded.data.atLeast ? '+' : ''}` : loaded.error ? '?' : '…';
  return (
    <li class="tile">
      <a href={href}>
        <span class="figure">{figure}</span> <span>{label}</span>
      </a>
      {loaded.error !== undefined && <p class="error-text">Could not count: {problemOf(loaded.error).message}</p>}
    </li>
  );
}

export function Today() {
  const session = useSession();
  const holds = useLoad(liveHolds, []);
  const since = lastVisit();
  const inbox = consolePath('/inbox');
  const tiles: Tile[] = [
    { label: `new inquiries since your last visit (${when(since)})`, load: (signal) => newInquiries(since, signal), href: `${inbox}?since=${encodeURIComponent(since)}&from=customers` },
    { label: 'unread calls the receptionist missed', load: (signal) => unreadCalls('MISSED', signal), href: `${inbox}?source=CALL&outcome=MISSED&show=unread` },
    { label: 'unread calls the receptionist transferred', load: (signal) => unreadCalls('TRANSFERRED', signal), href: `${inbox}?source=CALL&outcome=TRANSFERRED&show=unread` },
    { label: `quotes gone quiet for ${QUIET_DAYS} days or more`, load: quietQuotes, href: `${consolePath('/pipeline')}?status=QUOTED&quietDays=${QUIET_DAYS}` },
    { label: `automation runs a reply stopped in the last ${STOPPED_DAYS} days`, load: stoppedOnReply, href: `${consolePath('/automations')}?stopped=lead.replied` },
  ];
  // Webhooks are an admin's alone (a MANAGER's or MEMBER's session is refused them).
  if (session?.member.role === 'ADMIN') tiles.push({ label: 'failing webhooks', load: failingWebhooks, href: `${consolePath('/settings')}?webhooks=failing#webhooks` });
  return (
    <Page title="Today">
      {session && <p>Hello {session.member.firstName}. Here is what needs you.</p>}
      <ul class="tiles">
        {tiles.map((tile) => (
          <CountTile key={tile.href} tile={tile} />
        ))}
        {/* The holds' one read gives the count and the list below. */}
        <Counted label="slots held for callers, about to expire" href="#holds" loaded={{ data: holds.data?.count, error: holds.error }} />
      </ul>
      <Holds loaded={holds} />
    </Page>
  );
}

/** The slots held for callers right now (a hold lasts minutes, then frees its slot), the one to expire first first. */
function Holds({ loaded }: { loaded: Loaded<Awaited<ReturnType<typeof liveHolds>>> }) {
  const holds = loaded.data?.holds ?? [];
  return (
    <section id="holds" aria-labelledby="holds-title">
      <h2 id="holds-title">Held slots</h2>
      {loaded.error !== undefined && <p class="error-text">Could not read the holds: {problemOf(loaded.error).message}</p>}
      {loaded.data && holds.length === 0 && <p>No slot is held right now.</p>}
      {holds.length > 0 && (
        <ul>
          {holds.map((hold) => (
            <li key={hold.id}>
              {when(hold.startsAt)} with {loaded.data?.memberNames.get(hold.memberId) ?? `member ${hold.memberId}`}: held until {when(hold.expiresAt)}
              {hold.leadId && (
                <>
                  {' '}
                  for <a href={consolePath(`/leads/${segment(hold.leadId)}`)}>the lead</a>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
