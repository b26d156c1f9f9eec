// Statistics of a search's corpus that add up across collections, so that a search over several
// collections scores each document as one collection holding them all would (federated search,
// docs/api.md "Search across collections"; Elasticsearch's dfs_query_then_fetch): what they
// hold, and their sum. Each collection's part is gathered by corpus-statistics-pass.ts; the sum
// is given to each collection's search as `SearchRequest.corpus`, and BM25 weighs with it
// instead of the collection's own.

/** Sums, never averages, so that collections' statistics can be added. */
export interface CorpusStatistics {
  /** Documents (deleted ones included until merged, as a collection's own statistics count them). */
  docCount: number;
  titleLength: number;
  textLength: number;
  /** Ranking units of page-level ranking: a document with pages counts each page, others count one. */
  units: number;
  /** Documents with pages: when any collection has one, each ranks by pages (page-ranking.ts). */
  pagedDocs: number;
  /** Total length of each searched metadata field's words. */
  fieldLengths: Record<string, number>;
  /** Documents holding each term the query looked up. */
  docFreqs: Record<string, number>;
}

/** The statistics of several collections searched as one. */
export function addCorpusStatistics(parts: readonly CorpusStatistics[]): CorpusStatistics {
  const sum: CorpusStatistics = { docCount: 0, titleLength: 0, textLength: 0, units: 0, pagedDocs: 0, fieldLengths: {}, docFreqs: {} };
  for (const part of parts) {
    sum.docCount += part.docCount;
    sum.titleLength += part.titleLength;
    sum.textLength += part.textLength;
    sum.units += part.units;
    sum.pagedDocs += part.pagedDocs;
    for (const [field, length] of Object.entries(part.fieldLengths)) sum.fieldLengths[field] = (sum.fieldLengths[field] ?? 0) + length;
    for (const [term, docFreq] of Object.entries(part.docFreqs)) sum.docFreqs[term] = (sum.docFreqs[term] ?? 0) + docFreq;
  }
  return sum;
}
