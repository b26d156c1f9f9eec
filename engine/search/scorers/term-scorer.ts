// Scores one term over a segment's postings with BM25F; a field scope (`title:word`) keeps only
// docs where the term occurs in that field.

import type { FieldScope } from '../../query/index.ts';
import type { PostingsCursor } from '../../segment/postings-cursor.ts';
import { NO_MORE_DOCS } from '../../segment/postings-cursor.ts';
import type { Bm25fWeight } from '../bm25.ts';
import type { ScoreExplanation } from '../search-types.ts';
import type { FrequencyScorer } from './scorer.ts';

export class TermScorer implements FrequencyScorer {
  readonly maxScore: number;
  readonly maxFrequency: number;
  readonly cost: number;

  constructor(
    readonly term: string,
    private readonly cursor: PostingsCursor,
    private readonly weight: Bm25fWeight,
    private readonly field: FieldScope,
    private readonly titleLengths: Uint32Array,
    private readonly textLengths: Uint32Array,
  ) {
    const bounds = cursor.termBounds();
    this.maxScore = weight.upperBound(bounds);
    this.maxFrequency = weight.frequencyBound(bounds);
    this.cost = cursor.docFreq;
  }

  get doc(): number {
    return this.cursor.doc;
  }

  next(): number {
    const doc = this.cursor.next();
    return this.field === 'all' ? doc : this.skipToFieldMatch(doc);
  }

  advance(target: number): number {
    const doc = this.cursor.advance(target);
    return this.field === 'all' ? doc : this.skipToFieldMatch(doc);
  }

  /** The current doc's positions of the term (title and text), ascending, into `out`. */
  positions(out: number[]): number[] {
    return this.cursor.positions(out);
  }

  score(): number {
    const doc = this.cursor.doc;
    return this.weight.score(this.cursor.titleTf(), this.titleLengths[doc], this.cursor.textTf(), this.textLengths[doc]);
  }

  frequency(): number {
    const doc = this.cursor.doc;
    return this.weight.pseudoFrequency(this.cursor.titleTf(), this.titleLengths[doc], this.cursor.textTf(), this.textLengths[doc]);
  }

  explainFrequency(): ScoreExplanation {
    const doc = this.cursor.doc;
    return this.weight.explainFrequency(this.cursor.titleTf(), this.titleLengths[doc], this.cursor.textTf(), this.textLengths[doc]);
  }

  explain(): ScoreExplanation {
    const doc = this.cursor.doc;
    const label = this.field === 'all' ? this.term : `${this.field}:${this.term}`;
    return this.weight.explain(label, this.cursor.titleTf(), this.titleLengths[doc], this.cursor.textTf(), this.textLengths[doc]);
  }

  private skipToFieldMatch(doc: number): number {
    while (doc !== NO_MORE_DOCS && (this.field === 'title' ? this.cursor.titleTf() : this.cursor.textTf()) === 0) {
      doc = this.cursor.next();
    }
    return doc;
  }
}
