// A collection's statistics over the segments a search reads, for BM25F: document count, average
// title, text and page lengths, and the searched metadata fields with their weights and average
// lengths — the collection's own, or a federated search's sum over several collections
// (corpus-statistics.ts), so that each scores as one collection holding them all would.

import type { CollectionStatistics, FieldWeights, SearchedField } from './bm25.ts';
import type { CorpusStatistics } from './corpus-statistics.ts';
import type { SegmentView } from './segment-view.ts';

/**
 * The collection's statistics over `views`, with the search's field weights when it has its own,
 * or those of `corpus` (several collections searched as one, corpus-statistics.ts) when given.
 * Its metadata fields are those `weights` names that every segment indexes the words of: a field
 * being indexed still (a re-index after `searchable_fields` changed) is not searched until then.
 */
export function collectionStatistics(views: readonly SegmentView[], weights?: FieldWeights, corpus?: CorpusStatistics): CollectionStatistics {
  const sums = corpus ?? corpusOf(views, weights);
  const { docCount } = sums;
  const stats: CollectionStatistics = {
    docCount,
    avgTitleLength: docCount > 0 ? sums.titleLength / docCount : 0,
    avgTextLength: docCount > 0 ? sums.textLength / docCount : 0,
  };
  if (corpus !== undefined) {
    stats.byPages = corpus.pagedDocs > 0;
    if (corpus.units > 0) stats.avgPageTextLength = corpus.textLength / corpus.units;
  }
  if (weights === undefined) return stats;
  stats.fieldWeights = weights;
  const metadataFields: SearchedField[] = [];
  for (const [name, weight] of Object.entries(weights.metadata ?? {})) {
    if (!views.every(({ reader }) => reader.searchFields.includes(name))) continue;
    const sum = sums.fieldLengths[name] ?? 0;
    metadataFields.push({ name, weight, avgLength: docCount > 0 ? sum / docCount : 0 });
  }
  if (metadataFields.length > 0) stats.metadataFields = metadataFields;
  return stats;
}

/** The sums of `views` that add up across collections (corpus-statistics.ts), with no terms yet. */
export function corpusOf(views: readonly SegmentView[], weights?: FieldWeights): CorpusStatistics {
  const corpus: CorpusStatistics = { docCount: 0, titleLength: 0, textLength: 0, units: 0, pagedDocs: 0, fieldLengths: {}, docFreqs: {} };
  for (const { reader } of views) {
    corpus.docCount += reader.docCount;
    corpus.titleLength += reader.sumTitleLength;
    corpus.textLength += reader.sumTextLength;
    corpus.units += reader.docCount - reader.pagedDocCount + reader.pageCount;
    corpus.pagedDocs += reader.pagedDocCount;
  }
  for (const name of Object.keys(weights?.metadata ?? {})) {
    if (views.every(({ reader }) => reader.searchFields.includes(name))) corpus.fieldLengths[name] = views.reduce((total, { reader }) => total + reader.sumFieldLength(name), 0);
  }
  return corpus;
}
