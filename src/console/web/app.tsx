/** The console's shell: the session, hash routing, the navigation bar and the current page. */
import { useEffect, useState } from 'preact/hooks';
import { ChartsPage } from './charts';
import { ExplorerPage } from './explorer';
import { OperationsPage } from './operations';
import { ResourcePage } from './resource';
import { Route, parseRoute } from './router';
import { Session, isSignedIn, loadSession, saveSession } from './session';
import { SignInPage } from './signin';
import { SessionContext } from './ui';
import { WebhooksPage } from './webhooks';

const NAV: { page: 'explorer' | 'webhooks' | 'operations' | 'charts'; label: string; credential?: 'platform' | 'operator' }[] = [
  { page: 'explorer', label: 'Explorer', credential: 'platform' },
  { page: 'webhooks', label: 'Webhooks', credential: 'platform' },
  { page: 'operations', label: 'Operations', credential: 'operator' },
  { page: 'charts', label: 'Charts' },
];

function useHashRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

export function App() {
  const [session, setSession] = useState<Session>(loadSession);
  const route = useHashRoute();
  const signedIn = isSignedIn(session);

  const update = (next: Session) => {
    saveSession(next);
    setSession(next);
  };
  const signOut = () => {
    update({});
    location.hash = '#/signin';
  };

  useEffect(() => {
    // Every page but sign-in needs a credential; an unknown hash lands on a useful page.
    if (!signedIn && route.page !== 'signin') location.hash = '#/signin';
  }, [signedIn, route.page]);

  return (
    <SessionContext.Provider value={session}>
      <header class="topbar">
        <a class="brand" href={signedIn ? '#/explorer' : '#/signin'}>
          Payments console
        </a>
        {signedIn && (
          <nav>
            {NAV.map((item) => (
              <a
                key={item.page}
                href={`#/${item.page}`}
                data-testid={`nav-${item.page}`}
                class={`${route.page === item.page ? 'active' : ''} ${item.credential && !credentialHeld(session, item.credential) ? 'dim' : ''}`}
              >
                {item.label}
              </a>
            ))}
            <span class="who">{describeSession(session)}</span>
            <button type="button" class="link" data-testid="nav-signout" onClick={signOut}>
              Sign out
            </button>
          </nav>
        )}
      </header>
      <main>{signedIn || route.page === 'signin' ? <Page route={route} session={session} onSession={update} /> : null}</main>
    </SessionContext.Provider>
  );
}

function Page({ route, session, onSession }: { route: Route; session: Session; onSession: (session: Session) => void }) {
  switch (route.page) {
    case 'signin':
      return <SignInPage session={session} onSession={onSession} />;
    case 'explorer':
      return <ExplorerPage query={route.query} />;
    case 'resource':
      return <ResourcePage id={route.id} />;
    case 'webhooks':
      return <WebhooksPage />;
    case 'operations':
      return <OperationsPage />;
    case 'charts':
      return <ChartsPage />;
  }
}

function credentialHeld(session: Session, credential: 'platform' | 'operator'): boolean {
  return credential === 'platform' ? Boolean(session.platform) : Boolean(session.operatorKey);
}

function describeSession(session: Session): string {
  const parts = [session.platform ? session.platform.clientId : '', session.operatorKey ? 'operator' : ''].filter(Boolean);
  return parts.join(' + ');
}
