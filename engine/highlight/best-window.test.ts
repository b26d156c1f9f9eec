// Tests of the best-window search: the rules (distinct terms first, then matches, then the
// earliest), and a property test comparing the one-pass sliding window with trying every
// window.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BestWindowFinder } from './best-window.ts';
import type { MatchWindow } from './best-window.ts';
import { seededRandom } from '../../test/helpers/seeded-random.ts';

interface Match {
  term: string;
  start: number;
  end: number;
}

function find(matches: Match[], width: number): MatchWindow | null {
  const finder = new BestWindowFinder(width);
  matches.forEach((match, position) => finder.add(match.term, match.start, match.end, position));
  return finder.result();
}

/** Every window [i..j] that fits, scored directly. */
function naive(matches: Match[], width: number): MatchWindow | null {
  let best: MatchWindow | null = null;
  for (let i = 0; i < matches.length; i++) {
    for (let j = i; j < matches.length; j++) {
      if (matches[j].end - matches[i].start > width) break;
      const inside = matches.slice(i, j + 1);
      const candidate = {
        start: matches[i].start,
        end: matches[j].end,
        distinct: new Set(inside.map((m) => m.term)).size,
        matches: inside.length,
        position: i,
      };
      if (
        best === null ||
        candidate.distinct > best.distinct ||
        (candidate.distinct === best.distinct && candidate.matches > best.matches) ||
        (candidate.distinct === best.distinct && candidate.matches === best.matches && candidate.start < best.start)
      ) {
        best = candidate;
      }
    }
  }
  return best;
}

describe('BestWindowFinder', () => {
  it('prefers more distinct terms over more matches', () => {
    const matches = [
      { term: 'a', start: 0, end: 1 }, { term: 'a', start: 2, end: 3 }, { term: 'a', start: 4, end: 5 },
      { term: 'a', start: 100, end: 101 }, { term: 'b', start: 105, end: 106 },
    ];
    assert.deepEqual(find(matches, 10), { start: 100, end: 106, distinct: 2, matches: 2, position: 3 });
  });

  it('breaks ties by most matches, then the earliest window', () => {
    const matches = [
      { term: 'a', start: 0, end: 1 }, { term: 'b', start: 50, end: 51 },
      { term: 'a', start: 100, end: 101 }, { term: 'b', start: 102, end: 103 }, { term: 'a', start: 104, end: 105 },
      { term: 'a', start: 200, end: 201 }, { term: 'b', start: 202, end: 203 }, { term: 'a', start: 204, end: 205 },
    ];
    assert.deepEqual(find(matches, 10), { start: 100, end: 105, distinct: 2, matches: 3, position: 2 });
  });

  it('returns null when nothing matched, and skips a match wider than the window', () => {
    assert.equal(find([], 10), null);
    assert.equal(find([{ term: 'long', start: 0, end: 20 }], 10), null);
  });

  it('agrees with trying every window (property)', () => {
    const random = seededRandom(1234);
    for (let run = 0; run < 1500; run++) {
      const matches: Match[] = [];
      let position = Math.floor(random() * 5);
      const count = Math.floor(random() * 40);
      const vocabulary = 1 + Math.floor(random() * 6);
      for (let k = 0; k < count; k++) {
        const length = 1 + Math.floor(random() * 8);
        matches.push({ term: `t${Math.floor(random() * vocabulary)}`, start: position, end: position + length });
        position += length + 1 + Math.floor(random() * 30);
      }
      const width = 5 + Math.floor(random() * 80);
      assert.deepEqual(find(matches, width), naive(matches, width), JSON.stringify({ matches, width }));
    }
  });

  it('keeps memory bounded on long inputs', () => {
    const finder = new BestWindowFinder(50);
    for (let k = 0; k < 100_000; k++) finder.add(k % 97 === 0 ? 'rare' : 'common', k * 10, k * 10 + 5, k);
    assert.deepEqual(finder.result()?.distinct, 2);
  });
});
