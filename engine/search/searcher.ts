// Executes a search over a snapshot of a collection's segments: parses the query, weighs its
// clauses with collection-wide BM25F statistics, finds every segment's matches (filtered),
// ranks them into one top-k — by relevance with WAND, or by sort keys — counts the total
// (exactly, or up to TOTAL_EXACT_UP_TO when nothing needs every match) and the facets, and
// builds the requested page of hits (with explanations when asked). A search whose budget runs
// out (search-budget.ts) stops visiting segments and answers what it ranked so far, `timedOut`,
// its total a lower bound. By meaning, a match is one of the nearest documents
// (SEMANTIC_MATCHES, or the hits wanted when more): a semantic search's total and facets count
// those, a hybrid search's count them together with the keyword matches — the same documents
// in every mode. With `distinct`, hits are grouped by a field (grouping.ts): paging and `total`
// count groups, facets still count documents.

import type { Analyzer } from '../analysis/index.ts';
import { parseQuery } from '../query/index.ts';
import { clauseScorer, metadataFieldTerms, prepareClauses } from './clauses/index.ts';
import type { PreparedClause } from './clauses/index.ts';
import { collectionStatistics } from './collection-statistics.ts';
import { DocBitSet } from './doc-bitset.ts';
import { DEFAULT_FACET_LIMIT, FacetAccumulator, MatchedDocs } from './facet-counter.ts';
import { buildHit, evidenceClauses } from './hit-builder.ts';
import type { HitPassage } from './hit-builder.ts';
import { RRF_RANK_CONSTANT, fuseRankings } from './hybrid-fusion.ts';
import type { FusionMethod } from './hybrid-fusion.ts';
import { EngineError } from '../errors.ts';
import { normalizeVector } from '../vectors/quantization.ts';
import { segmentVectors, semanticSearch } from './semantic-search.ts';
import { CONTENTS_PAGE_FACTOR, DOCUMENT_SHARE, PAGE_RANKING_WINDOW, rankByPages } from './page-ranking.ts';
import { TOTAL_EXACT_UP_TO } from './search-types.ts';
import type { ScoreExplanation, SearchMode, SearchRequest, SearchResult, TotalRelation } from './search-types.ts';
import { searchSegment } from './segment-search.ts';
import type { SegmentView } from './segment-view.ts';
import { SegmentSortCollector, compareSortedHits, completeSortKeys, isRelevanceSort } from './sort-collector.ts';
import { TopKCollector } from './top-k-collector.ts';
import { RelevanceSink } from './relevance-sink.ts';
import type { TieBoundary } from './relevance-sink.ts';
import { SegmentBoosts } from './field-boosts.ts';
import { GroupCounter, GroupKeys, groupWindow } from './grouping.ts';
import { suggestQueries } from './suggestions.ts';
import { SearchBudget, SearchBudgetExhausted, withinBudget } from './search-budget.ts';
import { TYPO_TOLERANCE_OFF, typoBudgetRule } from '../typo/typo-rules.ts';

/** A ranked doc of some segment (with its best page when ranked by pages). */
interface RankedDoc {
  segment: number;
  doc: number;
  score: number;
  bestPage?: number;
  /** Semantic and hybrid hits: the best passage's row in the segment's vector file. */
  passage?: number;
  keywordScore?: number;
  semanticScore?: number;
}

/**
 * The nearest documents a semantic search counts as its matches, and the candidates each side of
 * a hybrid search takes before fusion: this many, or the hits wanted when more.
 */
export const SEMANTIC_MATCHES = 100;
/** A grouped keyword search ranks at least this many docs first, and widens its window this many times over while it is too narrow. */
export const MIN_GROUPING_WINDOW = 20;
export const GROUPING_WINDOW_GROWTH = 4;

/**
 * Searches the segments of a snapshot. `onMatches` is given each segment's match set where the
 * search builds one (facets, `trackTotal`): a facet value search counts its values over them.
 */
export function searchSegments(
  views: readonly SegmentView[],
  analyzer: Analyzer,
  request: SearchRequest,
  budget = SearchBudget.UNLIMITED,
  onMatches?: (segment: number, matches: DocBitSet) => void,
): SearchResult {
  try {
    return runSearch(views, analyzer, request, budget, onMatches);
  } finally {
    // The search is over: its postings cursors may be reused by the next one.
    for (const view of views) view.reader.recycleCursors();
  }
}

/**
 * The query parsed and its clauses weighted, with the collection's statistics or the request's
 * `corpus`; `lookups` (corpus-statistics.ts) is filled with every term counted in the segments.
 */
