// Worker threads do not inherit the test runner's TypeScript support: register tsx, then load the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./create-worker.ts');
