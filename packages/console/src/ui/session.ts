// The token lives in the tab's session storage (gone when the tab closes), under the key the Swagger UI page uses too,
// so signing in on one of them signs in the other.
const TOKEN_KEY = 'mds-token';

export const readToken = (): string | null => sessionStorage.getItem(TOKEN_KEY);
export const keepToken = (token: string): void => sessionStorage.setItem(TOKEN_KEY, token);
export const forgetToken = (): void => sessionStorage.removeItem(TOKEN_KEY);
