import { isJsonObject } from '@mds/core';
import { ApiError, badRequest, type ApiContext, type ApiModule, type JsonRoute } from '@mds/schema';
import { isCorpUserUrn, SYSTEM_ACTOR_URN } from '../actors';
import type { Credentials, NativeUsers } from './service';

/** A whole answer of a JSON route (`whole: true`): its status and JSON body. */
interface JsonAnswer {
  status: number;
  headers?: Record<string, string>;
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
/** Where usage events go (`@mds/analytics`' service): stores one for a user, answering what to send. */
export type TrackEvent = (body: unknown, actorUrn: string) => Promise<JsonAnswer>;

export function createAuthEndpoints(credentials: Credentials, nativeUsers: NativeUsers, track: TrackEvent): ApiModule {
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
      // The frontend posts the UI's usage events here for the signed-in user the event names (`actorUrn`): stored as
      // /openapi/v1/tracking/track stores them, with its validation and per-actor bound. One naming no user is the
      // system client's own.
      post('track', async (body) => {
        const actor =
          isJsonObject(body) && typeof body.actorUrn === 'string' && isCorpUserUrn(body.actorUrn) ? body.actorUrn : SYSTEM_ACTOR_URN;
        return track(body, actor);
      }),
      // mds has no single sign-on: DataHub answers 404 when no SSO settings are stored.
      post('getSsoSettings', async () => ({ status: 404 })),
    ],
  };
}
