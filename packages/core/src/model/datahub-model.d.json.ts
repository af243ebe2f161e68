// The type of the generated datahub-model.json (see data.ts), declared so TypeScript need not infer it from the JSON.
import type { ModelData } from './types';
declare const data: ModelData;
export default data;