export function prepareQuery(views: readonly SegmentView[], analyzer: Analyzer, request: SearchRequest, lookups?: Record<string, number>) {
  const tolerance = request.typoTolerance ?? TYPO_TOLERANCE_OFF;
  const mode = request.mode ?? 'keyword';
  const stats = collectionStatistics(views, request.fieldWeights, request.corpus);
  const query = parseQuery(
    // A semantic search embeds the whole query text: its words are not keyword clauses.
    mode === 'semantic' ? '' : request.q,
    request.match,
    analyzer,
    typoBudgetRule(tolerance, request.typos ?? 'auto'),
    request.prefix ?? 'none',
    request.synonyms,
    // `author:word` names any of the collection's searchable metadata fields; one still being
    // indexed matches nothing until every segment has it.
    Object.keys(request.fieldWeights?.metadata ?? {}),
  );
  const options = { typoDisabledFields: tolerance.disableOnFields, analyzer, ...(request.corpus !== undefined && { docFreqs: request.corpus.docFreqs }), ...(lookups !== undefined && { lookups }) };
  const prepared = prepareClauses(query.clauses, views, stats, options);
  return { stats, query, prepared };
}

function runSearch(views: readonly SegmentView[], analyzer: Analyzer, request: SearchRequest, budget: SearchBudget, onMatches?: (segment: number, matches: DocBitSet) => void): SearchResult {
  const tolerance = request.typoTolerance ?? TYPO_TOLERANCE_OFF;
  const mode = request.mode ?? 'keyword';
  const semantic = mode === 'keyword' ? undefined : request.semantic;
  if (mode !== 'keyword' && semantic === undefined) throw new EngineError('invalid_query', `mode ${mode} needs a query vector`);
  const { stats, query, prepared } = prepareQuery(views, analyzer, request);
  const filter = request.filter ?? null;
  const k = request.offset + request.limit;
  const newFacets = (): FacetAccumulator[] => (request.facets ?? []).map((field) => new FacetAccumulator(field));
  let facets = newFacets();
  // Field boosts multiply relevance scores (field-boosts.ts); a sort by fields ignores them.
  const boosts =
    (request.boost ?? []).length === 0 || !isRelevanceSort(request.sort ?? [])
      ? null
      : SegmentBoosts.forSegments(views.map((view) => view.reader), request.boost!, request.now ?? Date.now());
  const boosted = (hit: { segment: number; doc: number; score: number }): number => (boosts === null ? hit.score : hit.score * boosts[hit.segment].multiplier(hit.doc));

  // With `distinct`, k counts groups: the rankings below take `groupSize` docs a group.
  const grouping = request.distinct === undefined ? null : { keys: new GroupKeys(views, request.distinct), size: request.groupSize ?? 1 };
  const groupCounter = (): GroupCounter | undefined => (grouping === null ? undefined : new GroupCounter(views, request.distinct!));
  /** The page of `candidates` (best first): hits offset…k, or with `distinct` the members of groups offset…k. */
  const pageOf = <T extends { segment: number; doc: number }>(candidates: readonly T[]): { page: T[]; groups: number } => {
    if (grouping === null) return { page: candidates.slice(request.offset, k), groups: 0 };
    const { groups } = groupWindow(candidates, grouping.keys, grouping.size, k, true);
    return { page: groups.slice(request.offset, k).flat(), groups: groups.length };
  };

  let page: RankedDoc[];
  let semanticCoverage: number | undefined;
  let total: number;
  let totalRelation: TotalRelation;
  if (semantic === undefined) {
    // Grouped: a window of docs, widened until it decides the page's groups (grouping.ts).
    let window = grouping === null ? k : Math.max(2 * k * grouping.size, MIN_GROUPING_WINDOW);
    for (;;) {
      const groups = groupCounter();
      const keyword = rankByKeywords(views, request, prepared, stats, facets, window, budget, undefined, boosts, groups, onMatches);
      ({ total, totalRelation } = keyword);
      if (grouping === null || groups === undefined) {
        page = keyword.ranked.slice(request.offset);
        break;
      }
      const exhaustive = (keyword.totalRelation === 'eq' && keyword.total <= window) || budget.timedOut;
      const grouped = groupWindow(keyword.ranked, grouping.keys, grouping.size, k, exhaustive);
      if (grouped.complete) {
        page = grouped.groups.slice(request.offset, k).flat();
        total = groups.count;
        break;
      }
      window *= GROUPING_WINDOW_GROWTH;
      facets = newFacets();
    }
  } else {
    const vector = normalizeVector(semantic.vector);
    // A semantic match is one of the `window` nearest documents the filter admits (a bounded
    // nearest set, as Elasticsearch's kNN `k`): `total`, facets and paging count those.
    const window = Math.max(grouping === null ? k : k * grouping.size, SEMANTIC_MATCHES);
    const nearest = semanticSearch(views, semantic.embedder, vector, window, filter, semantic.excludeIds);
    semanticCoverage = nearest.liveDocs === 0 ? 1 : nearest.embeddedDocs / nearest.liveDocs;
    if (mode === 'semantic') {
      const candidates: RankedDoc[] = nearest.hits.map((hit) => ({ segment: hit.segment, doc: hit.doc, score: boosted(hit), passage: hit.passage, semanticScore: hit.score }));
      if (boosts !== null) candidates.sort(byScore);
      const paged = pageOf(candidates);
      page = paged.page;
      total = grouping === null ? nearest.hits.length : paged.groups;
      totalRelation = 'eq';
      // Facets count the nearest documents (their bit sets are built only when asked for).
      if (facets.length > 0) {
        const nearestDocs = docSetsOf(views, nearest.hits);
        views.forEach((view, segment) => {
          const docs = nearestDocs[segment];
          if (docs !== null) countFacets(view, docs, facets);
        });
      }
    } else {
      // Hybrid: the keyword matches and the nearest documents together are the matches.
      const groups = groupCounter();
      const keyword = rankByKeywords(views, request, prepared, stats, facets, window, budget, docSetsOf(views, nearest.hits), undefined, groups);
      const fused = fuseRankings(keyword.ranked, nearest.hits, semantic.ratio, semantic.fusion ?? 'convex');
      // Boosts multiply the fused score (each side ranked unboosted).
      if (boosts !== null) {
        for (const doc of fused) doc.score = boosted(doc);
        fused.sort(byScore);
      }
      const candidates = fused.map((doc): RankedDoc => {
        const fromKeyword = doc.keywordRank < 0 ? undefined : keyword.ranked[doc.keywordRank];
        const fromSemantic = doc.semanticRank < 0 ? undefined : nearest.hits[doc.semanticRank];
        return {
          segment: doc.segment,
          doc: doc.doc,
          score: doc.score,
          bestPage: fromKeyword?.bestPage,
          passage: fromSemantic?.passage,
          keywordScore: fromKeyword?.score,
          semanticScore: fromSemantic?.score,
        };
      });
      page = pageOf(candidates).page;
      ({ total, totalRelation } = keyword);
      if (groups !== undefined) total = groups.count;
    }
  }

  const options = {
    analyzer,
    highlightTag: request.highlightTag,
    clauses: evidenceClauses(prepared),
    fields: request.hitFields === undefined ? undefined : new Set(request.hitFields),
    fieldTerms: stats.metadataFields === undefined ? undefined : metadataFieldTerms(prepared),
  };
  const hits = page.map((hit) => {
    const view = views[hit.segment];
    let explanation: ScoreExplanation | undefined;
    if (request.explain) {
      const multiplier = boosts === null ? 1 : boosts[hit.segment].multiplier(hit.doc);
      const unboosted = { ...hit, score: hit.score / multiplier };
      explanation =
        semantic === undefined
          ? explainHit(view, hit.doc, unboosted.score, prepared, hit.bestPage)
          : explainFusedHit(view, unboosted, prepared, mode, semantic.ratio, semantic.fusion ?? 'convex');
      if (boosts !== null && !boosts[hit.segment].empty) explanation = boosts[hit.segment].explain(hit.doc, unboosted.score, explanation);
    }
    const passage = semantic === undefined || hit.passage === undefined ? undefined : passageOf(view, semantic.embedder, hit.passage);
    return buildHit(view, hit.doc, hit.score, { ...options, bestPage: hit.bestPage, passage }, explanation);
  });
  const facetLimit = request.facetLimit ?? DEFAULT_FACET_LIMIT;
  const result: SearchResult = { hits, total, totalRelation, timedOut: budget.timedOut, facets: {}, facetStats: {} };
  for (const facet of facets) {
    result.facets[facet.field] = facet.top(facetLimit);
    const stats = facet.stats();
    if (stats !== null) result.facetStats[facet.field] = stats;
  }
  if (semanticCoverage !== undefined) result.semanticCoverage = semanticCoverage;
  if (total === 0 && query.clauses.length > 0 && !budget.timedOut && request.suggest !== false) result.suggestions = suggestQueries(request.q, analyzer, views);
  return result;
}

