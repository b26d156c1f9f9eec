// A prefix expansion whose term a document may hold through another word (issue 30: `runn*`
// expands to "run", the stem of "running" — and of "runs"): the term's postings, keeping only
// the documents where some word standing for that term starts with the prefix as typed. The
// check reads the words at the term's positions in the stored title and text (the tokens before
// them are counted, not analyzed), once per document and term in a search; only expansions that
// do not start with the typed prefix need it.

import type { Analyzer } from '../../analysis/index.ts';
import { TITLE_TEXT_GAP } from '../../segment/segment-format.ts';
import type { SegmentReader } from '../../segment/segment-reader.ts';
import type { ScoreExplanation } from '../score-explanation.ts';
import { NO_MORE_DOCS } from './scorer.ts';
import type { Scorer } from './scorer.ts';
import type { TermScorer } from './term-scorer.ts';

/** Per segment of one search: whether a document holds a term through a word starting with `word`. */
export class SurfaceCheck {
  private readonly answers = new Map<string, boolean>();
  private readonly positions: number[] = [];

  constructor(
    private readonly reader: SegmentReader,
    private readonly analyzer: Analyzer,
    /** The prefix as typed, folded. */
    readonly word: string,
  ) {}

  /** Whether the doc holds `term` (the current doc of `scorer`) through a word that starts with the prefix as typed. */
  holds(doc: number, term: string, scorer: TermScorer): boolean {
    const key = `${doc} ${term}`;
    let answer = this.answers.get(key);
    if (answer === undefined) {
      this.answers.set(key, (answer = this.wordAtPositionsStarts(doc, scorer.positions(this.positions))));
    }
    return answer;
  }

  private wordAtPositionsStarts(doc: number, positions: readonly number[]): boolean {
    const document = this.reader.document(doc);
    const titleLength = this.reader.titleLengths[doc];
    const textStart = titleLength + TITLE_TEXT_GAP;
    const inTitle = positions.filter((position) => position < titleLength);
    const inText = positions.filter((position) => position >= textStart).map((position) => position - textStart);
    let found = false;
    const look = (text: string, wanted: readonly number[]): void => {
      if (found || wanted.length === 0) return;
      this.analyzer.locateTokens(text, wanted, (_term, _position, start, end) => {
        if (!found && this.analyzer.fold(text.slice(start, end)).startsWith(this.word)) found = true;
      });
    };
    look(document.title ?? '', inTitle);
    look(document.text, inText);
    return found;
  }
}

export class SurfaceCheckedScorer implements Scorer {
  constructor(
    private readonly inner: TermScorer,
    private readonly check: SurfaceCheck,
  ) {}

  get doc(): number {
    return this.inner.doc;
  }

  get maxScore(): number {
    return this.inner.maxScore;
  }

  /** The plain term's blocks bound the docs whose surface form matches too. */
  shallowBound(target: number): number {
    return this.inner.shallowBound(target);
  }

  get shallowEnd(): number {
    return this.inner.shallowEnd;
  }

  groupBound(target: number): number {
    return this.inner.groupBound(target);
  }

  get groupEnd(): number {
    return this.inner.groupEnd;
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
    while (doc !== NO_MORE_DOCS && !this.check.holds(doc, this.inner.term, this.inner)) doc = this.inner.next();
    return doc;
  }
}
