// A prefix expansion whose term a document may hold through another word (issue 30: `runn*`
// expands to "run", the stem of "running" — and of "runs"): the term's postings, keeping only
// the documents where some word standing for that term starts with the prefix as typed. The
// check reads the document (its stored title and text) once per search, however many terms of
// the prefix ask about it; only expansions that do not start with the typed prefix need it.

import type { Analyzer } from '../../analysis/analyzer.ts';
import type { SegmentReader } from '../../segment/segment-reader.ts';
import type { ScoreExplanation } from '../search-types.ts';
import { NO_MORE_DOCS } from './scorer.ts';
import type { Scorer } from './scorer.ts';

/** Per segment of one search: which terms each document holds through a word starting with `word`. */
export class SurfaceCheck {
  private readonly termsByDoc = new Map<number, ReadonlySet<string>>();

  constructor(
    private readonly reader: SegmentReader,
    private readonly analyzer: Analyzer,
    /** The prefix as typed, folded. */
    readonly word: string,
  ) {}

  /** Whether the doc holds `term` through a word that starts with the prefix as typed. */
  holds(doc: number, term: string): boolean {
    let terms = this.termsByDoc.get(doc);
    if (terms === undefined) {
      const found = new Set<string>();
      const document = this.reader.document(doc);
      for (const text of [document.title ?? '', document.text]) {
        for (const token of this.analyzer.tokenize(text)) {
          if (this.analyzer.fold(text.slice(token.start, token.end)).startsWith(this.word)) found.add(token.term);
        }
      }
      this.termsByDoc.set(doc, (terms = found));
    }
    return terms.has(term);
  }
}

export class SurfaceCheckedScorer implements Scorer {
  constructor(
    private readonly inner: Scorer,
    private readonly term: string,
    private readonly check: SurfaceCheck,
  ) {}

  get doc(): number {
    return this.inner.doc;
  }

  get maxScore(): number {
    return this.inner.maxScore;
  }

  get cost(): number {
    return this.inner.cost;
  }

  next(): number {
    return this.skipUnheld(this.inner.next());
  }

  advance(target: number): number {
    if (this.inner.doc >= target) return this.inner.doc;
    return this.skipUnheld(this.inner.advance(target));
  }

  score(): number {
    return this.inner.score();
  }

  explain(): ScoreExplanation {
    const inner = this.inner.explain();
    return { ...inner, description: `${inner.description}, held by a word starting with '${this.check.word}'` };
  }

  private skipUnheld(doc: number): number {
    while (doc !== NO_MORE_DOCS && !this.check.holds(doc, this.term)) doc = this.inner.next();
    return doc;
  }
}
