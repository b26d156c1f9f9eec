// The engine's seeded PRNG (mulberry32), so property tests are reproducible: the same seed gives
// the same sequence of numbers in [0, 1) on every run.

export { seededRandom } from '../../engine/vectors/seeded-random.ts';
