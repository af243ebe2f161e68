/**
 * The Content-Security-Policy of a page mds serves: offline (nothing from another origin), talking to this server
 * only, never framed, no form posts. `sources` adds or overrides what one page needs (its scripts and styles).
 */
export function pagePolicy(sources: Readonly<Record<string, string>>): string {
  const base = {
    'default-src': "'none'",
    'img-src': "'self' data:",
    'connect-src': "'self'",
    'base-uri': "'none'",
    'form-action': "'none'",
    'frame-ancestors': "'none'",
  };
  return Object.entries({ ...base, ...sources })
    .map(([directive, value]) => `${directive} ${value}`)
    .join('; ');
}
