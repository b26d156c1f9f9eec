// Settings of one collection (PATCH /v1/collections/{c}; docs/api.md, "Settings"): typo
// tolerance; the searchable fields (title, text: searched or not, and their weights; metadata
// fields added by name, each with its weight, and removed) with the progress of the background
// re-index that adding or removing a metadata field starts (the record's `reindexing`, read
// again every second until it is done); synonyms, one entry a line (synonym-lines.ts:
// `laptop, notebook` a group, `nyc -> new york` one-way); ranking by fields as the JSON of
// `ranking.boost`; the embedders with their embedding progress (remove one, add a builtin
// or user one); and the OCR languages of its uploads (ocr-languages-form.ts). Each form saves its own part and shows the server's answer beside it: that
// part as saved, or the problem's detail and each field error (as text).

import { ApiError, api, errorText } from '../api.ts';
import { askInPlace } from '../confirm.ts';
import { h, message, replace, table } from '../dom.ts';
import type { Page } from '../page.ts';
import { ocrLanguagesForm } from '../ocr-languages-form.ts';
import { parseSynonymLines, synonymLines, wordsLinesCannotHold } from '../synonym-lines.ts';
import type { Collection, Embedder, EmbeddingProgress, ListCollectionsResponse, ReindexProgress, SearchableField, SynonymEntry, TypoTolerance, UpdateCollectionBody } from '../../../clients/typescript/api-types.ts';

/** A metadata field in the searchable fields form (saved, or added and not saved yet). */
interface MetadataRow {
  field: string;
  weightInput: HTMLInputElement;
  element: HTMLElement;
}
/** The documented examples of `ranking.boost` (docs/api.md, "Ranking by fields"). */
const BOOST_EXAMPLE = '[\n  {"field":"metadata.sales","modifier":"log1p"},\n  {"field":"metadata.released","recency":{"scale":"30d"}}\n]';
const SYNONYMS_EXAMPLE = 'laptop, notebook\nnyc -> new york';
const PROGRESS_REFRESH_MS = 5000;
const REINDEX_REFRESH_MS = 1000;
const BOOST_ROWS = 4;
const EXACT_FIELDS = ['title', 'text'] as const;
/** The fields a collection may search for now, and their default weights (docs/api.md, "Settings: searchable fields"). */
const SEARCHABLE_FIELDS = [{ field: 'title', weight: 3 }, { field: 'text', weight: 1 }] as const;
const MAX_WEIGHT = 100;
/** The weight inputs' `min`: the server takes any weight above 0; a smaller saved one lowers it. */
const MIN_WEIGHT = 0.01;
const METADATA_PREFIX = 'metadata.';
const MAX_METADATA_FIELDS = 16;
/** A metadata field's name as the server takes it: not empty, no leading `$`, no `,` or `:` (it refuses control characters and names over 128 characters too). */
const METADATA_NAME = /^[^$,:][^,:]*$/;
/** Documents whose metadata names are suggested for a searchable field. */
const SUGGESTION_SAMPLE = 100;
/** The hidden form the "add a metadata field" inputs belong to, so adding does not submit (nor need) the searchable fields. */
const METADATA_ADDER_ID = 'metadata-field-adder';

function plural(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
}

/** `Indexing metadata.author: 40,000 of 120,000 documents (33 %)`. */
function reindexText({ fields, documents_done: done, documents_total: total }: ReindexProgress): string {
  const what = fields.length === 0 ? 'again without metadata fields' : fields.join(', ');
  const percent = total === 0 ? 0 : Math.floor((done / total) * 100);
  return `Indexing ${what}: ${done.toLocaleString('en')} of ${plural(total, 'document', 'documents')} (${percent} %)`;
}

/** The metadata fields of a list, sorted, as one string to compare: changing them re-indexes. */
function metadataFieldsOf(fields: SearchableField[]): string {
  return fields.map(({ field }) => field).filter((field) => field.startsWith(METADATA_PREFIX)).sort().join('\n');
}

function progressText(progress: EmbeddingProgress | undefined): string {
  if (progress === undefined) return '—';
  return [`${progress.embedded} embedded`, progress.pending > 0 ? `${progress.pending} waiting` : '', progress.failed > 0 ? `${progress.failed} failed` : ''].filter(Boolean).join(', ');
}