interface KeywordRanking {
  ranked: RankedDoc[];
  total: number;
  totalRelation: TotalRelation;
}

/** The keyword ranking's top `k` (by relevance or the request's sort), the total and the facets. */
function rankByKeywords(
  views: readonly SegmentView[],
  request: SearchRequest,
  prepared: readonly PreparedClause[],
  stats: ReturnType<typeof collectionStatistics>,
  facets: readonly FacetAccumulator[],
  k: number,
  budget: SearchBudget,
  alsoMatching?: readonly (DocBitSet | null)[],
  boosts?: readonly SegmentBoosts[] | null,
  groups?: GroupCounter,
  onMatches?: (segment: number, matches: DocBitSet) => void,
): KeywordRanking {
  const filter = request.filter ?? null;
  const sortKeys = request.sort ?? [];
  let total = 0;
  let totalRelation = 'eq' as TotalRelation;

  const countMatches = (view: SegmentView, segment: number, matches: DocBitSet): void => {
    const also = alsoMatching?.[segment] ?? null;
    if (also !== null) matches.or(also);
    groups?.add(segment, matches);
    onMatches?.(segment, matches);
    total += countFacets(view, matches, facets);
  };

  let ranked: RankedDoc[];
  if (isRelevanceSort(sortKeys)) {
    // With paged documents, the best documents are rescored by their best page (page-ranking.ts).
    const listing = prepared.every((p) => p.clause.occur === 'must_not');
    const byPages = (stats.byPages ?? views.some((view) => view.reader.hasPages)) && !listing;
    const window = byPages ? Math.max(k, PAGE_RANKING_WINDOW) : k;
    const idRanks = views.map((view) => view.reader.idRanks());
    const collector = new TopKCollector(window, (segmentA, docA, segmentB, docB) =>
      segmentA === segmentB
        ? idRanks[segmentA][docA] - idRanks[segmentB][docB]
        : views[segmentA].reader.compareDocIds(docA, views[segmentB].reader, docB),
    );
    // Without facets or `trackTotal`, a disjunction's matches are counted without scoring up
    // to TOTAL_EXACT_UP_TO (a grouped search's, from the docs offered), and only what may reach
    // the top k is scored (past that many, the total is a lower bound).
    // A segment answering with a match set is counted from it, whatever it offered.
    // Docs that match besides the keyword matches (a hybrid search's nearest) are counted with them.
    // The groups of a grouped search are counted from the match set, or else from what is offered.
    const needsMatchSet = request.trackTotal === true || facets.length > 0 || alsoMatching !== undefined;
    for (let segment = 0; segment < views.length && !budget.timedOut; segment++) {
      const view = views[segment];
      // With field boosts, the scores it collects are boosted (a listing ranks by the boosts alone).
      const sink = new RelevanceSink(collector, segment, window, needsMatchSet, total, groups, boosts == null ? null : boosts[segment], listing, tieBoundary(views, segment));
      const matches = withinBudget<DocBitSet | null>(
        () => searchSegment(view, prepared, filter, sink, budget),
        () => null,
      );
      if (sink.stoppedCounting) totalRelation = 'gte';
      if (matches === null) total += sink.matched;
      else countMatches(view, segment, matches);
    }
    if (budget.timedOut) totalRelation = 'gte';
    else if (totalRelation === 'gte') total = TOTAL_EXACT_UP_TO;
    ranked = collector.results();
    if (byPages && !budget.timedOut) {
      const byDocuments = ranked;
      ranked = withinBudget(
        () => {
          budget.checkNow();
          return rankByPages(byDocuments, views, prepared, stats, undefined, boosts == null ? undefined : (hit) => boosts[hit.segment].multiplier(hit.doc));
        },
        () => byDocuments,
      ).slice(0, k);
    }
  } else {
    const keys = completeSortKeys(sortKeys);
    const perSegment = [];
    for (let segment = 0; segment < views.length && !budget.timedOut; segment++) {
      const view = views[segment];
      const sink = new SegmentSortCollector(view, segment, keys, k);
      // A sort collector needs every match: it always gets a match set back (none when out of time).
      const matches = withinBudget<DocBitSet | null>(
        () => searchSegment(view, prepared, filter, sink, budget),
        () => null,
      );
      if (matches !== null) countMatches(view, segment, matches);
      perSegment.push(sink.results());
    }
    if (budget.timedOut) totalRelation = 'gte';
    ranked = perSegment.flat().sort((a, b) => compareSortedHits(keys, a, b)).slice(0, k);
  }
  return { ranked, total, totalRelation };
}

