// Scores an exact phrase: docs containing every term (a leapfrog conjunction over the terms'
// postings) where the terms occur at consecutive positions. The phrase is scored with BM25F as
// one pseudo-term whose frequency is the phrase's count and whose idf is the terms' idf sum.
// A repeated word has one cursor; finding the phrase in a doc costs time linear in its words'
// occurrences (phrase-starts.ts), at most MAX_PHRASE_POSITIONS of each, spent from the budget.

import type { FieldScope } from '../../query/index.ts';
import type { PostingsCursor, TfBounds } from '../../segment/postings-cursor.ts';
import { NO_MORE_DOCS } from '../../segment/postings-cursor.ts';
import type { Bm25fWeight } from '../bm25.ts';
import { forEachPhraseStart } from '../phrase-starts.ts';
import type { PhraseShape } from '../phrase-starts.ts';
import type { SearchBudget } from '../search-budget.ts';
import type { ScoreExplanation } from '../score-explanation.ts';
import type { FrequencyScorer } from './scorer.ts';
import { EVERY_DOC } from './scorer.ts';

/** Occurrences of one word in one doc a phrase examines; later ones are not counted. */
export const MAX_PHRASE_POSITIONS = 1 << 20;

export class PhraseScorer implements FrequencyScorer {
  doc = -1;
  readonly maxScore: number;

  /** No blocks: the bound over every doc. */
  readonly shallowEnd = EVERY_DOC;
  readonly groupEnd = EVERY_DOC;
  shallowBound(): number {
    return this.maxScore;
  }

  groupBound(): number {
    return this.maxScore;
  }
  readonly maxFrequency: number;
  readonly cost: number;
  private titleFreq = 0;
  private textFreq = 0;
  private readonly positions: number[][];
  private readonly byCost: PostingsCursor[];

  constructor(
    private readonly label: string,
    /** One per distinct word, in the order of `shape`'s slots. */
    private readonly cursors: PostingsCursor[],
    private readonly shape: PhraseShape,
    private readonly weight: Bm25fWeight,
    private readonly field: FieldScope,
    private readonly titleLengths: Uint32Array,
    private readonly textLengths: Uint32Array,
    private readonly budget: SearchBudget,
  ) {
    this.positions = cursors.map(() => []);
    this.byCost = [...cursors].sort((a, b) => a.docFreq - b.docFreq);
    this.cost = this.byCost[0].docFreq;
    // Phrase frequency never exceeds any term's frequency; lengths are at least each term's minimum.
    const bounds: TfBounds = { maxTitleTf: Infinity, maxTextTf: Infinity, minTitleLength: 0, minTextLength: 0 };
    for (const cursor of cursors) {
      const term = cursor.termBounds();
      bounds.maxTitleTf = Math.min(bounds.maxTitleTf, term.maxTitleTf);
      bounds.maxTextTf = Math.min(bounds.maxTextTf, term.maxTextTf);
      bounds.minTitleLength = Math.max(bounds.minTitleLength, term.minTitleLength);
      bounds.minTextLength = Math.max(bounds.minTextLength, term.minTextLength);
    }
    this.maxScore = weight.upperBound(bounds);
    this.maxFrequency = weight.frequencyBound(bounds);
  }

  next(): number {
    return this.advance(this.doc + 1);
  }

  advance(target: number): number {
    if (this.doc >= target) return this.doc;
    let candidate = this.byCost[0].advance(target);
    while (candidate !== NO_MORE_DOCS) {
      let agreed = true;
      for (let i = 1; i < this.byCost.length; i++) {
        const doc = this.byCost[i].advance(candidate);
        if (doc > candidate) {
          candidate = this.byCost[0].advance(doc);
          agreed = false;
          break;
        }
      }
      if (agreed) {
        if (this.countPhrases(candidate)) return (this.doc = candidate);
        candidate = this.byCost[0].next();
      }
    }
    return (this.doc = NO_MORE_DOCS);
  }

  score(): number {
    return this.weight.score(this.titleFreq, this.titleLengths[this.doc], this.textFreq, this.textLengths[this.doc]);
  }

  frequency(): number {
    return this.weight.pseudoFrequency(this.titleFreq, this.titleLengths[this.doc], this.textFreq, this.textLengths[this.doc]);
  }

  explainFrequency(): ScoreExplanation {
    return this.weight.explainFrequency(this.titleFreq, this.titleLengths[this.doc], this.textFreq, this.textLengths[this.doc]);
  }

  explain(): ScoreExplanation {
    const label = this.field === 'all' ? `"${this.label}"` : `${this.field}:"${this.label}"`;
    return this.weight.explain(label, this.titleFreq, this.titleLengths[this.doc], this.textFreq, this.textLengths[this.doc]);
  }

  /** Counts the phrase's occurrences in `doc` per field; true when the scope has any. */
  private countPhrases(doc: number): boolean {
    const lists = this.positions;
    for (let i = 0; i < this.cursors.length; i++) this.cursors[i].positions(lists[i], MAX_PHRASE_POSITIONS);
    const titleLength = this.titleLengths[doc];
    let titleFreq = 0;
    let textFreq = 0;
    const work = forEachPhraseStart(this.shape, lists, (start) => {
      if (start < titleLength) titleFreq++;
      else textFreq++;
    });
    this.budget.spend(work);
    if (this.field === 'title') textFreq = 0;
    if (this.field === 'text') titleFreq = 0;
    this.titleFreq = titleFreq;
    this.textFreq = textFreq;
    return titleFreq + textFreq > 0;
  }
}
