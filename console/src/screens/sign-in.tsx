import { browserSupportsWebAuthn, startAuthentication } from '@simplewebauthn/browser';
import { useEffect, useRef, useState } from 'preact/hooks';
import { answer, api, ApiError } from '../api';
import { announce } from '../notices';
import { assertionBody, requestOptions } from '../passkeys';
import { isConsolePath, returnTarget } from '../return-to';
import { navigate, usePlace } from '../router';
import { sessionEnded, setSession, useSession } from '../session';
import { useStore } from '../store';
import type { Session } from '../types';
import { Page, useAction } from '../ui';

/** The region of the browser's language (`en-AU` → `AU`), which national phone forms are read in; none without one. */
const browserCountry = (): string | undefined => {
  const region = navigator.languages.map((tag) => /^[a-z]{2,3}-([A-Z]{2})\b/i.exec(tag)?.[1]).find(Boolean);
  return region?.toUpperCase();
};

interface Choice {
  id: string;
  name: string;
}

/** 409 CHOOSE_ORGANIZATION names each organization as a detail `<id>: <name>`. */
const choicesOf = (details: string[]): Choice[] =>
  details.map((detail) => {
    const at = detail.indexOf(': ');
    return at < 0 ? { id: detail, name: detail } : { id: detail.slice(0, at), name: detail.slice(at + 2) };
  });

/** Off to the page the person asked for: a console screen in place, any other same-origin page (OAuth consent) loaded. */
function goBack(asked: string | null) {
  const target = returnTarget(asked);
  if (isConsolePath(target)) navigate(target, { replace: true });
  else location.assign(target);
}

export function SignIn() {
  const { query } = usePlace();
  const session = useSession();
  const ended = useStore(sessionEnded);
  const asked = query.get('return');
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [codeSent, setCodeSent] = useState(false);
  const [choices, setChoices] = useState<Choice[] | null>(null);
  const [organizationId, setOrganizationId] = useState('');
  const [busy, run] = useAction();
  const codeField = useRef<HTMLInputElement>(null);

  // Signed in already (another tab, or the consent page sent a signed-in owner): straight back.
  useEffect(() => {
    if (session) goBack(asked);
  }, [session]);

  useEffect(() => {
    if (codeSent) codeField.current?.focus();
  }, [codeSent]);

  // The phone as typed and, for a national form (0491 570 110), the browser's region, which the API reads it in.
  const typed = () => {
    const country = /^\s*(\+|00)/.test(phone) ? undefined : browserCountry();
    return { phone: phone.trim(), ...(country ? { country } : {}) };
  };
  const signedIn = ({ session: started }: { session: Session }) => setSession(started);

  const sendCode = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const { expiresInSeconds } = await answer(api.POST('/v1/sign-in/codes', { body: typed() }));
      setCodeSent(true);
      setChoices(null);
      announce(`If this phone belongs to a member, a code is on its way. It lasts ${Math.round(expiresInSeconds / 60)} minutes.`);
    });
  };

  const signInWithCode = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      try {
        signedIn(await answer(api.POST('/v1/sign-in/sessions', { body: { ...typed(), code, ...(organizationId ? { organizationId } : {}) } })));
      } catch (error) {
        if (!(error instanceof ApiError && error.code === 'CHOOSE_ORGANIZATION')) throw error;
        setChoices(choicesOf(error.details));
        announce('You belong to more than one organization: choose one, then sign in.');
      }
    });
  };

  const signInWithPasskey = () =>
    run(async () => {
      if (!browserSupportsWebAuthn()) throw new Error('This browser cannot use passkeys. Sign in with a code instead.');
      const { options } = await answer(api.POST('/v1/sign-in/passkey-options'));
      const credential = await startAuthentication({ optionsJSON: requestOptions(options) });
      signedIn(await answer(api.POST('/v1/sign-in/passkey', { body: { credential: assertionBody(credential) } })));
    });

  return (
    <Page title="Sign in">
      {ended && <p class="problem">Your session ended: sign in again to go on.</p>}
      <p>Sign in with a code we text to your phone, or with a passkey on this device.</p>
      <form class="stack" onSubmit={sendCode}>
        <label for="sign-in-phone">Phone</label>
        <p id="sign-in-phone-hint" class="hint">
          The mobile number your organization has for you: 0412 345 678, or with its country code, +61 412 345 678.
        </p>
        <input id="sign-in-phone" type="tel" autocomplete="tel" required aria-describedby="sign-in-phone-hint" value={phone} onInput={(e) => setPhone(e.currentTarget.value)} />
        <button type="submit" disabled={busy || !phone.trim()}>
          Text me a code
        </button>
      </form>
      {codeSent && (
        <form class="stack" onSubmit={signInWithCode}>
          <label for="sign-in-code">Code</label>
          <input
            id="sign-in-code"
            ref={codeField}
            inputMode="numeric"
            autocomplete="one-time-code"
            required
            value={code}
            onInput={(e) => setCode(e.currentTarget.value.trim())}
          />
          {choices && (
            <fieldset>
              <legend>Choose an organization</legend>
              {choices.map((choice) => (
                <label key={choice.id} class="choice">
                  <input type="radio" name="organization" value={choice.id} required checked={organizationId === choice.id} onChange={() => setOrganizationId(choice.id)} />{' '}
                  {choice.name}
                </label>
              ))}
            </fieldset>
          )}
          <button type="submit" class="primary" disabled={busy || !code}>
            Sign in
          </button>
        </form>
      )}
      <div class="stack">
        <p class="or">Or</p>
        <button type="button" onClick={signInWithPasskey} disabled={busy}>
          Sign in with a passkey
        </button>
      </div>
    </Page>
  );
}