/** Best score first, ties in the order given (sort is stable). */
/**
 * Where ties start to lose in segment `segment` (relevance-sink.ts): in a segment whose doc
 * numbers follow id order, the first doc with an id above the worst kept hit's. Null elsewhere.
 */
function tieBoundary(views: readonly SegmentView[], segment: number): TieBoundary | null {
  const reader = views[segment].reader;
  if (!reader.idsAscending()) return null;
  return (worstSegment, worstDoc) => (worstSegment === segment ? worstDoc + 1 : reader.countIdsUpTo(views[worstSegment].reader, worstDoc));
}

function byScore(a: { score: number }, b: { score: number }): number {
  return b.score - a.score;
}

/** Counts `matches` of one segment into the facets; answers how many there are. */
function countFacets(view: SegmentView, matches: DocBitSet, facets: readonly FacetAccumulator[]): number {
  const count = matches.count();
  if (count === 0 || facets.length === 0) return count;
  const matchedDocs = new MatchedDocs(matches, count);
  for (const facet of facets) {
    const field = view.reader.field(facet.field);
    if (field !== null) facet.addSegment(field, matches, matchedDocs);
  }
  return count;
}

/** Per segment, the docs of `hits` as a bit set (null where none). */
function docSetsOf(views: readonly SegmentView[], hits: readonly { segment: number; doc: number }[]): (DocBitSet | null)[] {
  const sets: (DocBitSet | null)[] = views.map(() => null);
  for (const hit of hits) (sets[hit.segment] ??= new DocBitSet(views[hit.segment].reader.docCount)).add(hit.doc);
  return sets;
}

