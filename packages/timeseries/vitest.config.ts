import { packageProject } from '../../vitest.shared.ts';

// The live-cluster suite is opt-in: it joins the run only when ELASTICSEARCH_URL names a cluster.
export default packageProject('timeseries', { exclude: process.env.ELASTICSEARCH_URL ? [] : ['test/**/*.live.test.ts'] });
