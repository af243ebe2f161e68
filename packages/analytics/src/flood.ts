/** How many events one actor may post in a burst, and how many more per second after it. */
export interface FloodBound {
  burst: number;
  perSecond: number;
}

/** Defaults: the UI posts a handful of events per page; a script posting hundreds a second is refused. */
export const DEFAULT_FLOOD_BOUND: FloodBound = { burst: 300, perSecond: 5 };

/** Actors remembered at once; beyond it the one idle longest is forgotten (its bucket starts full again). */
const MAX_ACTORS = 10_000;

/**
 * A token bucket per actor: each event takes a token, `perSecond` tokens come back each second up to `burst`.
 * `take` answers 0 when the event is admitted, else the seconds until a token is back (the 429's Retry-After). The
 * clock is given, so a test decides what time it is.
 */
export function floodGuard(bound: FloodBound, now: () => number) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(actor: string): number {
      const time = now();
      const bucket = buckets.get(actor) ?? { tokens: bound.burst, at: time };
      buckets.delete(actor);
      bucket.tokens = Math.min(bound.burst, bucket.tokens + (Math.max(0, time - bucket.at) / 1000) * bound.perSecond);
      bucket.at = time;
      // Map order is insertion order: re-inserting keeps the least recently seen first.
      buckets.set(actor, bucket);
      if (buckets.size > MAX_ACTORS) buckets.delete(buckets.keys().next().value!);
      if (bucket.tokens < 1) return Math.ceil((1 - bucket.tokens) / bound.perSecond);
      bucket.tokens -= 1;
      return 0;
    },
  };
}
