import type { Auth, NativeUsers } from '@mds/auth';
import { isJsonObject } from '@mds/core';
import { ApiError, badRequest } from '@mds/schema';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJsonBody, requireJsonContentType, type BodyRules } from './body';
import { sendJson } from './respond';
import { setSessionCookies } from './session';

/** A route of the host answered from the raw request (it sets cookies), before any authentication. */
export interface HostPage {
  method: 'GET' | 'POST';
  path: string;
  /** `body`: how the request's body is read; `secure`: whether the browser reached mds over https (cookies are `Secure`). */
  handle(req: IncomingMessage, res: ServerResponse, http: { body: BodyRules; secure: boolean }): Promise<void>;
}

const CORP_USER_PREFIX = 'urn:li:corpuser:';

/** DataHub's frontend refuses with `{message}` and a 400. */
const refuse = (res: ServerResponse, message: string) => sendJson(res, 400, { message });

/**
 * DataHub's frontend's sign-in routes (AuthenticationController), served by mds itself so DataHub's web UI needs no
 * frontend server: `POST /logIn`, `/signUp`, `/resetNativeUserCredentials`. Each takes a JSON body (a form post, which
 * a cross-site page could send, is refused: CSRF), checks it as DataHub's frontend does (its texts), and on success
 * starts a session: a SESSION token in the session cookie and the user's urn in `actor` (http/session.ts).
 */
export function createSignInPages(options: { auth: Auth; nativeUsers: NativeUsers }): HostPage[] {
  const { credentials } = options.auth.service;
  const { nativeUsers } = options;

  /** The body's string fields (a missing or non-string one reads as ''). */
  const read = async <K extends string>(req: IncomingMessage, rules: BodyRules, fields: readonly K[]): Promise<Record<K, string>> => {
    requireJsonContentType(req);
    const body = await readJsonBody(req, rules);
    if (!isJsonObject(body)) throw badRequest('Request body must be a JSON object.');
    return Object.fromEntries(fields.map((f) => [f, typeof body[f] === 'string' ? body[f] : ''])) as Record<K, string>;
  };

  const startSession = async (res: ServerResponse, secure: boolean, userId: string) => {
    const token = await credentials.createSession(userId);
    setSessionCookies(res, { actorUrn: CORP_USER_PREFIX + userId, token, maxAgeMs: credentials.sessionDurationMs, secure });
    res.writeHead(200, { 'content-length': 0 }).end();
  };

  /** A refusal of the metadata service (invite, reset token) as the frontend passes it on: 400 with its message. */
  const orRefuse = async (res: ServerResponse, work: () => Promise<void>): Promise<boolean> => {
    try {
      await work();
      return true;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 400) throw error;
      refuse(res, error.message);
      return false;
    }
  };

  return [
    {
      method: 'POST',
      path: '/logIn',
      async handle(req, res, { body: rules, secure }) {
        const { username, password } = await read(req, rules, ['username', 'password']);
        if (!username.trim()) return refuse(res, 'User name must not be empty.');
        if (!(await nativeUsers.verify(CORP_USER_PREFIX + username, password))) return refuse(res, 'Invalid Credentials');
        await startSession(res, secure, username);
      },
    },
    {
      method: 'POST',
      path: '/signUp',
      async handle(req, res, { body: rules, secure }) {
        const input = await read(req, rules, ['fullName', 'email', 'title', 'password', 'inviteToken']);
        const blank = (
          [
            ['fullName', 'Full name'],
            ['email', 'Email'],
            ['password', 'Password'],
            ['title', 'Title'],
            ['inviteToken', 'Invite token'],
          ] as const
        ).find(([field]) => !input[field].trim());
        if (blank) return refuse(res, `${blank[1]} must not be empty.`);
        // As DataHub's frontend: the user's id is the email.
        const userUrn = CORP_USER_PREFIX + input.email;
        if (await orRefuse(res, () => nativeUsers.signUp({ userUrn, ...input }))) await startSession(res, secure, input.email);
      },
    },
    {
      method: 'POST',
      path: '/resetNativeUserCredentials',
      async handle(req, res, { body: rules, secure }) {
        const { email, password, resetToken } = await read(req, rules, ['email', 'password', 'resetToken']);
        if (!email.trim()) return refuse(res, 'Email must not be empty.');
        if (!password.trim()) return refuse(res, 'Password must not be empty.');
        if (!resetToken.trim()) return refuse(res, 'Reset token must not be empty.');
        if (await orRefuse(res, () => nativeUsers.reset(CORP_USER_PREFIX + email, password, resetToken)))
          await startSession(res, secure, email);
      },
    },
  ];
}
