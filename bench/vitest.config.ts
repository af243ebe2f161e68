import { packageProject } from '../vitest.shared.ts';

// The smoke run starts mds, the ceiling and a browser: beside the rest of the suite on two cores it takes minutes.
export default packageProject('bench', { testTimeout: 300_000 });
