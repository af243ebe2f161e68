import type { ModelData } from '../src/model/types';

export const OUTPUT_FILE = new URL('../src/model/datahub-model.json', import.meta.url).pathname;

/**
 * The model as the committed JSON text: the source first (DataHub's repository and commit), then one entity, aspect
 * or type per line, so a regeneration's diff reads entry by entry.
 */
export function emitModel(model: ModelData): string {
  const entries = (object: Readonly<Record<string, unknown>>) =>
    Object.entries(object)
      .map(([key, value]) => `    ${JSON.stringify(key)}: ${JSON.stringify(value)}`)
      .join(',\n');
  return [
    '{',
    `  "source": ${JSON.stringify({ ...model.source, generatedBy: 'pnpm --filter @mds/core model:generate' })},`,
    '  "entities": [',
    model.entities.map((e) => `    ${JSON.stringify(e)}`).join(',\n'),
    '  ],',
    '  "aspects": {',
    entries(model.aspects),
    '  },',
    '  "types": {',
    entries(model.types),
    '  }',
    '}',
    '',
  ].join('\n');
}
