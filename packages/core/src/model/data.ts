import data from './datahub-model.json';
import type { ModelData } from './types';

/**
 * DataHub's model as generated from its entity registry and PDL schemas (`generator/`, from the vendored inputs in
 * `model/`): the source commit, the entities, the aspects and every named type they reach. TypeScript reads its type
 * from `datahub-model.d.json.ts` instead of inferring one from the JSON.
 */
export const MODEL: ModelData = data;
