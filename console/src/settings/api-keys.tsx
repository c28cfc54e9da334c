import { useState } from 'preact/hooks';
import { answer, api } from '../api';
import { when } from '../format';
import { announce, showProblem } from '../notices';
import type { ApiKeySummary } from '../types';
import { Loading, useAction, useLoad } from '../ui';

// GET /v1/api-keys → { keys }, POST /v1/api-keys { name, scope } → 201 { key } with its token (the token's only
// appearance), DELETE /v1/api-keys/{keyId}: an ADMIN's alone.

const SCOPE_WORDS: Record<ApiKeySummary['scope'], string> = {
  read: 'Read: look up records',
  write: 'Write: also create and change records',
  full: 'Full: everything, deleting included',
};

/** A secret shown once (a key's token, a webhook's signing secret): a read-only field to select and a button that copies it. */
export function ShownOnce({ id, label, value, onDone }: { id: string; label: string; value: string; onDone: () => void }) {
  // The clipboard needs a secure context; without one, the field is there to select.
  const copy = () =>
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(value))
      .then(
      () => announce('Copied.'),
      () => showProblem(new Error('The browser would not copy: select it and copy it yourself.')),
    );
  return (
    <div class="once" role="group" aria-labelledby={`${id}-label`}>
      <label id={`${id}-label`} for={id}>
        {label}
      </label>
      <p id={`${id}-hint`} class="hint">
        Shown only now: copy it and keep it somewhere safe. Nobody can show it again.
      </p>
      <input id={id} readOnly value={value} aria-describedby={`${id}-hint`} onFocus={(e) => e.currentTarget.select()} />
      <div class="actions">
        <button type="button" class="primary" onClick={copy}>
          Copy
        </button>
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

export function ApiKeys() {
  const loaded = useLoad((signal) => answer(api.GET('/v1/api-keys', { signal })).then(({ keys }) => keys), []);
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeySummary['scope']>('read');
  const [token, setToken] = useState<string | null>(null);
  const [busy, run] = useAction();

  const create = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const { key } = await answer(api.POST('/v1/api-keys', { body: { name: name.trim(), scope } }));
      const { token: made, ...summary } = key;
      loaded.set([summary, ...(loaded.data ?? [])]);
      setToken(made);
      setName('');
    }, 'Key created: copy it now, it is shown only once.');
  };
  const revoke = (key: ApiKeySummary) =>
    run(async () => {
      await answer(api.DELETE('/v1/api-keys/{keyId}', { params: { path: { keyId: key.id } } }));
      loaded.set((loaded.data ?? []).map((each) => (each.id === key.id ? { ...each, revokedAt: new Date().toISOString() } : each)));
    }, `${key.name ?? 'The key'} revoked: it no longer works, nor do the connections it granted.`);

  return (
    <>
      <p>Keys let your other tools use the API. Revoking one stops it at once.</p>
      {/* The form only once the list is read: a member whose role may not manage keys is told so, and offered nothing. */}
      <Loading loaded={loaded} what="keys">
        {(keys) => (
          <>
            <form class="inline-form" onSubmit={create}>
              <div class="field">
                <label for="key-name">Key name</label>
                <input id="key-name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
              </div>
              <div class="field">
                <label for="key-scope">What it may do</label>
                <select id="key-scope" value={scope} onChange={(e) => setScope(e.currentTarget.value as ApiKeySummary['scope'])}>
                  {Object.entries(SCOPE_WORDS).map(([value, words]) => (
                    <option key={value} value={value}>
                      {words}
                    </option>
                  ))}
                </select>
              </div>
              <button type="submit" class="primary" disabled={busy}>
                Create key
              </button>
            </form>
            {token && <ShownOnce id="new-key" label="Your new key" value={token} onDone={() => setToken(null)} />}
            {keys.length === 0 ? (
            <p>No keys yet.</p>
          ) : (
            <ul class="items">
              {keys.map((key) => (
                <li key={key.id} class="item">
                  <h3 id={`key-${key.id}`}>{key.name ?? key.id}</h3>
                  <p>
                    {SCOPE_WORDS[key.scope]} · created {when(key.createdAt)} · last used {when(key.lastUsedAt)}
                    {key.expiresAt && ` · expires ${when(key.expiresAt)}`}
                  </p>
                  {key.revokedAt ? (
                    <p>Revoked {when(key.revokedAt)}</p>
                  ) : (
                    <button type="button" class="danger" disabled={busy} aria-describedby={`key-${key.id}`} onClick={() => revoke(key)}>
                      Revoke
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
          </>
        )}
      </Loading>
    </>
  );
}
