// Turns a ranked (segment, doc) into a SearchHit: the stored document, where the query is
// satisfied in it (hit-evidence.ts, from the postings' positions, no re-analysis): the pages
// where some clause is, the best page, and a snippet cut from that page's text (or from the
// whole text of a document without pages) with the satisfied occurrences highlighted — located
// in the text by their positions, not by analyzing it again. A request
// may ask for fewer members: ids and titles alone come from the segment's columns.

import type { Analyzer } from '../analysis/index.ts';
import type { IndexDocument, Metadata } from '../document.ts';
import { escapeHtml } from '../highlight/index.ts';
import { SNIPPET_MAX_CHARS, snippetOfMatches } from '../highlight/index.ts';
import { highlightValue } from '../highlight/index.ts';
import type { SnippetMatch } from '../highlight/index.ts';
import { TITLE_TEXT_GAP } from '../segment/segment-format.ts';
import { MAX_HIT_POSITIONS, findHitEvidence } from './hit-evidence.ts';
import type { EvidenceClause } from './hit-evidence.ts';
import { HIT_FIELDS } from './search-types.ts';
import type { HitField, ScoreExplanation, SearchHit } from './search-types.ts';
import type { SegmentView } from './segment-view.ts';

export { evidenceClauses } from './hit-evidence.ts';

export interface HitOptions {
  analyzer: Analyzer;
  highlightTag: string;
  /** The query's clauses that text can satisfy (`evidenceClauses`). */
  clauses: EvidenceClause[];
  /** The page the ranking found best (page-ranking.ts); the evidence's own choice otherwise. */
  bestPage?: number;
  /** The members to fill besides id and score; absent: all. */
  fields?: ReadonlySet<HitField>;
  /** A semantic or hybrid hit: the passage that matched by meaning (its page, its snippet when no word matched). */
  passage?: HitPassage;
  /** Per searchable metadata field the query looks in, the words (analysed) it matches there (`metadataFieldTerms`). */
  fieldTerms?: ReadonlyMap<string, ReadonlySet<string>>;
}

/** A passage of the hit's document: its page index (-1: none) and UTF-16 span in the text. */
export interface HitPassage {
  page: number;
  start: number;
  end: number;
}

/** Members that need the stored document, and those that need the query's evidence in it. */
const STORED_FIELDS: readonly HitField[] = ['format', 'metadata', 'page', 'pageLabel', 'snippet', 'highlight', 'matchedPages'];
const EVIDENCE_FIELDS: readonly HitField[] = ['page', 'pageLabel', 'snippet', 'highlight', 'matchedPages'];

export function buildHit(view: SegmentView, doc: number, score: number, options: HitOptions, explain?: ScoreExplanation): SearchHit {
  const { reader } = view;
  const fields = options.fields;
  const wants = (field: HitField): boolean => fields === undefined || fields.has(field);
  let hit: SearchHit;
  if (fields !== undefined && !STORED_FIELDS.some(wants)) {
    // Ids, scores and titles come from the segment's columns: no stored block is inflated.
    hit = { id: reader.docId(doc), score };
    if (wants('title')) hit.title = reader.title(doc);
  } else {
    hit = storedHit(view, doc, score, options, wants);
    if (fields !== undefined) for (const field of HIT_FIELDS) if (!fields.has(field)) delete hit[field];
  }
  if (explain !== undefined) hit.explain = explain;
  return hit;
}

