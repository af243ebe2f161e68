import { isJsonObject } from '@mds/core';
import { ApiError, badRequest, type ApiContext, type ApiModule, type JsonRoute } from '@mds/schema';
import { SYSTEM_ACTOR_URN } from '../actors';
import type { Credentials, NativeUsers } from './service';

/** A whole answer of a JSON route (`whole: true`): its status and JSON body. */
interface JsonAnswer {
  status: number;
  body?: unknown;
}

type Body = Record<string, unknown>;

/** Only the system client (DataHub's frontend, `Authorization: Basic <id>:<secret>`) may call these. */
function requireSystemClient(context: ApiContext): void {
  if (context.actor.urn !== SYSTEM_ACTOR_URN) {
    throw new ApiError('UNAUTHENTICATED', `${context.actor.urn} unauthorized to perform this action.`);
  }
}

/** The body as an object whose `fields` are all strings: DataHub answers a bare 400 otherwise; mds names the field. */
function requireFields<K extends string>(body: unknown, fields: readonly K[]): Record<K, string> {
  if (!isJsonObject(body)) throw badRequest('Request body must be a JSON object.');
  for (const field of fields) {
    if (typeof (body as Body)[field] !== 'string') throw badRequest(`Field '${field}' is required and must be a string.`);
  }
  return body as Record<K, string>;
}

const ok = (body: Record<string, unknown>): JsonAnswer => ({ status: 200, body });

/**
 * DataHub's metadata-service endpoints its frontend signs users in with (AuthServiceController), under `/auth`, each
 * a POST of JSON from the system client. Answers are DataHub's bodies; refusals are 4xx naming the problem.
 */
export function createAuthEndpoints(credentials: Credentials, nativeUsers: NativeUsers): ApiModule {
  const post = (path: string, handle: (body: unknown, context: ApiContext) => Promise<JsonAnswer>): JsonRoute => ({
    method: 'POST',
    path: `/auth/${path}`,
    whole: true,
    handler: (context, request) => {
      requireSystemClient(context);
      return handle(request?.body, context);
    },
  });
  return {
    name: 'auth-endpoints',
    routes: [
      post('generateSessionTokenForUser', async (body) => {
        const { userId } = requireFields(body, ['userId']);
        if (!userId.trim()) throw badRequest("Field 'userId' must not be empty.");
        return ok({ accessToken: await credentials.createSession(userId) });
      }),
      post('signUp', async (body) => {
        const input = requireFields(body, ['userUrn', 'fullName', 'email', 'title', 'password', 'inviteToken']);
        await nativeUsers.signUp(input);
        return ok({ isNativeUserCreated: true });
      }),
      post('resetNativeUserCredentials', async (body) => {
        const { userUrn, password, resetToken } = requireFields(body, ['userUrn', 'password', 'resetToken']);
        await nativeUsers.reset(userUrn, password, resetToken);
        return ok({ areNativeUserCredentialsReset: true });
      }),
      post('verifyNativeUserCredentials', async (body) => {
        const { userUrn, password } = requireFields(body, ['userUrn', 'password']);
        return ok({ doesPasswordMatch: await nativeUsers.verify(userUrn, password) });
      }),
      // Older frontends post usage events here; DataHub sent them to no destination, and so does mds.
      post('track', async (body) => {
        if (!isJsonObject(body) || typeof body.type !== 'string') throw badRequest("Field 'type' is required: the event's type.");
        return { status: 200 };
      }),
      // mds has no single sign-on: DataHub answers 404 when no SSO settings are stored.
      post('getSsoSettings', async () => ({ status: 404 })),
    ],
  };
}
