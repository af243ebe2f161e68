import { expect, it } from 'vitest';
import { messageOf } from '../src/ui/api';
import { entityNameOf, openApiPath } from '../src/ui/catalog-api';
import { dryRunCounts, taskError } from '../src/ui/operations';

it('takes the message of each error shape the server writes, else its text, else the status', () => {
  expect(messageOf({ errors: [{ message: 'Unauthorized to perform this action.' }] }, '', 401)).toBe(
    'Unauthorized to perform this action.',
  );
  expect(messageOf({ message: 'User is unauthorized to get index sizes.', status: 403 }, '', 403)).toBe(
    'User is unauthorized to get index sizes.',
  );
  expect(messageOf({ error: 'Entity not found' }, '', 404)).toBe('Entity not found');
  expect(messageOf(undefined, 'Bad Gateway\n', 502)).toBe('Bad Gateway');
  expect(messageOf(undefined, '', 504)).toBe('HTTP 504');
});

it('reads the two counts of a dry run as DataHub’s gc job does', () => {
  const text =
    'Delete 300 out of 1000 rows (30.00%). Issuing a delete by query request. This was a dry run. Run with dryRun = false to execute.';
  expect(dryRunCounts(text)).toEqual({ matching: 300, total: 1000 });
  expect(dryRunCounts('node:1')).toBeUndefined();
  expect(taskError('Interrupted')).toBe('Interrupted');
  expect(taskError({ type: 'search_phase_execution_exception' })).toBe('{"type":"search_phase_execution_exception"}');
});

it('addresses an entity’s OpenAPI read by the entity name its urn carries', () => {
  const urn = 'urn:li:dataset:(urn:li:dataPlatform:kafka,SampleKafkaDataset,PROD)';
  expect(entityNameOf(urn)).toBe('dataset');
  expect(entityNameOf('urn:li:dataFlow:(airflow,users,PROD)')).toBe('dataFlow');
  expect(openApiPath(urn)).toBe(`/openapi/v3/entity/dataset/${encodeURIComponent(urn)}`);
});