/** The hit from the stored document, with its pages, snippet and highlight as far as `wants` asks. */
function storedHit(view: SegmentView, doc: number, score: number, options: HitOptions, wants: (field: HitField) => boolean): SearchHit {
  const { reader } = view;
  const { document, pageStarts } = reader.storedRecord(doc);
  const hit: SearchHit = {
    id: document.id,
    title: document.title,
    score,
    format: document.format,
    metadata: document.metadata,
  };
  if (wants('highlight') && options.fieldTerms !== undefined) {
    const highlights = metadataHighlights(document.metadata, options.fieldTerms, options);
    if (highlights !== null) hit.metadataHighlights = highlights;
  }
  if (!EVIDENCE_FIELDS.some(wants)) return hit;
  let snippetText = document.text;
  let page: number | null = null;
  let pageLabel: string | null = null;
  let matchedPages: number[] = [];

  const pages = document.pages;
  const paged = pages !== null && pages.length > 0 && pageStarts !== null;
  const textStart = reader.titleLengths[doc] + TITLE_TEXT_GAP;
  const evidence = findHitEvidence(options.clauses, {
    positionsOf: (term) => {
      const index = reader.terms.find(term);
      if (index < 0) return null;
      const cursor = reader.postings(index);
      return cursor.advance(doc) === doc ? cursor.positions([]) : null;
    },
    textStart,
    pageStarts: paged ? pageStarts : null,
  }, MAX_HIT_POSITIONS, paged ? options.bestPage : undefined);
  const passage = options.passage;
  if (passage !== undefined && evidence.marks.size === 0) return passageHit(hit, document, passage, options, wants);
  // The snippet's text, and the position of its first token.
  let base = textStart;
  if (paged) {
    const best = evidence.bestPage;
    matchedPages = evidence.matchedPages.map((i) => pages[i].number);
    // A hybrid hit's page that matched by meaning is a matched page too.
    if (passage !== undefined && passage.page >= 0 && passage.page < pages.length && !matchedPages.includes(pages[passage.page].number)) {
      matchedPages = [...matchedPages, pages[passage.page].number].sort((a, b) => a - b);
    }
    page = pages[best].number;
    pageLabel = pages[best].label;
    snippetText = document.text.slice(pages[best].offset, best + 1 < pages.length ? pages[best + 1].offset : undefined);
    base = pageStarts[best];
  }
  hit.page = page;
  hit.pageLabel = pageLabel;
  hit.matchedPages = matchedPages;
  if (!wants('snippet') && !wants('highlight')) return hit;
  // The tokens the evidence marks are located in the text by position (nothing else is
  // analyzed); a token is marked only if it is the word expected there.
  const marks = evidence.marks;
  const positions: number[] = [];
  for (const position of marks.keys()) if (position >= base) positions.push(position - base);
  positions.sort((a, b) => a - b);
  const matches: SnippetMatch[] = [];
  options.analyzer.locateTokens(snippetText, positions, (term, position, start, end) => {
    if (marks.get(base + position) === term) matches.push({ term, position, start, end });
  });
  const { snippet, highlight } = snippetOfMatches(snippetText, matches, { maxChars: SNIPPET_MAX_CHARS, tag: options.highlightTag });
  hit.snippet = snippet;
  hit.highlight = highlight;
  return hit;
}

/** The highlighted values of the metadata fields the query matched in, or null for none. */
function metadataHighlights(metadata: Metadata, fieldTerms: ReadonlyMap<string, ReadonlySet<string>>, options: HitOptions): Record<string, string | string[]> | null {
  let highlights: Record<string, string | string[]> | null = null;
  for (const [field, terms] of fieldTerms) {
    const value = metadata[field];
    if (typeof value === 'string') {
      const highlighted = highlightValue(value, terms, options.analyzer, options.highlightTag);
      if (highlighted !== null) (highlights ??= {})[field] = highlighted;
    } else if (Array.isArray(value) && typeof value[0] === 'string') {
      const strings = value as string[];
      const highlighted = strings.map((item) => highlightValue(item, terms, options.analyzer, options.highlightTag));
      if (highlighted.some((item) => item !== null)) (highlights ??= {})[field] = highlighted.map((item, i) => item ?? escapeHtml(strings[i]));
    }
  }
  return highlights;
}

/** A hit that matched by meaning alone: the passage's page, and a snippet from the passage's start. */
function passageHit(hit: SearchHit, document: IndexDocument, passage: HitPassage, options: HitOptions, wants: (field: HitField) => boolean): SearchHit {
  const pages = document.pages;
  const page = pages !== null && passage.page >= 0 && passage.page < pages.length ? pages[passage.page] : null;
  hit.page = page?.number ?? null;
  hit.pageLabel = page?.label ?? null;
  hit.matchedPages = page === null ? [] : [page.number];
  if (!wants('snippet') && !wants('highlight')) return hit;
  const text = document.text.slice(Math.min(passage.start, document.text.length), Math.min(passage.end, document.text.length));
  const { snippet, highlight } = snippetOfMatches(text, [], { maxChars: SNIPPET_MAX_CHARS, tag: options.highlightTag });
  hit.snippet = snippet;
  hit.highlight = highlight;
  return hit;
}
