import { useState } from 'preact/hooks';
import { answer, api, listUntil } from '../api';
import { consolePath } from '../base';
import { timeZone } from '../format';
import { memberName, useMembers } from '../members';
import { useMay } from '../roles';
import { usePlace } from '../router';
import { useStore } from '../store';
import type { Appointment, AppointmentChanges } from '../types';
import { query, segment } from '../url';
import { Loading, Page, useAction, useLoad } from '../ui';
import { addDays, dayOf, instantOf, mondayOf, wallClock } from '../zoned';

const BROWSER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const STATUS_WORDS: Record<Appointment['status'], string> = { BOOKED: 'Booked', CANCELLED: 'Cancelled', COMPLETED: 'Completed', NO_SHOW: 'No-show' };
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A day's heading on the business's calendar: "Monday 30 November". */
const dayWords = (day: string) => new Intl.DateTimeFormat(undefined, { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(`${day}T00:00:00Z`));
/** A time on the business's clock: "9:00 am". */
const clockIn = (iso: string, zone: string) => new Intl.DateTimeFormat(undefined, { timeZone: zone, hour: 'numeric', minute: '2-digit' }).format(new Date(iso));

/** The day's or week's appointments (their times within it) and the receptionist's live holds. */
async function readSchedule(from: number, to: number, signal: AbortSignal) {
  const range = { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
  const [appointments, holds] = await Promise.all([
    listUntil((limit, cursor) => api.GET('/v1/appointments', { params: { query: { ...range, limit, cursor } }, signal }), 'appointments', { max: 1000 }),
    answer(api.GET('/v1/availability/holds', { params: { query: { limit: 100 } }, signal })),
  ]);
  return { appointments: appointments.items, holds: holds.holds.filter((hold) => Date.parse(hold.startsAt) >= from && Date.parse(hold.startsAt) < to) };
}

/**
 * The schedule: a day's or a week's appointments, each member's apart, and the slots the receptionist holds for callers
 * on a call, on the business's clock (the organization's timezone, wherever the browser is). A booked appointment is
 * moved (its length kept) or cancelled here; booking is from a lead, with the API's availability.
 */
export function Schedule() {
  const { query: asked } = usePlace();
  const zone = useStore(timeZone) ?? BROWSER_ZONE;
  const week = asked.get('view') === 'week';
  const today = dayOf(Date.now(), zone);
  const day = DAY.test(asked.get('day') ?? '') ? asked.get('day')! : today;
  const first = week ? mondayOf(day) : day;
  const days = Array.from({ length: week ? 7 : 1 }, (_, at) => addDays(first, at));
  const from = instantOf(days[0]!, zone);
  const to = instantOf(addDays(days.at(-1)!, 1), zone);
  const loaded = useLoad((signal) => readSchedule(from, to, signal), [from, to]);
  const at = (shown: string, view = week) => `${consolePath('/schedule')}${query({ day: shown, view: view ? 'week' : null })}`;
  const step = week ? 7 : 1;

  return (
    <Page title="Schedule">
      <nav aria-label="Schedule days" class="inline-form">
        <a href={at(addDays(first, -step))}>{week ? 'Previous week' : 'Previous day'}</a>
        <a href={at(today)}>Today</a>
        <a href={at(addDays(first, step))}>{week ? 'Next week' : 'Next day'}</a>
        <a href={at(day, !week)}>{week ? 'Day view' : 'Week view'}</a>
      </nav>
      <p class="hint">Times on the business’s clock ({zone}).</p>
      <Loading loaded={loaded} what="the schedule">
        {(schedule) => (
          <>
            {days.map((shown) => (
              <Day key={shown} day={shown} zone={zone} schedule={schedule} onChanged={(changed) => loaded.set({ ...schedule, appointments: schedule.appointments.map((one) => (one.id === changed.id ? changed : one)) })} />
            ))}
          </>
        )}
      </Loading>
    </Page>
  );
}

function Day({ day, zone, schedule, onChanged }: { day: string; zone: string; schedule: Awaited<ReturnType<typeof readSchedule>>; onChanged: (appointment: Appointment) => void }) {
  const onDay = <T extends { startsAt: string }>(items: T[]) => items.filter((item) => dayOf(Date.parse(item.startsAt), zone) === day).sort((a, b) => a.startsAt.localeCompare(b.startsAt));
  const appointments = onDay(schedule.appointments);
  const holds = onDay(schedule.holds);
  const members = useMembers();
  const nameOfUser = (userId: string) => {
    const member = members?.find((one) => one.user?.id === userId);
    return member ? `${member.firstName} ${member.lastName}` : members ? 'A former member' : 'A member';
  };
  // Each member's appointments apart; one with no attendee is the business's.
  const byWho = new Map<string, Appointment[]>();
  for (const appointment of appointments) {
    for (const who of appointment.attendees.length ? appointment.attendees.map(({ userId }) => nameOfUser(userId)) : ['No one assigned']) byWho.set(who, [...(byWho.get(who) ?? []), appointment]);
  }
  return (
    <section aria-labelledby={`day-${day}`}>
      <h2 id={`day-${day}`}>{dayWords(day)}</h2>
      {appointments.length === 0 && holds.length === 0 && <p>Nothing booked.</p>}
      {[...byWho].map(([who, booked]) => (
        <div key={who}>
          <h3>{who}</h3>
          <ul class="appointments">
            {booked.map((appointment) => (
              <AppointmentLine key={appointment.id} appointment={appointment} zone={zone} onChanged={onChanged} />
            ))}
          </ul>
        </div>
      ))}
      {holds.length > 0 && (
        <div>
          <h3>Held for callers</h3>
          <ul>
            {holds.map((hold) => (
              <li key={hold.id}>
                {clockIn(hold.startsAt, zone)}–{clockIn(hold.endsAt, zone)} with {memberName(hold.memberId, members)}, held until {clockIn(hold.expiresAt, zone)}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

/** One appointment: its times, title and lead; a booked one moved to another start (its length kept) or cancelled. */
function AppointmentLine({ appointment, zone, onChanged }: { appointment: Appointment; zone: string; onChanged: (appointment: Appointment) => void }) {
  const may = useMay();
  const [busy, run] = useAction();
  const [moving, setMoving] = useState(false);
  const [startsAt, setStartsAt] = useState(() => wallClock(Date.parse(appointment.startsAt), zone).slice(0, 16));
  const change = (body: AppointmentChanges, done: string) =>
    run(async () => onChanged((await answer(api.PATCH('/v1/appointments/{appointmentId}', { params: { path: { appointmentId: appointment.id } }, body }))).appointment), done);
  const move = (event: Event) => {
    event.preventDefault();
    const start = instantOf(startsAt, zone);
    const length = Date.parse(appointment.endsAt) - Date.parse(appointment.startsAt);
    void change({ startsAt: new Date(start).toISOString(), endsAt: new Date(start + length).toISOString() }, `${appointment.title} moved.`).then((moved) => moved && setMoving(false));
  };
  const cancel = () => {
    if (confirm(`Cancel ${appointment.title}? The time is freed.`)) void change({ status: 'CANCELLED' }, `${appointment.title} cancelled.`);
  };
  const booked = appointment.status === 'BOOKED' && may('PATCH /v1/appointments/{appointmentId}');
  return (
    <li class="appointment">
      <p>
        <strong>
          {clockIn(appointment.startsAt, zone)}–{clockIn(appointment.endsAt, zone)}
        </strong>{' '}
        <a href={consolePath(`/leads/${segment(appointment.leadId)}`)}>{appointment.title}</a>
        {appointment.status !== 'BOOKED' && ` · ${STATUS_WORDS[appointment.status]}`}
      </p>
      {booked && !moving && (
        <div class="actions">
          <button type="button" disabled={busy} onClick={() => setMoving(true)}>
            Move
          </button>
          <button type="button" class="danger" disabled={busy} onClick={cancel}>
            Cancel appointment
          </button>
        </div>
      )}
      {booked && moving && (
        <form class="inline-form" onSubmit={move}>
          <div class="field">
            <label for={`move-${appointment.id}`}>New start</label>
            <input id={`move-${appointment.id}`} type="datetime-local" value={startsAt} onInput={(e) => setStartsAt(e.currentTarget.value)} />
          </div>
          <button type="submit" class="primary" disabled={busy || !startsAt}>
            Save the new time
          </button>
          <button type="button" onClick={() => setMoving(false)}>
            Keep the time
          </button>
        </form>
      )}
    </li>
  );
}
