import { useState } from 'preact/hooks';
import { answer, api, listUntil } from '../api';
import { memberName, useMembers } from '../members';
import { useMay } from '../roles';
import { useAction, useLoad } from '../ui';

/** How many of the earliest free times are offered: a week's first few, each with whoever is free then. */
const OFFERED = 8;

type Slot = Awaited<ReturnType<typeof findSlots>>['slots'][number];
const findSlots = (serviceId: number) => answer(api.GET('/v1/availability', { params: { query: { serviceId } } }));

/**
 * Booking the lead for a service, with the times the API finds free (GET /v1/availability, the next 7 days): the slot
 * chosen is held for its member first (POST /v1/availability/holds), so no one else takes it meanwhile, then booked
 * from the hold (POST /v1/appointments with `holdId`), as the receptionist books on a call.
 */
export function BookAppointment({ leadId, onBooked }: { leadId: string; onBooked: () => void }) {
  const may = useMay();
  const [busy, run] = useAction();
  const [serviceId, setServiceId] = useState(0);
  const [found, setFound] = useState<Awaited<ReturnType<typeof findSlots>> | null>(null);
  const members = useMembers();
  const offer = useLoad(async (signal) => {
    const { items } = await listUntil((limit, cursor) => api.GET('/v1/services', { params: { query: { limit, cursor } }, signal }), 'services');
    return { services: items.filter((service) => service.isActive) };
  }, []);
  if (!may('POST /v1/availability/holds') || !may('POST /v1/appointments')) return null;
  const services = offer.data?.services ?? [];
  const chosen = services.find((service) => service.id === serviceId) ?? services[0];
  const nameOf = (memberId: number) => memberName(memberId, members);

  const find = (event: Event) => {
    event.preventDefault();
    if (chosen) void run(async () => setFound(await findSlots(chosen.id)));
  };
  const book = (slot: Slot, memberId: number) =>
    run(async () => {
      const { hold } = await answer(api.POST('/v1/availability/holds', { body: { serviceId: chosen!.id, startsAt: slot.startsAt, memberId, leadId } }));
      await answer(api.POST('/v1/appointments', { body: { leadId, holdId: hold.id } }));
      setFound(null);
      onBooked();
    }, `Booked: ${chosen!.name}, ${slot.startsAtLabel}, with ${nameOf(memberId)}.`);

  return (
    <div class="book">
      <h3>Book an appointment</h3>
      {services.length === 0 ? (
        <p>{offer.loading ? 'Reading the services…' : 'No service is offered yet: add one in Settings.'}</p>
      ) : (
        <form class="inline-form" onSubmit={find}>
          <div class="field">
            <label for="book-service">Service</label>
            <select id="book-service" value={chosen?.id} onChange={(e) => (setServiceId(Number(e.currentTarget.value)), setFound(null))}>
              {services.map((service) => (
                <option key={service.id} value={service.id}>
                  {service.name}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" disabled={busy}>
            Find free times
          </button>
        </form>
      )}
      {found && found.slots.length === 0 && <p>{found.notice?.message ?? 'No free time in the next 7 days.'}</p>}
      {found && found.slots.length > 0 && (
        <ul class="slots" aria-label="Free times">
          {found.slots.slice(0, OFFERED).flatMap((slot) =>
            slot.memberIds.map((memberId) => (
              <li key={`${slot.startsAt}-${memberId}`}>
                <button type="button" disabled={busy} onClick={() => void book(slot, memberId)}>
                  {slot.startsAtLabel}, with {nameOf(memberId)}
                </button>
              </li>
            )),
          )}
        </ul>
      )}
    </div>
  );
}
