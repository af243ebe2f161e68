import { validateAspect } from '../src/index';
import { goldenAspects, goldenFiles } from '../test/support/golden-files';

/**
 * `pnpm --filter @mds/core bench:validate`: the cost of `validateAspect` per aspect on DataHub's golden files, as a
 * ratio to copying the same value through JSON (`JSON.parse(JSON.stringify(v))`, which ingestion does per aspect
 * anyway), so the number means the same on a busy machine and an idle one. Best of 7 rounds.
 */
const aspects = goldenFiles()
  .flatMap(goldenAspects)
  .filter((a) => a.changeType !== 'PATCH')
  .map((a) => [a.aspectName, a.value] as const);
const bytes = aspects.reduce((sum, [, v]) => sum + JSON.stringify(v).length, 0);

function best(round: () => void, rounds = 7, repeat = 40): number {
  let fastest = Infinity;
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let k = 0; k < repeat; k++) round();
    fastest = Math.min(fastest, Number(process.hrtime.bigint() - start) / 1000 / (repeat * aspects.length));
  }
  return fastest;
}

for (const [name, value] of aspects) {
  if (validateAspect(name, value).length) throw new Error(`${name} is refused: the bench measures valid values only`);
}
const validate = best(() => {
  for (const [name, value] of aspects) validateAspect(name, value);
});
const copy = best(() => {
  for (const [, value] of aspects) JSON.parse(JSON.stringify(value));
});
console.log(`${aspects.length} aspects of DataHub's golden files, ${Math.round(bytes / aspects.length)} bytes of JSON each on average`);
console.log(`validateAspect: ${validate.toFixed(2)} µs per aspect`);
console.log(`JSON copy:      ${copy.toFixed(2)} µs per aspect`);
console.log(`ratio validate / JSON copy: ${(validate / copy).toFixed(2)}`);
