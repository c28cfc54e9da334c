import { answer, api } from '../api';
import { when } from '../format';
import type { OAuthGrant } from '../types';
import { Loading, useAction, useLoad } from '../ui';

const SCOPE_WORDS: Record<OAuthGrant['scope'], string> = { read: 'May read', write: 'May read and change', full: 'May do everything' };

/** The assistants (Claude, ChatGPT…) an owner let act through the MCP server; revoking one refuses its tokens at once. */
export function Connections() {
  const loaded = useLoad((signal) => answer(api.GET('/v1/oauth/grants', { signal })).then(({ grants }) => grants), []);
  const [busy, run] = useAction();
  const revoke = (grant: OAuthGrant) =>
    run(async () => {
      await answer(api.DELETE('/v1/oauth/grants/{grantId}', { params: { path: { grantId: grant.id } } }));
      loaded.set((loaded.data ?? []).filter((each) => each.id !== grant.id));
    }, `${grant.clientName} is disconnected.`);
  return (
    <Loading loaded={loaded} what="connections">
      {(grants) =>
        grants.length === 0 ? (
          <p>No assistant is connected.</p>
        ) : (
          <ul class="items">
            {grants.map((grant) => (
              <li key={grant.id} class="item">
                <h3 id={`grant-${grant.id}`}>{grant.clientName}</h3>
                <p>
                  {SCOPE_WORDS[grant.scope]} · connected {when(grant.createdAt)} · last used {when(grant.lastUsedAt)}
                </p>
                <button type="button" class="danger" disabled={busy} aria-describedby={`grant-${grant.id}`} onClick={() => revoke(grant)}>
                  Revoke
                </button>
              </li>
            ))}
          </ul>
        )
      }
    </Loading>
  );
}
