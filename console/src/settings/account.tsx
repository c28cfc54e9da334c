import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import { useState } from 'preact/hooks';
import { answer, api } from '../api';
import { consolePath } from '../base';
import { when } from '../format';
import { creationOptions, registrationBody } from '../passkeys';
import { navigate } from '../router';
import { setSession } from '../session';
import { Loading, useAction, useLoad } from '../ui';

/** The member's passkeys (GET /v1/me) and a new one: options, the browser's ceremony, then the credential kept. */
export function Passkeys() {
  const loaded = useLoad((signal) => answer(api.GET('/v1/me', { signal })).then(({ session }) => session.passkeys), []);
  const [name, setName] = useState('');
  const [busy, run] = useAction();
  const add = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      if (!browserSupportsWebAuthn()) throw new Error('This browser cannot make passkeys.');
      const { options } = await answer(api.POST('/v1/me/passkey-options'));
      const credential = await startRegistration({ optionsJSON: creationOptions(options) });
      const { passkey } = await answer(api.POST('/v1/me/passkeys', { body: { credential: registrationBody(credential), ...(name.trim() ? { name: name.trim() } : {}) } }));
      loaded.set([...(loaded.data ?? []), passkey]);
      setName('');
    }, 'Passkey added: you can sign in with it next time.');
  };
  // A lost phone's passkey: it signs in no more, at once; this session goes on.
  const remove = (passkey: { id: string; name: string }) =>
    run(async () => {
      await answer(api.DELETE('/v1/me/passkeys/{passkeyId}', { params: { path: { passkeyId: passkey.id } } }));
      loaded.set((loaded.data ?? []).filter((each) => each.id !== passkey.id));
    }, `${passkey.name} removed: it signs you in no more.`);
  return (
    <>
      <Loading loaded={loaded} what="passkeys">
        {(passkeys) =>
          passkeys.length === 0 ? (
            <p>No passkeys yet: you sign in with a texted code.</p>
          ) : (
            <ul>
              {passkeys.map((passkey) => (
                <li key={passkey.id}>
                  <span id={`passkey-${passkey.id}`}>
                    {passkey.name}, added {when(passkey.createdAt)}
                  </span>{' '}
                  <button type="button" class="danger" disabled={busy} aria-describedby={`passkey-${passkey.id}`} onClick={() => remove(passkey)}>
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Loading>
      <form class="inline-form" onSubmit={add}>
        <div class="field">
          <label for="passkey-name">Passkey name (optional)</label>
          <input id="passkey-name" placeholder="My phone" value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </div>
        <button type="submit" class="primary" disabled={busy}>
          Add a passkey
        </button>
      </form>
    </>
  );
}

/** Ends this browser's session, or every session of the member; then the sign-in screen, with nowhere to return to. */
export function SignOut() {
  const [busy, run] = useAction();
  const signOut = (everywhere: boolean) =>
    run(async () => {
      await answer(everywhere ? api.DELETE('/v1/me/sessions') : api.DELETE('/v1/me/session'));
      // The sign-in screen first, so the shell sends nobody back here after the next sign-in.
      navigate(consolePath('/sign-in'));
      setSession(null);
    });
  return (
    <div class="actions">
      <button type="button" disabled={busy} onClick={() => signOut(false)}>
        Sign out
      </button>
      <button type="button" class="danger" disabled={busy} onClick={() => signOut(true)}>
        Sign out everywhere
      </button>
    </div>
  );
}
