import { useEffect, useState } from 'preact/hooks';
import { onSignedOut, ServerError } from './api';
import { Catalog } from './Catalog';
import { IndexSizes } from './IndexSizes';
import { whoAmI, type Me } from './me';
import { truncationRefusal } from './operations';
import { forgetToken, keepToken, readToken } from './session';
import { SignIn } from './SignIn';
import { Truncation } from './Truncation';

type Session =
  { state: 'checking' } | { state: 'signed-out'; message?: string } | { state: 'signed-in'; me: Me; truncationRefusal: string | undefined };

const SCREENS = { indices: 'Index sizes', truncate: 'Truncation', catalog: 'Catalog' } as const;
type Screen = keyof typeof SCREENS;
const screenOf = (hash: string): Screen => (hash.slice(1) in SCREENS ? (hash.slice(1) as Screen) : 'indices');

export function App() {
  const [session, setSession] = useState<Session>({ state: readToken() ? 'checking' : 'signed-out' });
  const [screen, setScreen] = useState<Screen>(screenOf(location.hash));

  const signIn = async () => {
    setSession({ state: 'checking' });
    try {
      const [me, refusal] = await Promise.all([whoAmI(), truncationRefusal()]);
      setSession({ state: 'signed-in', me, truncationRefusal: refusal });
    } catch (error) {
      // A 401 has already signed out with the server's message (onSignedOut below); anything else is shown here.
      if (error instanceof ServerError && error.status === 401) return;
      forgetToken();
      setSession({ state: 'signed-out', message: error instanceof Error ? error.message : String(error) });
    }
  };

  useEffect(() => {
    onSignedOut((message) => setSession({ state: 'signed-out', message }));
    const follow = () => setScreen(screenOf(location.hash));
    addEventListener('hashchange', follow);
    if (readToken()) void signIn();
    return () => removeEventListener('hashchange', follow);
  }, []);

  if (session.state === 'checking')
    return (
      <main class="signin">
        <p role="status">Signing in…</p>
      </main>
    );
  if (session.state === 'signed-out') {
    return (
      <SignIn
        message={session.message}
        onToken={(token) => {
          keepToken(token);
          void signIn();
        }}
      />
    );
  }
  const { me } = session;
  return (
    <>
      <header class="top">
        <strong>mds console</strong>
        <nav aria-label="Screens">
          {Object.entries(SCREENS).map(([key, label]) => (
            <a href={`#${key}`} aria-current={key === screen ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <span class="who" data-testid="who">
          <span title={me.urn}>{me.username}</span> · <span class="role">{me.role}</span>
        </span>
        <button
          type="button"
          onClick={() => {
            forgetToken();
            setSession({ state: 'signed-out' });
          }}
        >
          Sign out
        </button>
      </header>
      <main>
        {screen === 'indices' && <IndexSizes countRows={session.truncationRefusal === undefined} />}
        {screen === 'truncate' && <Truncation refusal={session.truncationRefusal} />}
        {screen === 'catalog' && <Catalog />}
      </main>
    </>
  );
}
