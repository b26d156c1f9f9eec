// The search settings a collection holds (docs/api.md, "Collections": typo tolerance, synonyms,
// ranking by fields, searchable fields, OCR languages), as written in collection.json and in the
// forms searches use — synonyms analyzed into a table, boosts parsed, searchable fields as
// weights — and how they shape a search request that leaves them out. Immutable: a settings
// change builds the next one, reusing what did not change.

import { SynonymTable } from '../../engine/index.ts';
import type { Analyzer, FieldBoost, FieldWeights, SearchRequest } from '../../engine/index.ts';
import { boostClock, fieldWeightsOf, isDefaultWeights, parseBoosts, searchWeightsWithin, searchableMetadataFields } from '../settings/index.ts';
import type { SettingsValues } from '../settings/index.ts';

/** The settings of SettingsValues this holds (embedders are the collection's own concern). */
export type SearchSettingValues = Omit<SettingsValues, 'embedders'>;

export class SearchSettings {
  readonly values: Readonly<SearchSettingValues>;
  /** The metadata fields of the searchable fields (sorted names): every segment indexes their words. */
  readonly metadataSearchFields: string[];
  private readonly synonymTable: SynonymTable;
  /** Every search's boosts unless it gives its own. */
  private readonly defaultBoosts: FieldBoost[];
  /** The searchable fields as weights, or null when they are the default ones. */
  private readonly fieldWeights: FieldWeights | null;

  /**
   * `values` analyzed with the collection's query analyzer; what is unchanged since `previous`
   * is taken from it. `boostsPath` names the ranking setting in errors.
   */
  constructor(values: SearchSettingValues, private readonly queryAnalyzer: Analyzer, boostsPath: string, previous?: SearchSettings) {
    this.values = { typoTolerance: values.typoTolerance, synonyms: values.synonyms, ranking: values.ranking, searchableFields: values.searchableFields, ocrLanguages: values.ocrLanguages };
    this.synonymTable = previous?.values.synonyms === values.synonyms ? previous.synonymTable : SynonymTable.build(values.synonyms, queryAnalyzer);
    this.defaultBoosts = previous?.values.ranking === values.ranking ? previous.defaultBoosts : parseBoosts(values.ranking.boost, boostsPath);
    const weights = fieldWeightsOf(values.searchableFields);
    this.fieldWeights = isDefaultWeights(weights) ? null : weights;
    this.metadataSearchFields = searchableMetadataFields(values.searchableFields);
  }

  /** `request` with the settings it leaves out: typo tolerance, synonyms, boosts, searched fields. */
  shape(request: SearchRequest, part: string): SearchRequest {
    return {
      ...request,
      typoTolerance: this.values.typoTolerance,
      ...this.synonymsFor(request),
      ...this.boostsFor(request),
      ...this.fieldWeightsFor(request, part),
    };
  }

  /** The synonym rules a search's words can use, unless the request names its own (`[]` for `synonyms=false`). */
  private synonymsFor(request: SearchRequest): Pick<SearchRequest, 'synonyms'> {
    if (request.synonyms !== undefined || this.synonymTable.size === 0 || request.q === '') return {};
    const rules = this.synonymTable.rulesFor(request.q, this.queryAnalyzer);
    return rules.length === 0 ? {} : { synonyms: rules };
  }

  /**
   * The searchable fields as weights, unless the request gives its own `search_fields` (checked
   * against the collection's metadata fields), or they are the default.
   */
  private fieldWeightsFor(request: SearchRequest, part: string): Pick<SearchRequest, 'fieldWeights'> {
    if (request.fieldWeights !== undefined) return { fieldWeights: searchWeightsWithin(request.fieldWeights, this.metadataSearchFields, `/${part}/search_fields`) };
    return this.fieldWeights === null ? {} : { fieldWeights: this.fieldWeights };
  }

  /** `ranking.boost`, unless the request gives its own; the clock of recency boosts. */
  private boostsFor(request: SearchRequest): Pick<SearchRequest, 'boost' | 'now'> {
    const boost = request.boost ?? this.defaultBoosts;
    if (boost.length === 0) return request.boost === undefined ? {} : { boost };
    const now = boostClock(boost);
    return now === undefined ? { boost } : { boost, now };
  }
}
