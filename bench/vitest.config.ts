import { packageProject } from '../vitest.shared.ts';

// The smoke run starts mds, the ceiling and a browser a dozen times: beside the rest of the suite on two cores it takes
// minutes. A hang bound, not a speed check.
export default packageProject('bench', { testTimeout: 900_000 });
