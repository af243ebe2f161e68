import { badRequest, type ApiError } from '@mds/schema';
import { createHmac, type KeyObject } from 'node:crypto';
import { corpUserId, corpUserUrn, ROOT_ACTOR_URN, SYSTEM_ACTOR_URN } from '../actors';
import type { Store } from '../db/store';
import { requireRoleUrn } from '../roles';
import { hashToken, mintToken } from '../tokens-jwt';
import {
  DEFAULT_SCRYPT_COST,
  decryptDatahubSecret,
  encryptDatahubSecret,
  hashPassword,
  sameSecret,
  sha256Base64,
  storedKind,
  urlSafeToken,
  verifyDatahubCredential,
  verifyScrypt,
  type ScryptCost,
} from './passwords';

/** DataHub's default session lifetime (`authentication.sessionTokenDurationMs`, SESSION_TOKEN_DURATION_MS): one day. */
export const DEFAULT_SESSION_DURATION_MS = 86_400_000;
/** How long a password reset token stays usable (DataHub: one day). */
export const RESET_TOKEN_DURATION_MS = 86_400_000;

/**
 * What native users need of the users' entities, which the entity service holds (the host wires it): whether a user
 * exists, whether it may sign in (not suspended, not removed), the aspects a sign-up writes, and DataHub's
 * `corpUserCredentials` aspect of a database migrated from DataHub.
 */
export interface UserDirectory {
  exists(userUrn: string): Promise<boolean>;
  /** False for a suspended (`corpUserStatus.status` SUSPENDED) or removed (`status.removed`) user. */
  isActive(userUrn: string): Promise<boolean>;
  /** Writes `corpUserInfo` (full name, display name, email, title, active) and `corpUserStatus` ACTIVE, as DataHub's sign-up does. */
  createNativeUser(userUrn: string, info: { fullName: string; email: string; title: string }): Promise<void>;
  /** DataHub's `corpUserCredentials` aspect, when one is stored. */
  datahubCredentials(userUrn: string): Promise<{ salt: string; hashedPassword: string } | undefined>;
  /** Deletes that aspect once its password is kept here. */
  forgetDatahubCredentials(userUrn: string): Promise<void>;
}

export interface SignUpInput {
  userUrn: string;
  fullName: string;
  email: string;
  title: string;
  password: string;
  inviteToken: string;
}

export interface CredentialsOptions {
  store: Store;
  signingKey: KeyObject;
  /** The token salt: session tokens are stored as its salted hash, as access tokens are. */
  salt: string;
  /** The raw signing key: invite tokens are encrypted under a key derived from it. */
  signingSecret: string;
  /** DataHub's `SECRET_SERVICE_ENCRYPTION_KEY`, to verify credentials a DataHub database holds. */
  datahubSecret?: string;
  sessionDurationMs?: number;
  scryptCost?: ScryptCost;
  /** Gives users a role (null: none), by `by`: the role keeper (role-keeper.ts), which records it where roles are kept. */
  assignRole: (roleUrn: string | null, users: readonly string[], by: string) => Promise<void>;
  now: () => number;
}

const MAX_PASSWORD_LENGTH = 1024;

/**
 * Native users' credentials, invite tokens and session tokens, kept in auth's own tables (never an entity aspect a
 * read could return). Privilege checks are the callers': GraphQL resolvers, the host's system-client endpoints.
 */
