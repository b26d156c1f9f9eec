// Retrieval quality metrics with trec_eval's definitions: nDCG@k (ndcg_cut_k: gain = judged
// relevance, discount log2(rank + 1), ideal ranking from all judged documents) and Recall@k
// (relevant retrieved in the top k / all relevant). Averages are over every judged query;
// a query with no results scores 0.

/** query id → document id → relevance grade (> 0 is relevant). */
export type Qrels = Map<string, Map<string, number>>;
/** query id → ranked document ids, best first. */
export type Run = Map<string, string[]>;

export function parseQrelsTsv(text: string): Qrels {
  const qrels: Qrels = new Map();
  for (const line of text.split('\n').slice(1)) {
    const [query, doc, grade] = line.trim().split('\t');
    if (!query || !doc) continue;
    let judged = qrels.get(query);
    if (!judged) qrels.set(query, (judged = new Map()));
    judged.set(doc, Number(grade));
  }
  return qrels;
}

export function ndcgAt(k: number, ranked: readonly string[], judged: ReadonlyMap<string, number>): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((doc, i) => {
    const gain = judged.get(doc) ?? 0;
    if (gain > 0) dcg += gain / Math.log2(i + 2);
  });
  const ideal = [...judged.values()].filter((g) => g > 0).sort((a, b) => b - a).slice(0, k);
  const idcg = ideal.reduce((sum, gain, i) => sum + gain / Math.log2(i + 2), 0);
  return idcg === 0 ? 0 : dcg / idcg;
}

export function recallAt(k: number, ranked: readonly string[], judged: ReadonlyMap<string, number>): number {
  const relevant = [...judged].filter(([, g]) => g > 0).map(([doc]) => doc);
  if (relevant.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  return relevant.filter((doc) => top.has(doc)).length / relevant.length;
}

/** Mean of a metric over every query in the qrels. */
export function meanOverQueries(qrels: Qrels, run: Run, metric: (ranked: readonly string[], judged: ReadonlyMap<string, number>) => number): number {
  let sum = 0;
  for (const [query, judged] of qrels) sum += metric(run.get(query) ?? [], judged);
  return qrels.size === 0 ? 0 : sum / qrels.size;
}
