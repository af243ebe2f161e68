import { useState } from 'preact/hooks';

/** The token form; `message` is why the user is here again (the server's 401 text, or another failure). */
export function SignIn(props: { message?: string | undefined; onToken: (token: string) => void }) {
  const [token, setToken] = useState('');
  return (
    <main class="signin">
      <h1>mds console</h1>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (token.trim()) props.onToken(token.trim());
        }}
      >
        <label>
          Personal access token
          <input
            name="token"
            type="password"
            autocomplete="off"
            value={token}
            onInput={(e) => setToken(e.currentTarget.value)}
            placeholder="mds token create …"
          />
        </label>
        <button type="submit">Sign in</button>
      </form>
      {props.message && (
        <p class="error" role="alert">
          {props.message}
        </p>
      )}
      <p class="hint">
        The token stays in this tab (session storage) and is sent as <code>Authorization: Bearer …</code>. Create one with{' '}
        <code>mds token create</code> or the <code>createAccessToken</code> mutation.
      </p>
    </main>
  );
}
