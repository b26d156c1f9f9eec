// The one place where a search's answer becomes the API's JSON, and the engine's names
// (camelCase) the API's (docs/api.md, "Search": `page_label`, `matched_pages`, `facet_stats`;
// `suggestions` keeps its name). `searchResultMembers` writes the hits, facets, facet stats and
// total as JSON text, each hit with explicit keys in the order the API returns them; a search
// worker calls it (pools/search-page.ts), so the main thread neither structured-clones the hits
// nor serializes them. `parseSearchMembers` reads the text back into the engine's SearchResult
// (tests). `engineHitFields` maps a request's `fields` to the engine's names.

import type { Static } from 'typebox';
import type { HitField, ScoreExplanation, SearchHit, SearchResult } from '../../engine/index.ts';
import type { HIT_FIELD_NAMES, ScoreExplanationSchema, SearchHitSchema, SearchResponseSchema } from './search.ts';

/** The wire shapes, as server/api/search.ts declares them. */
type WireHit = Static<typeof SearchHitSchema>;
type WireExplanation = Static<typeof ScoreExplanationSchema>;
/** The members of the response body a search worker writes (the route adds the paging fields). */
type WireResult = Pick<Static<typeof SearchResponseSchema>, 'hits' | 'facets' | 'facet_stats' | 'total' | 'total_relation' | 'timed_out' | 'suggestions' | 'semantic_coverage'>;

/** A hit member's API name → the engine's (`id` and `score` are always there: null). */
const ENGINE_HIT_FIELD: Record<(typeof HIT_FIELD_NAMES)[number], HitField | null> = {
  id: null,
  score: null,
  title: 'title',
  format: 'format',
  page: 'page',
  page_label: 'pageLabel',
  snippet: 'snippet',
  highlight: 'highlight',
  metadata: 'metadata',
  matched_pages: 'matchedPages',
};

/** The engine's names of the hit members `fields` asks for (API names, already checked). */
export function engineHitFields(names: readonly (typeof HIT_FIELD_NAMES)[number][]): HitField[] {
  return names.map((name) => ENGINE_HIT_FIELD[name]).filter((field): field is HitField => field !== null);
}

/** The boundary: an engine SearchResult as the API's JSON members, in the API's key order. */
export function searchResultMembers(result: SearchResult): string {
  const stats = Object.keys(result.facetStats).length > 0 ? `,"facet_stats":${JSON.stringify(result.facetStats)}` : '';
  const suggestions = result.suggestions === undefined ? '' : `,"suggestions":${JSON.stringify(result.suggestions.map(({ text }) => ({ text })))}`;
  const coverage = result.semanticCoverage === undefined ? '' : `,"semantic_coverage":${result.semanticCoverage}`;
  return `"hits":${JSON.stringify(result.hits.map(toWireHit))},"facets":${JSON.stringify(result.facets)}${stats},"total":${result.total},"total_relation":"${result.totalRelation}","timed_out":${result.timedOut}${suggestions}${coverage}`;
}

/** The reverse of `searchResultMembers`: the engine's SearchResult, camelCase again. */
export function parseSearchMembers(members: string): SearchResult {
  const wire = JSON.parse(`{${members}}`) as WireResult;
  const result: SearchResult = {
    hits: wire.hits.map(fromWireHit),
    total: wire.total,
    totalRelation: wire.total_relation,
    timedOut: wire.timed_out,
    facets: wire.facets,
    facetStats: wire.facet_stats ?? {},
  };
  if (wire.suggestions !== undefined) result.suggestions = wire.suggestions;
  if (wire.semantic_coverage !== undefined) result.semanticCoverage = wire.semantic_coverage;
  return result;
}

/** Members a request left out are undefined and so absent from the JSON; the key order is the API's. */
function toWireHit(hit: SearchHit): WireHit {
  const wire: WireHit = {
    id: hit.id,
    title: hit.title,
    score: hit.score,
    format: hit.format,
    page: hit.page,
    page_label: hit.pageLabel,
    snippet: hit.snippet,
    highlight: hit.highlight,
    metadata: hit.metadata,
    matched_pages: hit.matchedPages,
  };
  if (hit.metadataHighlights !== undefined) wire.metadata_highlights = hit.metadataHighlights;
  if (hit.explain !== undefined) wire.explain = toWireExplanation(hit.explain);
  return wire;
}

function toWireExplanation(explanation: ScoreExplanation): WireExplanation {
  return { value: explanation.value, description: explanation.description, details: explanation.details.map(toWireExplanation) };
}

/** The engine's hit from the wire's, member by member through ENGINE_HIT_FIELD (`id`, `score` keep their names). */
function fromWireHit(wire: WireHit): SearchHit {
  const hit: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(wire)) {
    if (value === undefined) continue;
    if (name === 'explain') hit.explain = fromWireExplanation(value as WireExplanation);
    else if (name === 'metadata_highlights') hit.metadataHighlights = value;
    else hit[ENGINE_HIT_FIELD[name as keyof typeof ENGINE_HIT_FIELD] ?? name] = value;
  }
  return hit as unknown as SearchHit;
}

function fromWireExplanation(wire: WireExplanation): ScoreExplanation {
  // The schema leaves nested explanations untyped (`details` are of the same shape).
  const details = wire.details as WireExplanation[];
  return { value: wire.value, description: wire.description, details: details.map(fromWireExplanation) };
}
