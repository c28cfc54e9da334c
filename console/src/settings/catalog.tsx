import { useState } from 'preact/hooks';
import { answer, api, listUntil } from '../api';
import { money } from '../format';
import { useOrganization } from '../organization';
import type { OfferChanges, Product, Service } from '../types';
import { Loading, useAction, useLoad } from '../ui';
import { useMay } from '../roles';

type Offer = Service | Product;
/** The two lists of offers, by their lists' names (`/v1/services`, `/v1/products`). */
type Kind = 'services' | 'products';

/** The offers of a kind, every page. */
const offersOf = (kind: Kind, signal: AbortSignal): Promise<Offer[]> =>
  kind === 'services'
    ? listUntil((limit, cursor) => api.GET('/v1/services', { params: { query: { limit, cursor } }, signal }), 'services').then(({ items }) => items)
    : listUntil((limit, cursor) => api.GET('/v1/products', { params: { query: { limit, cursor } }, signal }), 'products').then(({ items }) => items);

/** An offer changed: its kind's PATCH, answering the offer as it now is. */
const saveOffer = (kind: Kind, id: number, changes: OfferChanges): Promise<Offer> =>
  kind === 'services'
    ? answer(api.PATCH('/v1/services/{serviceId}', { params: { path: { serviceId: id } }, body: changes })).then(({ service }) => service)
    : answer(api.PATCH('/v1/products/{productId}', { params: { path: { productId: id } }, body: changes })).then(({ product }) => product);

/** What a service or product costs, in words; the API's other pricing fields are edited elsewhere for now. */
function priceWords(offer: Offer, currency: string): string {
  if (offer.pricingType === 'FIXED') return money(offer.price, currency);
  if (offer.pricingType === 'NONE') return 'No price given';
  return `Priced ${offer.pricingType.toLowerCase().replace('_', '-')}`;
}

/** The simple edit: name, description, a fixed price, and whether it is offered (PATCH with what changed). */
function OfferForm({ offer, kind, onSaved, onClose }: { offer: Offer; kind: Kind; onSaved: (offer: Offer) => void; onClose: () => void }) {
  const [name, setName] = useState(offer.name);
  const [description, setDescription] = useState(offer.description);
  const [price, setPrice] = useState(offer.price === null ? '' : String(offer.price));
  const [isActive, setActive] = useState(offer.isActive);
  const [busy, run] = useAction();
  const id = `${kind}-${offer.id}`;
  const save = (event: Event) => {
    event.preventDefault();
    const changes: OfferChanges = { name, description, isActive };
    if (offer.pricingType === 'FIXED') changes.price = Number(price);
    void run(async () => {
      onSaved(await saveOffer(kind, offer.id, changes));
      onClose();
    }, `${name} saved.`);
  };
  return (
    <form class="stack edit" onSubmit={save}>
      <label for={`${id}-name`}>Name</label>
      <input id={`${id}-name`} required value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <label for={`${id}-description`}>Description</label>
      <textarea id={`${id}-description`} rows={2} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      {offer.pricingType === 'FIXED' && (
        <>
          <label for={`${id}-price`}>Price</label>
          <input id={`${id}-price`} type="number" min="0" step="0.01" required value={price} onInput={(e) => setPrice(e.currentTarget.value)} />
        </>
      )}
      <label class="choice">
        <input type="checkbox" checked={isActive} onChange={(e) => setActive(e.currentTarget.checked)} /> Offered to customers
      </label>
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          Save
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function Offers({ title, kind }: { title: string; kind: Kind }) {
  const currency = useOrganization()?.currency ?? 'AUD';
  const loaded = useLoad((signal) => offersOf(kind, signal), [kind]);
  const [editing, setEditing] = useState<number | null>(null);
  const editable = useMay()(kind === 'services' ? 'PATCH /v1/services/{serviceId}' : 'PATCH /v1/products/{productId}');
  return (
    <>
      <h3>{title}</h3>
      <Loading loaded={loaded} what={title.toLowerCase()}>
        {(offers) =>
          offers.length === 0 ? (
            <p>None yet.</p>
          ) : (
            <ul class="items">
              {offers.map((offer) => {
                const headingId = `${kind}-${offer.id}`;
                return (
                  <li key={offer.id} class="item">
                    <h4 id={headingId}>{offer.name}</h4>
                    <p>
                      {priceWords(offer, currency)} · {offer.isActive ? 'Offered' : 'Not offered'}
                    </p>
                    {editing === offer.id ? (
                      <OfferForm offer={offer} kind={kind} onSaved={(saved) => loaded.set(offers.map((each) => (each.id === saved.id ? saved : each)))} onClose={() => setEditing(null)} />
                    ) : (
                      editable && (
                        <button type="button" aria-describedby={headingId} onClick={() => setEditing(offer.id)}>
                          Edit
                        </button>
                      )
                    )}
                  </li>
                );
              })}
            </ul>
          )
        }
      </Loading>
    </>
  );
}

export function Catalog() {
  return (
    <>
      <Offers title="Services" kind="services" />
      <Offers title="Products" kind="products" />
    </>
  );
}
