import { useEffect, useState } from 'preact/hooks';
import { answer, api } from '../api';
import { consolePath } from '../base';
import { leadName, STATUS_LABELS } from '../format';
import { navigate, usePlace } from '../router';
import { query, segment } from '../url';
import { Loading, Page, useLoad } from '../ui';

/** How many of each kind a search shows: the first page, with the whole count beside it. */
const SHOWN = 25;

/**
 * Search, from every screen (the main navigation's link): leads by a name's start, a phone as typed or an email, and
 * companies by their name's start, each the API's own search (GET /v1/leads?q=, GET /v1/companies?q=), its count exact.
 */
export function Search() {
  const { query: asked } = usePlace();
  const q = (asked.get('q') ?? '').trim();
  const [typed, setTyped] = useState(q);
  useEffect(() => setTyped(q), [q]);
  const found = useLoad(
    async (signal) => {
      if (!q) return null;
      // Companies are found by name only: a phone or an email finds leads.
      const [leads, companies] = await Promise.all([
        answer(api.GET('/v1/leads', { params: { query: { q, limit: SHOWN } }, signal })),
        q.includes('@') ? { companies: [], totalCount: 0 } : answer(api.GET('/v1/companies', { params: { query: { q: q.slice(0, 200), limit: SHOWN } }, signal })),
      ]);
      return { leads, companies };
    },
    [q],
  );
  return (
    <Page title="Search">
      <form
        role="search"
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          navigate(`${consolePath('/search')}${query({ q: typed.trim() })}`, { sameScreen: true });
        }}
      >
        <div class="field">
          <label for="search-q">Name, phone or email</label>
          <input id="search-q" type="search" value={typed} maxLength={254} autoComplete="off" onInput={(e) => setTyped(e.currentTarget.value)} />
        </div>
        <button type="submit" class="primary" disabled={!typed.trim()}>
          Search
        </button>
      </form>
      {!q && <p class="muted">Type the start of a name, a phone number as you have it, or an email.</p>}
      {q && (
        <Loading loaded={found} what="what was found">
          {(results) =>
            results && (
              <>
                <section aria-labelledby="found-leads">
                  <h2 id="found-leads">Leads ({results.leads.totalCount})</h2>
                  {results.leads.leads.length === 0 ? (
                    <p class="muted">No lead matches “{q}”.</p>
                  ) : (
                    <ul class="found">
                      {results.leads.leads.map((lead) => (
                        <li key={lead.id}>
                          <a href={consolePath(`/leads/${segment(lead.id)}`)}>{leadName(lead)}</a>
                          <span class="muted"> · {STATUS_LABELS[lead.status]}{lead.phone ? ` · ${lead.phone}` : ''}{lead.email ? ` · ${lead.email}` : ''}</span>
                        </li>
                      ))}
                    </ul>
                  )}
                </section>
                <section aria-labelledby="found-companies">
                  <h2 id="found-companies">Companies ({results.companies.totalCount})</h2>
                  {results.companies.companies.length === 0 ? (
                    <p class="muted">No company’s name starts with “{q}”.</p>
                  ) : (
                    <ul class="found">
                      {results.companies.companies.map((company) => (
                        <li key={company.id}>
                          <strong>{company.name}</strong>
                          {company.phone && (
                            <>
                              {' · '}
                              <a href={`tel:${company.phone}`}>{company.phone}</a>
                            </>
                          )}
                          {company.email && (
                            <>
                              {' · '}
                              <a href={`mailto:${company.email}`}>{company.email}</a>
                            </>
                          )}
                        </li>
                      ))}
                    </ul>
                  )}
                </section>
              </>
            )
          }
        </Loading>
      )}
    </Page>
  );
}
