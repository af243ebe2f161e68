import { packageProject } from '../vitest.shared.ts';

export default packageProject('bench', { testTimeout: 120_000 });
