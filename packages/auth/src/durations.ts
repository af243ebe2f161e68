import { badRequest, type AccessTokenDuration } from '@mds/schema';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** Milliseconds each duration lasts (DataHub's AccessTokenUtil; ONE_MONTH is 30 days); null never expires. */
export const DURATION_MS: Readonly<Record<AccessTokenDuration, number | null>> = {
  ONE_HOUR: HOUR,
  ONE_DAY: DAY,
  ONE_WEEK: 7 * DAY,
  ONE_MONTH: 30 * DAY,
  THREE_MONTHS: 90 * DAY,
  SIX_MONTHS: 180 * DAY,
  ONE_YEAR: 365 * DAY,
  NO_EXPIRY: null,
};

export const ACCESS_TOKEN_DURATIONS = Object.keys(DURATION_MS) as AccessTokenDuration[];

/** How long a token of `duration` lives, refusing NO_EXPIRY unless the operator allowed it. */
export function durationMs(duration: AccessTokenDuration, allowNoExpiry: boolean): number | null {
  if (!Object.hasOwn(DURATION_MS, duration)) {
    throw badRequest(`Field 'duration': unknown duration '${duration}'; expected one of ${ACCESS_TOKEN_DURATIONS.join(', ')}.`);
  }
  if (duration === 'NO_EXPIRY' && !allowNoExpiry) {
    throw badRequest(
      "Field 'duration': tokens that never expire (NO_EXPIRY) are disabled on this server; pick a duration, or set ACCESS_TOKEN_ALLOW_NO_EXPIRY=true.",
    );
  }
  return DURATION_MS[duration];
}
