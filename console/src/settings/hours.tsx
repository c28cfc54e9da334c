import { useEffect, useState } from 'preact/hooks';
import { answer, api } from '../api';
import { day } from '../format';
import { showProblem } from '../notices';
import { setOrganization } from '../organization';
import { WEEKDAYS, type Organization, type Weekday, type WeeklyHours } from '../types';
import { Loading, useAction, useLoad } from '../ui';
import { useMay } from '../roles';

const DAY_NAMES: Record<Weekday, string> = { monday: 'Monday', tuesday: 'Tuesday', wednesday: 'Wednesday', thursday: 'Thursday', friday: 'Friday', saturday: 'Saturday', sunday: 'Sunday' };

/** A day's periods as typed: `08:00-12:00, 13:00-17:00`; empty is closed. */
const periodsText = (periods: { open: string; close: string }[] | undefined) => (periods ?? []).map(({ open, close }) => `${open}-${close}`).join(', ');

const PERIOD = /^(\d{1,2}):?(\d{2})\s*(?:-|–|to)\s*(\d{1,2}):?(\d{2})$/;
const hhmm = (hours: string, minutes: string) => `${hours.padStart(2, '0')}:${minutes}`;

/** The week as PATCH /v1/organization takes it (the whole week replaces the stored one), or the first day that reads wrong. */
function weekOf(texts: Record<Weekday, string>): WeeklyHours | { wrong: Weekday } {
  const week: WeeklyHours = {};
  for (const weekday of WEEKDAYS) {
    const parts = texts[weekday].split(',').map((part) => part.trim()).filter(Boolean);
    const periods = parts.map((part) => PERIOD.exec(part));
    if (periods.some((found) => !found)) return { wrong: weekday };
    week[weekday] = periods.map((found) => ({ open: hhmm(found![1]!, found![2]!), close: hhmm(found![3]!, found![4]!) }));
  }
  return week;
}

/** What an editable part of the hours takes: a member who may not change them reads them, with no form to fail after. */
interface HoursPart {
  organization: Organization;
  onSaved: (organization: Organization) => void;
  editable: boolean;
}

function BusinessHours({ organization, onSaved, editable }: HoursPart) {
  const initial = () => Object.fromEntries(WEEKDAYS.map((weekday) => [weekday, periodsText(organization.businessHours?.[weekday])])) as Record<Weekday, string>;
  const [texts, setTexts] = useState(initial);
  const [busy, run] = useAction();
  useEffect(() => setTexts(initial()), [organization]);
  const save = (event: Event) => {
    event.preventDefault();
    const week = weekOf(texts);
    if ('wrong' in week) {
      showProblem(new Error(`${DAY_NAMES[week.wrong]}: write each period as 08:00-17:00, separated by commas, or leave the day empty for closed.`));
      return;
    }
    void run(async () => onSaved((await answer(api.PATCH('/v1/organization', { body: { businessHours: week } }))).organization), 'Hours saved.');
  };
  return (
    <form onSubmit={save}>
      <h3>Opening hours</h3>
      <p id="hours-hint" class="hint">
        In {organization.timezone} time. Each period as 08:00-17:00; several separated by commas; empty for closed.
      </p>
      <div class="week">
        {WEEKDAYS.map((weekday) => (
          <div key={weekday} class="field">
            <label for={`hours-${weekday}`}>{DAY_NAMES[weekday]}</label>
            <input id={`hours-${weekday}`} aria-describedby="hours-hint" readOnly={!editable} value={texts[weekday]} onInput={(e) => setTexts({ ...texts, [weekday]: e.currentTarget.value })} />
          </div>
        ))}
      </div>
      {editable ? (
        <button type="submit" class="primary" disabled={busy}>
          Save hours
        </button>
      ) : (
        <p class="hint">An admin changes the hours.</p>
      )}
    </form>
  );
}

function ClosedDates({ organization, onSaved, editable }: HoursPart) {
  const [date, setDate] = useState('');
  const [busy, run] = useAction();
  const saveDates = (closedDates: string[], done: string) =>
    run(async () => onSaved((await answer(api.PATCH('/v1/organization', { body: { closedDates } }))).organization), done);
  const reopen = (closed: string) => saveDates(organization.closedDates.filter((each) => each !== closed), `Open again on ${day(closed)}.`);
  const add = (event: Event) => {
    event.preventDefault();
    if (!date) return;
    void saveDates([...new Set([...organization.closedDates, date])].sort(), `Closed on ${day(date)}.`).then((saved) => saved && setDate(''));
  };
  return (
    <>
      <h3>Closed dates</h3>
      {organization.closedDates.length === 0 ? (
        <p>No closed dates.</p>
      ) : (
        <ul class="chips">
          {organization.closedDates.map((closed) => (
            <li key={closed}>
              <span id={`closed-${closed}`}>{day(closed)}</span>{' '}
              {editable && (
                <button type="button" class="quiet" aria-describedby={`closed-${closed}`} disabled={busy} onClick={() => reopen(closed)}>
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {editable && (
      <form class="inline-form" onSubmit={add}>
        <div class="field">
          <label for="closed-date">Closed date</label>
          <input id="closed-date" type="date" value={date} onInput={(e) => setDate(e.currentTarget.value)} />
        </div>
        <button type="submit" disabled={busy || !date}>
          Add closed date
        </button>
      </form>
      )}
    </>
  );
}

export function Hours() {
  const may = useMay();
  const loaded = useLoad((signal) => answer(api.GET('/v1/organization', { signal })).then(({ organization }) => organization), []);
  const saved = (organization: Organization) => {
    loaded.set(organization);
    setOrganization(organization);
  };
  return (
    <Loading loaded={loaded} what="hours">
      {(organization) => (
        <>
          <BusinessHours organization={organization} onSaved={saved} editable={may('PATCH /v1/organization')} />
          <ClosedDates organization={organization} onSaved={saved} editable={may('PATCH /v1/organization')} />
        </>
      )}
    </Loading>
  );
}
