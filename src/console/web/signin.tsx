/**
 * Sign-in: platform credentials (client id and secret) or the operator key. Each is checked
 * against the API before it is kept, so a wrong one is said at once, and kept in sessionStorage
 * only. Holding one and adding the other opens both sets of pages.
 */
import { useState } from 'preact/hooks';
import { ApiError, callApi } from './api';
import type { Session } from './session';
import { errorText } from './ui';

type Check = (session: Session) => Promise<unknown>;

/** A read every platform credential with VIEW may make, and the operator's cheapest read. */
const checkPlatform: Check = (session) => callApi(session, { path: '/webhooks/deliveries?limit=1', credential: 'platform' });
const checkOperator: Check = (session) => callApi(session, { path: '/console/operations', credential: 'operator' });

export function SignInPage({ session, onSession }: { session: Session; onSession: (session: Session) => void }) {
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [operatorKey, setOperatorKey] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const attempt = async (candidate: Session, check: Check, landing: string) => {
    setBusy(true);
    setError(undefined);
    try {
      await check(candidate);
      onSession(candidate);
      location.hash = landing;
    } catch (failure) {
      setError(failure instanceof ApiError && failure.status === 401 ? 'Wrong credentials: the service did not accept them.' : errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  const signInPlatform = (event: Event) => {
    event.preventDefault();
    void attempt({ ...session, platform: { clientId: clientId.trim(), clientSecret } }, checkPlatform, '#/explorer');
  };
  const signInOperator = (event: Event) => {
    event.preventDefault();
    void attempt({ ...session, operatorKey: operatorKey.trim() }, checkOperator, '#/operations');
  };

  return (
    <div class="signin">
      <h1>Sign in</h1>
      <p class="muted">Credentials stay in this tab (sessionStorage) and go only to this service.</p>
      {error && (
        <div class="error" role="alert" data-testid="signin-error">
          {error}
        </div>
      )}
      <div class="signin-forms">
        <form class="card" onSubmit={signInPlatform}>
          <h2>Platform</h2>
          <p class="muted">Explorer, webhooks and charts of one platform’s data.</p>
          <label>
            Client id
            <input data-testid="signin-client-id" autocomplete="username" required value={clientId} onInput={(event) => setClientId(event.currentTarget.value)} />
          </label>
          <label>
            Client secret
            <input data-testid="signin-client-secret" type="password" autocomplete="current-password" required value={clientSecret} onInput={(event) => setClientSecret(event.currentTarget.value)} />
          </label>
          <button type="submit" data-testid="signin-submit" disabled={busy}>
            Sign in as platform
          </button>
        </form>
        <form class="card" onSubmit={signInOperator}>
          <h2>Operator</h2>
          <p class="muted">Projections, reactors, jobs, queues and health.</p>
          <label>
            Operator key
            <input data-testid="signin-operator-key" type="password" autocomplete="off" required value={operatorKey} onInput={(event) => setOperatorKey(event.currentTarget.value)} />
          </label>
          <button type="submit" data-testid="signin-operator-submit" disabled={busy}>
            Sign in as operator
          </button>
        </form>
      </div>
    </div>
  );
}
