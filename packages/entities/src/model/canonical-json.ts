/**
 * JSON text with object keys sorted at every level, so two values are structurally equal exactly when their texts are
 * (key order is no difference: entities-api §3.2). Numbers keep JSON's single number type, so DataHub 1.x's 0 vs 0L
 * distinction in audit stamps cannot arise.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}