/**
 * What a refused save says: the problem's code and detail, then each field error with its path
 * (and, where `place` knows one, where that is in the form, e.g. `line 3`). All as text.
 */
function problem(error: unknown, place: (path: string) => string | null = () => null): HTMLElement {
  if (!(error instanceof ApiError) || error.errors.length === 0) return message(errorText(error), 'error');
  return h('div', { class: 'message error', role: 'alert' },
    h('p', {}, `${error.code}: ${error.message}`),
    h('ul', { class: 'field-errors' }, ...error.errors.map((item) => {
      const where = place(item.path);
      return h('li', {}, h('code', {}, item.path), where ? ` (${where})` : '', `: ${item.message}`);
    })));
}

export async function renderSettings(page: Page): Promise<void> {
  const { collections } = await api<ListCollectionsResponse>('/v1/collections');
  if (collections.length === 0) {
    replace(page.main, h('h1', {}, 'Settings'), message('No collections yet: create one on the Collections page.'));
    return;
  }
  let current = collections.find((c) => c.name === page.argument) ?? collections[0];
  const path = `/v1/collections/${encodeURIComponent(current.name)}`;
  const save = (body: UpdateCollectionBody): Promise<Collection> => api<Collection>(path, { method: 'PATCH', body }).then((record) => {
    current = record;
    showFacts();
    return record;
  });

  const picker = h('select', { id: 'collection', onchange: () => page.go(`settings/${encodeURIComponent(picker.value)}`) }, ...collections.map((c) => h('option', { value: c.name, selected: c.name === current.name }, c.name)));
  const facts = h('span', { class: 'hint' });
  const showFacts = (): void => {
    facts.textContent = `${current.language} · ${plural(current.documents, 'document', 'documents')}`;
  };

  // Typo tolerance
  const typoEnabled = h('input', { type: 'checkbox', id: 'typo-enabled' });
  const oneTypo = h('input', { type: 'number', id: 'typo-one', class: 'short', min: 0, max: 255, required: true });
  const twoTypos = h('input', { type: 'number', id: 'typo-two', class: 'short', min: 0, max: 255, required: true });
  const noTyposOnNumbers = h('input', { type: 'checkbox', id: 'typo-numbers' });
  const exactFieldBoxes = EXACT_FIELDS.map((field) => h('input', { type: 'checkbox', id: `typo-exact-${field}`, value: field }));
  const typoStatus = h('div', { 'aria-live': 'polite' });
  const showTypoTolerance = (typos: TypoTolerance): void => {
    typoEnabled.checked = typos.enabled;
    oneTypo.value = String(typos.min_word_size.one_typo);
    twoTypos.value = String(typos.min_word_size.two_typos);
    noTyposOnNumbers.checked = typos.disable_on_numbers;
    for (const box of exactFieldBoxes) box.checked = typos.disable_on_fields.includes(box.value as TypoTolerance['disable_on_fields'][number]);
  };
  const typoForm = h('form', { class: 'card', 'aria-labelledby': 'typo-heading', onsubmit: (event: Event) => {
    event.preventDefault();
    const typoTolerance: TypoTolerance = {
      enabled: typoEnabled.checked,
      min_word_size: { one_typo: Number(oneTypo.value), two_typos: Number(twoTypos.value) },
      disable_on_numbers: noTyposOnNumbers.checked,
      disable_on_fields: exactFieldBoxes.filter((box) => box.checked).map((box) => box.value as TypoTolerance['disable_on_fields'][number]),
    };
    save({ typo_tolerance: typoTolerance }).then(
      (record) => { showTypoTolerance(record.settings.typo_tolerance); replace(typoStatus, message('Typo tolerance saved.')); },
      (error: unknown) => replace(typoStatus, problem(error)),
    );
  } },
    h('h2', { id: 'typo-heading' }, 'Typo tolerance'),
    h('div', {}, h('label', { class: 'check', for: typoEnabled.id }, typoEnabled, ' Misspelled words find what they meant')),
    h('label', { for: oneTypo.id }, 'Letters a word needs for one typo'), oneTypo,
    h('label', { for: twoTypos.id }, 'Letters a word needs for two typos'), twoTypos,
    h('div', {}, h('label', { class: 'check', for: noTyposOnNumbers.id }, noTyposOnNumbers, ' No typos on words with a digit (2024 never finds 2025)')),
    h('fieldset', {}, h('legend', {}, 'Exact words only in'), ...exactFieldBoxes.map((box) => h('label', { class: 'check', for: box.id }, box, ` ${box.value}`))),
    h('button', { type: 'submit' }, 'Save typo tolerance'),
    typoStatus);

  // Searchable fields: each of title and text searched or not, with its weight; then the
  // metadata fields searched, each with its weight, removed from the list or added to it by name.
  const fieldRows = SEARCHABLE_FIELDS.map(({ field, weight }) => {
    const searched = h('input', { type: 'checkbox', id: `searched-${field}` });
    const weightInput = h('input', { type: 'number', id: `weight-${field}`, class: 'short', step: 'any', min: MIN_WEIGHT, max: MAX_WEIGHT, required: true, value: weight });
    searched.addEventListener('change', () => { weightInput.disabled = !searched.checked; });
    return { field, searched, weightInput };
  });
  const fieldsStatus = h('div', { 'aria-live': 'polite' });
  const reindexStatus = h('div', { id: 'reindex-status', 'aria-live': 'polite' });
  const metadataList = h('div');
  const metadataNameInput = h('input', { id: 'metadata-field-name', class: 'metadata-name', form: METADATA_ADDER_ID, list: 'metadata-field-names', required: true, autocomplete: 'off', spellcheck: 'false', placeholder: 'author' });
  const metadataWeightInput = h('input', { type: 'number', id: 'metadata-field-weight', class: 'short', form: METADATA_ADDER_ID, step: 'any', min: MIN_WEIGHT, max: MAX_WEIGHT, required: true, value: 1 });
  const metadataNameSuggestions = h('datalist', { id: 'metadata-field-names' });
  let metadataRows: MetadataRow[] = [];
  let metadataRowsMade = 0; // numbers each row's ids, as a field's name may not fit in one
  const showMetadataRows = (): void => {
    replace(metadataList, ...(metadataRows.length === 0 ? [h('p', { class: 'hint' }, 'No metadata field is searched.')] : metadataRows.map((row) => row.element)));
  };
  const metadataRow = (field: string, weight: number): MetadataRow => {
    const number = metadataRowsMade++;
    const weightInput = h('input', { type: 'number', id: `weight-metadata-${number}`, class: 'short', step: 'any', min: Math.min(MIN_WEIGHT, weight), max: MAX_WEIGHT, required: true, value: weight });
    const remove = (): void => {
      metadataRows = metadataRows.filter((other) => other !== row);
      showMetadataRows();
      metadataNameInput.focus();
      replace(fieldsStatus, message(`Removed ${field} from the list: save to stop searching it.`));
    };
    const element = h('div', { class: 'field-weight', role: 'group', 'aria-labelledby': `field-metadata-${number}` },
      h('code', { id: `field-metadata-${number}`, class: 'field-name' }, field),
      h('label', { for: weightInput.id }, 'Weight'), weightInput,
      h('button', { type: 'button', class: 'secondary', 'aria-label': `Remove ${field}`, onclick: remove }, 'Remove'));
    const row = { field, weightInput, element };
    return row;
  };
  const metadataAdder = h('form', { id: METADATA_ADDER_ID, hidden: true, onsubmit: (event: Event) => {
    event.preventDefault();
    const name = metadataNameInput.value.trim();
    const field = `${METADATA_PREFIX}${name}`;
    let refusal: string | null = null;
    if (!METADATA_NAME.test(name)) refusal = 'a metadata field\'s name is not empty, does not start with $ and has no , or :.';
    else if (metadataRows.some((row) => row.field === field)) refusal = `${field} is in the list already.`;
    else if (metadataRows.length >= MAX_METADATA_FIELDS) refusal = `at most ${MAX_METADATA_FIELDS} metadata fields can be searched.`;
    if (refusal !== null) {
      replace(fieldsStatus, message(`Not added: ${refusal}`, 'error'));
      return;
    }
    metadataRows = [...metadataRows, metadataRow(field, Number(metadataWeightInput.value))];
    showMetadataRows();
    metadataNameInput.value = '';
    replace(fieldsStatus, message(`Added ${field} to the list: save to search it.`));
  } });
  const fieldsText = (fields: SearchableField[]): string => fields.map(({ field, weight }) => `${field} ${weight}`).join(', ');
  const showSearchableFields = (fields: SearchableField[]): void => {
    for (const { field, searched, weightInput } of fieldRows) {
      const saved = fields.find((entry) => entry.field === field);
      searched.checked = saved !== undefined;
      weightInput.disabled = saved === undefined;
      // A field left out keeps the weight it showed, to be searched again with it.
      if (saved !== undefined) {
        weightInput.min = String(Math.min(MIN_WEIGHT, saved.weight));
        weightInput.value = String(saved.weight);
      }
    }
    metadataRows = fields.filter(({ field }) => field.startsWith(METADATA_PREFIX)).map(({ field, weight }) => metadataRow(field, weight));
    showMetadataRows();
  };
  // Re-indexing runs in the background: its progress is read again every second until it is
  // done. A newer call (after a save) takes over; leaving the page stops it.
  let reindexFollower = 0;
  const followReindexing = (progress: ReindexProgress | null): void => {
    const mine = ++reindexFollower;
    if (progress === null) {
      replace(reindexStatus, message('Searchable fields are up to date.'));
      return;
    }
    replace(reindexStatus, h('p', { class: 'message info', role: 'status' }, `${reindexText(progress)} `,
      h('progress', { max: Math.max(1, progress.documents_total), value: progress.documents_done, 'aria-label': 'Indexing progress' })));
    const readAgain = (): void => {
      if (mine !== reindexFollower || !document.body.contains(reindexStatus)) return;
      api<Collection>(path).then(
        (record) => { if (mine === reindexFollower) followReindexing(record.reindexing); },
        () => window.setTimeout(readAgain, REINDEX_REFRESH_MS), // read again a second later
      );
    };
    window.setTimeout(readAgain, REINDEX_REFRESH_MS);
  };
  const fieldsForm = h('form', { class: 'card', 'aria-labelledby': 'fields-heading', 'aria-describedby': 'fields-hint', onsubmit: (event: Event) => {
    event.preventDefault();
    const sent: SearchableField[] = [
      ...fieldRows.filter((row) => row.searched.checked).map((row) => ({ field: row.field, weight: Number(row.weightInput.value) })),
      ...metadataRows.map((row) => ({ field: row.field, weight: Number(row.weightInput.value) })),
    ];
    if (sent.length === 0) {
      replace(fieldsStatus, message('Nothing saved: check at least one field to search.', 'error'));
      return;
    }
    const fieldOf = (errorPath: string): string | null => {
      const entry = /^\/body\/searchable_fields\/(\d+)/.exec(errorPath);
      return entry ? sent[Number(entry[1])]?.field ?? null : null;
    };
    const metadataBefore = metadataFieldsOf(current.settings.searchable_fields);
    save({ searchable_fields: sent }).then(
      (record) => {
        showSearchableFields(record.settings.searchable_fields);
        replace(fieldsStatus, message(`Searchable fields saved: ${fieldsText(record.settings.searchable_fields)}.`));
        if (record.reindexing !== null || metadataFieldsOf(record.settings.searchable_fields) !== metadataBefore) followReindexing(record.reindexing);
      },
      (error: unknown) => replace(fieldsStatus, problem(error, fieldOf)),
    );
  } },
    h('h2', { id: 'fields-heading' }, 'Searchable fields'),
    h('p', { id: 'fields-hint', class: 'hint' },
      'A word in a field with weight 3 counts three times one in a field with weight 1 (weights above 0, at most 100). ',
      'A field left out is not searched, but ', h('code', {}, 'title:word'), ' still searches the title. ',
      `A metadata field's strings are searched like the text (at most ${MAX_METADATA_FIELDS} fields); adding or removing one indexes the collection again in the background: searches go on meanwhile, and find a field just added once that is done.`),
    ...fieldRows.map(({ field, searched, weightInput }) => h('div', { class: 'field-weight', role: 'group', 'aria-labelledby': `field-${field}` },
      h('code', { id: `field-${field}`, class: 'field-name' }, field),
      h('label', { class: 'check', for: searched.id }, searched, ' searched'),
      h('label', { for: weightInput.id }, 'Weight'), weightInput)),
    metadataList,
    h('div', { class: 'field-weight', role: 'group', 'aria-label': 'Add a metadata field' },
      h('label', { for: metadataNameInput.id }, 'Metadata field'), h('code', {}, METADATA_PREFIX), metadataNameInput, metadataNameSuggestions,
      h('label', { for: metadataWeightInput.id }, 'Weight'), metadataWeightInput,
      h('button', { type: 'submit', class: 'secondary', form: METADATA_ADDER_ID }, 'Add field')),
    h('button', { type: 'submit' }, 'Save searchable fields'),
    fieldsStatus,
    reindexStatus);
  // Names to suggest: the metadata fields holding text (strings, or arrays of strings) in the first documents.
  api<{ documents: { metadata?: Record<string, unknown> }[] }>(`${path}/documents`, { query: { limit: SUGGESTION_SAMPLE, fields: 'metadata' } }).then(
    ({ documents }) => {
      const names = new Set<string>();
      for (const { metadata = {} } of documents) {
        for (const [name, value] of Object.entries(metadata)) {
          if (typeof value === 'string' || (Array.isArray(value) && value.every((item) => typeof item === 'string'))) names.add(name);
        }
      }
      replace(metadataNameSuggestions, ...[...names].sort().map((name) => h('option', { value: name })));
    },
    () => undefined, // no suggestions; any name can still be typed
  );

  // Synonyms
  const synonymsText = h('textarea', { id: 'synonyms', class: 'lines', rows: 8, wrap: 'off', spellcheck: 'false', autocomplete: 'off', placeholder: SYNONYMS_EXAMPLE, 'aria-describedby': 'synonyms-syntax synonyms-count' });
  const synonymsCount = h('p', { id: 'synonyms-count', class: 'hint' });
  const synonymsNote = h('div');
  const synonymsStatus = h('div', { 'aria-live': 'polite' });
  const showSynonyms = (entries: SynonymEntry[]): void => {
    synonymsText.value = synonymLines(entries);
    synonymsCount.textContent = `${plural(entries.length, 'entry', 'entries')} saved.`;
    const unfit = wordsLinesCannotHold(entries);
    replace(synonymsNote, unfit.length === 0 ? null : message(`Some saved words hold a comma, "->" or spaces round them (${unfit.slice(0, 3).map((word) => JSON.stringify(word)).join(', ')}${unfit.length > 3 ? ', …' : ''}); saving from this box changes them.`));
  };
  synonymsText.addEventListener('input', () => {
    synonymsCount.textContent = `${plural(current.settings.synonyms.length, 'entry', 'entries')} saved · changed, not saved yet.`;
  });
  const synonymsForm = h('form', { class: 'card', 'aria-labelledby': 'synonyms-heading', onsubmit: (event: Event) => {
    event.preventDefault();
    const parsed = parseSynonymLines(synonymsText.value);
    if (parsed.problems.length > 0) {
      replace(synonymsStatus, h('div', { class: 'message error', role: 'alert' }, h('p', {}, 'Nothing saved: these lines do not read.'), h('ul', { class: 'field-errors' }, ...parsed.problems.slice(0, 50).map((text) => h('li', {}, text)))));
      return;
    }
    const lineOf = (errorPath: string): string | null => {
      const entry = /^\/body\/synonyms\/(\d+)/.exec(errorPath);
      const line = entry ? parsed.lines[Number(entry[1])] : undefined;
      return line === undefined ? null : `line ${line}`;
    };
    save({ synonyms: parsed.entries }).then(
      (record) => {
        showSynonyms(record.settings.synonyms);
        replace(synonymsStatus, message(`Synonyms saved: ${plural(record.settings.synonyms.length, 'entry', 'entries')}.`));
      },
      (error: unknown) => replace(synonymsStatus, problem(error, lineOf)),
    );
  } },
    h('h2', { id: 'synonyms-heading' }, 'Synonyms'),
    h('p', { id: 'synonyms-syntax', class: 'hint' },
      'One entry a line, words separated by commas. ', h('code', {}, 'laptop, notebook'), ' is a group: each word finds the others. ',
      h('code', {}, 'nyc -> new york'), ' is one-way: the words left of -> also find those on the right, not the other way round. ',
      'Saving replaces the whole list; searches use it at once.'),
    h('label', { for: synonymsText.id }, 'Entries'), synonymsText,
    synonymsCount,
    synonymsNote,
    h('button', { type: 'submit' }, 'Save synonyms'),
    synonymsStatus);

  // Ranking by fields
  const boostText = h('textarea', { id: 'boost', class: 'lines', rows: BOOST_ROWS, spellcheck: 'false', autocomplete: 'off', placeholder: BOOST_EXAMPLE, 'aria-describedby': 'boost-hint' });
  const boostStatus = h('div', { 'aria-live': 'polite' });
  const showBoost = (boost: unknown[]): void => {
    boostText.value = boost.length === 0 ? '' : `[\n${boost.map((one) => `  ${JSON.stringify(one)}`).join(',\n')}\n]`;
    boostText.rows = Math.max(BOOST_ROWS, boost.length + 2);
  };
  const boostForm = h('form', { class: 'card', 'aria-labelledby': 'boost-heading', onsubmit: (event: Event) => {
    event.preventDefault();
    let boost: unknown;
    try {
      boost = boostText.value.trim() === '' ? [] : JSON.parse(boostText.value);
    } catch (error) {
      replace(boostStatus, message(`Nothing saved: the boosts are not JSON (${errorText(error)}).`, 'error'));
      return;
    }
    if (!Array.isArray(boost)) {
      replace(boostStatus, message('Nothing saved: the boosts must be a JSON array, [ … ].', 'error'));
      return;
    }
    save({ ranking: { boost } }).then(
      (record) => { showBoost(record.settings.ranking.boost); replace(boostStatus, message(`Ranking saved: ${plural(record.settings.ranking.boost.length, 'boost', 'boosts')}.`)); },
      (error: unknown) => replace(boostStatus, problem(error)),
    );
  } },
    h('h2', { id: 'boost-heading' }, 'Ranking by fields'),
    h('p', { id: 'boost-hint', class: 'hint' },
      'Boosts multiply each hit\'s score by what its metadata says: a number (modifier none, log1p or sqrt; factor) or how recent a date is (recency: scale, offset, decay). ',
      'Every search that gives no boost of its own applies them; at most 8. Empty: none. See docs/api.md, "Ranking by fields".'),
    h('label', { for: boostText.id }, 'Boosts (a JSON array)'), boostText,
    h('button', { type: 'submit' }, 'Save ranking'),
    boostStatus);

  // Embedders
  const embeddersList = h('div');
  const embeddersStatus = h('div', { 'aria-live': 'polite' });
  const progressCells = new Map<string, HTMLElement>();
  const showEmbedders = (record: Collection): void => {
    progressCells.clear();
    const entries = Object.entries(record.settings.embedders);
    if (entries.length === 0) {
      replace(embeddersList, message('No embedders: this collection is searched by words only. Add one below to search it by meaning.'));
      return;
    }
    const rows = entries.map(([name, embedder]) => {
      const progress = h('span', {}, progressText(record.embedding[name]));
      progressCells.set(name, progress);
      const actions = h('span', { class: 'actions' });
      actions.append(h('button', { type: 'button', class: 'danger', 'aria-label': `Remove embedder ${name}`, onclick: () => askInPlace(actions, {
        question: `Remove ${name}? Its vectors are dropped.`,
        yes: 'Yes, remove',
        run: () => save({ embedders: { [name]: null } }),
        done: `Removed embedder ${name}.`,
        status: embeddersStatus,
        then: () => showEmbedders(current),
        cancel: () => showEmbedders(current),
      }) }, 'Remove'));
      return [h('strong', {}, name), embedder.source, embedder.model || '—', embedder.dimensions === null ? '—' : String(embedder.dimensions), String(embedder.default_semantic_ratio), progress, actions];
    });
    replace(embeddersList, table(['Name', 'Source', 'Model', 'Dimensions', 'Semantic ratio', 'Embedding', ''], rows, `Embedders of ${record.name}`));
  };
  const embedderName = h('input', { id: 'embedder-name', required: true, pattern: '[A-Za-z0-9_\\-]{1,64}', autocomplete: 'off', placeholder: 'meaning' });
  const embedderSource = h('select', { id: 'embedder-source' }, h('option', { value: 'builtin' }, 'builtin (offline model)'), h('option', { value: 'user' }, 'user (your own vectors)'));
  const embedderDimensions = h('input', { type: 'number', id: 'embedder-dimensions', class: 'short', min: 1, max: 8192, disabled: true, placeholder: 'user only' });
  embedderSource.addEventListener('change', () => {
    const ownVectors = embedderSource.value === 'user';
    embedderDimensions.disabled = !ownVectors;
    embedderDimensions.required = ownVectors;
  });
  const addEmbedder = h('form', { class: 'inline subform', 'aria-labelledby': 'add-embedder-heading', onsubmit: (event: Event) => {
    event.preventDefault();
    const name = embedderName.value.trim();
    if (current.settings.embedders[name] !== undefined) {
      replace(embeddersStatus, message(`There is already an embedder named ${name}: remove it first, or choose another name.`, 'error'));
      return;
    }
    const embedder = embedderSource.value === 'user' ? { source: 'user' as const, dimensions: Number(embedderDimensions.value) } : { source: 'builtin' as const };
    save({ embedders: { [name]: embedder } }).then(
      (record) => { showEmbedders(record); embedderName.value = ''; replace(embeddersStatus, message(`Added embedder ${name}; documents are embedded in the background.`)); },
      (error: unknown) => replace(embeddersStatus, problem(error)),
    );
  } },
    h('h3', { id: 'add-embedder-heading' }, 'Add an embedder'),
    h('label', { for: embedderName.id }, 'Name'), embedderName,
    h('label', { for: embedderSource.id }, 'Source'), embedderSource,
    h('label', { for: embedderDimensions.id }, 'Dimensions'), embedderDimensions,
    h('button', { type: 'submit' }, 'Add embedder'));
  const embeddersSection = h('section', { class: 'card', 'aria-labelledby': 'embedders-heading' },
    h('h2', { id: 'embedders-heading' }, 'Embedders (search by meaning)'),
    h('p', { class: 'hint' }, 'Each embedder turns passages of the documents into vectors, in the background; the progress below follows it. builtin needs no setup; user takes the vectors your documents carry. Other sources (local, openai): see docs/api.md.'),
    embeddersList,
    embeddersStatus,
    addEmbedder);

  showFacts();
  showTypoTolerance(current.settings.typo_tolerance);
  showSearchableFields(current.settings.searchable_fields);
  showSynonyms(current.settings.synonyms);
  showBoost(current.settings.ranking.boost);
  showEmbedders(current);
  replace(
    page.main,
    h('h1', {}, 'Settings'),
    h('div', { class: 'card inline' }, h('label', { for: 'collection' }, 'Collection'), picker, ' ', facts),
    typoForm,
    fieldsForm,
    metadataAdder,
    synonymsForm,
    boostForm,
    embeddersSection,
    ocrLanguagesForm(current.settings.ocr_languages, save),
  );

  if (current.reindexing !== null) followReindexing(current.reindexing);

  // Embedding runs in the background: its progress is read again while the page is open.
  const timer = window.setInterval(() => {
    if (!document.body.contains(embeddersSection)) {
      window.clearInterval(timer);
      return;
    }
    if (progressCells.size === 0) return;
    api<Collection>(path).then(
      (record) => { for (const [name, cell] of progressCells) cell.textContent = progressText(record.embedding[name]); },
      () => undefined,
    );
  }, PROGRESS_REFRESH_MS);
}