export function createCredentials(options: CredentialsOptions) {
  const { store, signingKey, salt, now, assignRole } = options;
  const sessionDurationMs = options.sessionDurationMs ?? DEFAULT_SESSION_DURATION_MS;
  const cost = options.scryptCost ?? DEFAULT_SCRYPT_COST;
  const inviteKey = createHmac('sha256', options.signingSecret).update('mds invite tokens').digest('base64');

  const requirePassword = (password: string) => {
    if (!password) throw badRequest('Password must not be empty.');
    if (password.length > MAX_PASSWORD_LENGTH) throw badRequest(`Password must be at most ${MAX_PASSWORD_LENGTH} characters.`);
  };

  /** Whether `password` is the user's: mds's scrypt hash, or DataHub's credential (stored here or as DataHub's aspect), re-hashed on success. */
  async function passwordMatches(userUrn: string, password: string, directory?: UserDirectory): Promise<boolean> {
    const row = await store.findPassword(userUrn);
    if (row) return storedKind(row.passwordHash) === 'scrypt' && verifyScrypt(password, row.passwordHash);
    const datahub = await directory?.datahubCredentials(userUrn);
    if (!datahub || !options.datahubSecret || !verifyDatahubCredential(password, datahub, options.datahubSecret)) return false;
    // First sign-in since the migration: the password moves here as scrypt, and DataHub's aspect goes.
    await store.setPassword(userUrn, await hashPassword(password, cost), now(), true);
    await directory?.forgetDatahubCredentials(userUrn);
    return true;
  }

  const service = {
    sessionDurationMs,

    /** A SESSION token for the user (DataHub's claims; stored as its salted hash, so signing out revokes it). */
    async createSession(userId: string): Promise<string> {
      const userUrn = corpUserUrn(userId);
      const createdAt = now();
      const token = await mintToken({
        key: signingKey,
        actorId: userId,
        nowMs: createdAt,
        expiresInMs: sessionDurationMs,
        type: 'SESSION',
      });
      await store.ensureUser(userUrn, createdAt);
      await store.insertSession({ id: hashToken(token, salt), actorUrn: userUrn, createdAt, expiresAt: createdAt + sessionDurationMs });
      return token;
    },

    /** Revokes a session token (signing out); whether one was stored. */
    revokeSession(token: string): Promise<boolean> {
      return store.deleteSession(hashToken(token, salt));
    },

    /** Ends a removed user's sign-in for good: its password, sessions and access tokens go (GraphQL's removeUser). */
    forgetUser(userUrn: string): Promise<void> {
      return store.forgetUser(userUrn);
    },

    /** The root user's first password, generated and stored only if the root has none yet: the caller prints it once. */
    async claimRootPassword(): Promise<string | undefined> {
      const password = urlSafeToken(24);
      return (await store.setPassword(ROOT_ACTOR_URN, await hashPassword(password, cost), now(), true)) ? password : undefined;
    },

    /** Sets a user's password (operators, tests). */
    async setPassword(userUrn: string, password: string): Promise<void> {
      requirePassword(password);
      await store.setPassword(userUrn, await hashPassword(password, cost), now());
    },

    /**
     * The role's current invite token (`roleUrn` null: the one without a role), a new one when there is none or
     * `regenerate` (which also invalidates the previous one), as DataHub's InviteTokenService.
     */
    async inviteToken(roleUrn: string | null, regenerate: boolean): Promise<string> {
      const role = requireRoleUrn(roleUrn, 'roleUrn');
      const existing = await store.invitesOfRole(role);
      if (!regenerate && existing.length === 1) {
        const token = decryptDatahubSecret(existing[0]!.encryptedToken, inviteKey);
        if (token !== undefined) return token;
      }
      const token = urlSafeToken(32);
      await store.replaceInvites({
        id: sha256Base64(token),
        encryptedToken: encryptDatahubSecret(token, inviteKey),
        roleUrn: role,
        createdAt: now(),
      });
      return token;
    },

    /**
     * Gives `userUrn` the role of a current invite token (DataHub's AcceptRoleResolver through its InviteTokenService
     * and RoleService): the token stays valid for others; one without a role removes the user's role, as DataHub
     * writes an empty `roleMembership`. The role answered is the one now held. Callers check who the user is.
     */
    async acceptInvite(userUrn: string, inviteToken: string): Promise<string | null> {
      const invite = inviteToken ? await store.findInvite(sha256Base64(inviteToken)) : undefined;
      if (!invite) {
        throw badRequest(
          'Failed to accept role using invite token: the invite token is invalid (replaced by a newer one, or never issued); ask your administrator for a new invite link.',
        );
      }
      await assignRole(invite.roleUrn, [userUrn], userUrn);
      return invite.roleUrn;
    },

    /**
     * A password reset token for a native user, valid one day (DataHub's NativeUserService): only its hash is kept.
     * 400 for a user without a password here.
     */
    async createResetToken(userUrn: string): Promise<string> {
      const token = urlSafeToken(32);
      if (!(await store.setResetToken(userUrn, sha256Base64(token), now() + RESET_TOKEN_DURATION_MS, now()))) {
        throw badRequest(
          `Failed to generate password reset token for user: ${userUrn}: no native user with a password (a user who signed up or was given one).`,
        );
      }
      return token;
    },

    /** The sign-in operations, given the users' entities. */
    nativeUsers(directory: UserDirectory) {
      return {
        /** DataHub's verifyNativeUserCredentials; a suspended or removed user never matches. */
        async verify(userUrn: string, password: string): Promise<boolean> {
          if (!password || password.length > MAX_PASSWORD_LENGTH) return false;
          if (!(await passwordMatches(userUrn, password, directory))) return false;
          return directory.isActive(userUrn);
        },

        /** DataHub's signUp: a valid invite token, a user that does not exist yet; the invite's role is given at once. */
        async signUp(input: SignUpInput): Promise<void> {
          const { userUrn } = input;
          if ([SYSTEM_ACTOR_URN, ROOT_ACTOR_URN, 'urn:li:corpuser:UNKNOWN'].includes(userUrn) || !corpUserId(userUrn)) {
            throw badRequest(`Cannot sign up as ${userUrn}.`);
          }
          requirePassword(input.password);
          const invite = await store.findInvite(sha256Base64(input.inviteToken));
          if (!invite) throw badRequest('Invalid invite token: ask your administrator for a new invite link.');
          if ((await store.findPassword(userUrn)) || (await directory.exists(userUrn))) {
            throw badRequest('This user already exists! Cannot create a new user.');
          }
          if (!(await store.setPassword(userUrn, await hashPassword(input.password, cost), now(), true))) {
            throw badRequest('This user already exists! Cannot create a new user.');
          }
          await directory.createNativeUser(userUrn, { fullName: input.fullName, email: input.email, title: input.title });
          await assignRole(invite.roleUrn, [userUrn], userUrn);
        },

        /** DataHub's resetCorpUserCredentials, with its refusals as 400s. */
        async reset(userUrn: string, password: string, resetToken: string): Promise<void> {
          requirePassword(password);
          const row = await store.findPassword(userUrn);
          if (!row) throw refused('User does not exist!');
          if (row.resetTokenHash === null || row.resetTokenExpiresAt === null)
            throw refused('User has not generated a password reset token!');
          if (!sameSecret(row.resetTokenHash, sha256Base64(resetToken))) {
            throw refused('Invalid reset token. Please ask your administrator to send you an updated link!');
          }
          if (now() > row.resetTokenExpiresAt) throw refused('Reset token has expired! Please ask your administrator to create a new one');
          await store.setPassword(userUrn, await hashPassword(password, cost), now());
        },
      };
    },
  };
  return service;
}

export type Credentials = ReturnType<typeof createCredentials>;
export type NativeUsers = ReturnType<Credentials['nativeUsers']>;

const refused = (message: string): ApiError => badRequest(message);
