/** Answers "can this server serve now?" for /health; null means yes, a string says why not. */
export interface Readiness {
  check(): Promise<string | null>;
}

/** How long one answer is reused, so a flood of health probes never becomes a flood of cluster requests. */
const CACHE_MS = 1_000;

/** Ready when every backend check resolves; the first failure's message is the reason. */
export function createReadiness(checks: (() => Promise<void>)[]): Readiness {
  let cached: { at: number; answer: Promise<string | null> } | undefined;
  const run = async () => {
    try {
      await Promise.all(checks.map((check) => check()));
      return null;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  };
  return {
    check() {
      const now = performance.now();
      if (!cached || now - cached.at > CACHE_MS) cached = { at: now, answer: run() };
      return cached.answer;
    },
  };
}
