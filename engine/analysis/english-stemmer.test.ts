// Tests of the fast English (Porter2) stemmer: known stems from the algorithm's description,
// and a property test that it agrees exactly with snowball-stemmers' `english` on words built
// to reach every rule (checked once on the 234k distinct words of two real corpora, too).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newStemmer } from 'snowball-stemmers';
import { stemEnglish } from './english-stemmer.ts';
import { seededRandom } from '../../test/helpers/seeded-random.ts';

describe('stemEnglish', () => {
  it('stems like the Porter2 description', () => {
    const expected: Record<string, string> = {
      running: 'run', hopping: 'hop', hoped: 'hope', caresses: 'caress', ponies: 'poni', ties: 'tie',
      cats: 'cat', gas: 'gas', this: 'this', agreed: 'agre', feed: 'feed', luxuriating: 'luxuri',
      generously: 'generous', generalization: 'general', communism: 'communism', cry: 'cri', by: 'by',
      say: 'say', youth: 'youth', sky: 'sky', skies: 'sky', dying: 'die', news: 'news', only: 'onli',
      succeeding: 'succeed', inning: 'inning', innings: 'inning', connection: 'connect',
      relational: 'relat', hopefulness: 'hope', electrical: 'electr', adjustment: 'adjust',
      controlling: 'control', roll: 'roll', consignment: 'consign', a: 'a', is: 'is',
      x86: 'x86', '東京': '東京',
    };
    for (const [word, stem] of Object.entries(expected)) assert.equal(stemEnglish(word), stem, word);
  });

  it('agrees with snowball-stemmers on generated words', () => {
    const reference = newStemmer('english');
    const random = seededRandom(424242);
    const roots = ['run', 'hop', 'gener', 'commun', 'arsen', 'say', 'cry', 'play', 'yell', 'bye', 'abat',
      'luxur', 'relat', 'condit', 'valen', 'hesit', 'digit', 'conform', 'radic', 'differ', 'bil', 'log',
      'analog', 'fil', 'control', 'succ', 'proc', 'exc', 'inn', 'out', 'can', 'herr', 'earr', 'ski', 'ty',
      'ly', 'dy', 'id', 'gent', 'ug', 'earl', 'on', 'sing', 'new', 'how', 'atl', 'cosm', 'bi', 'and', 'x',
      'w', 'yy', 'aya', 'quay', 'obey', 'tap', 'tape', 'fizz', 'bless', 'kiw', 'ga', 'thi', 'fut', 'ax'];
    const suffixes = ['', 's', 'es', 'ies', 'ied', 'sses', 'us', 'ss', 'ed', 'eed', 'edly', 'eedly', 'ing',
      'ingly', 'at', 'bl', 'iz', 'bb', 'dd', 'ff', 'gg', 'mm', 'nn', 'pp', 'rr', 'tt', 'y', 'Y', 'tional',
      'enci', 'anci', 'abli', 'entli', 'izer', 'ization', 'ational', 'ation', 'ator', 'alism', 'aliti',
      'alli', 'fulness', 'ousli', 'ousness', 'iveness', 'iviti', 'biliti', 'bli', 'ogi', 'logi', 'fulli',
      'lessli', 'li', 'cli', 'tli', 'alize', 'icate', 'iciti', 'ical', 'ful', 'ness', 'ative', 'al',
      'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ism', 'ate', 'iti',
      'ous', 'ive', 'ize', 'ion', 'sion', 'tion', 'e', 'le', 'll', 'l'];
    const letters = 'abcdefghijklmnopqrstuvwxyzaeiouyy';
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
    let checked = 0;
    for (let i = 0; i < 30000; i++) {
      let word: string;
      if (random() < 0.3) {
        word = '';
        const length = 1 + Math.floor(random() * 9);
        for (let k = 0; k < length; k++) word += letters[Math.floor(random() * letters.length)];
      } else {
        word = pick(roots);
        const extra = Math.floor(random() * 3);
        for (let k = 0; k < extra; k++) word += pick(suffixes);
      }
      word = word.toLowerCase();
      assert.equal(stemEnglish(word), reference.stem(word), word);
      checked++;
    }
    assert.equal(checked, 30000);
  });
});