/** The passage a semantic hit came from: its page and text span. */
function passageOf(view: SegmentView, embedder: string, row: number): HitPassage | undefined {
  const vectors = segmentVectors(view, embedder);
  if (vectors === null) return undefined;
  return { page: vectors.passagePages[row], start: vectors.passageSpans[row * 2], end: vectors.passageSpans[row * 2 + 1] };
}

/** How a semantic or hybrid hit's score was made. */
function explainFusedHit(
  view: SegmentView,
  hit: RankedDoc,
  prepared: readonly PreparedClause[],
  mode: SearchMode,
  ratio: number,
  fusion: FusionMethod,
): ScoreExplanation {
  const semanticDetail: ScoreExplanation[] =
    hit.semanticScore === undefined ? [] : [{ value: hit.semanticScore, description: 'cosine similarity of the query and the best passage', details: [] }];
  if (mode === 'semantic') return { value: hit.score, description: 'semantic: cosine similarity of the query and the best passage', details: semanticDetail };
  const keywordDetail: ScoreExplanation[] =
    hit.keywordScore === undefined ? [] : [explainHit(view, hit.doc, hit.keywordScore, prepared, hit.bestPage)];
  const how =
    fusion === 'rrf'
      ? `reciprocal rank fusion: ${1 - ratio} / (${RRF_RANK_CONSTANT} + keyword rank) + ${ratio} / (${RRF_RANK_CONSTANT} + semantic rank)`
      : `convex fusion: ${1 - ratio} × keyword score + ${ratio} × semantic score, each divided by its side's best candidate (absent or negative: 0)`;
  return { value: hit.score, description: `hybrid, ${how}`, details: [...keywordDetail, ...semanticDetail] };
}

/**
 * Re-scores one doc clause by clause to say where its score came from; a doc ranked by its
 * pages (`bestPage` given) says so, with its document score's clauses beneath.
 */
function explainHit(view: SegmentView, doc: number, score: number, prepared: readonly PreparedClause[], bestPage?: number): ScoreExplanation {
  const details: ScoreExplanation[] = [];
  let documentScore = 0;
  for (const p of prepared) {
    if (p.clause.occur === 'must_not') continue;
    const scorer = clauseScorer(p, view.reader);
    if (scorer !== null && scorer.advance(doc) === doc) {
      details.push(scorer.explain());
      documentScore += scorer.score();
    }
  }
  if (bestPage === undefined) return { value: score, description: 'sum of the matching clauses', details };
  const document: ScoreExplanation = { value: documentScore, description: 'document score: sum of the matching clauses', details };
  return {
    value: score,
    description: `ranked by its best page (index ${bestPage}): ${1 - DOCUMENT_SHARE} × that page's score (BM25F of the title and the page, proximity, tables of contents ×${CONTENTS_PAGE_FACTOR}) + ${DOCUMENT_SHARE} × the document score`,
    details: [document],
  };
}
