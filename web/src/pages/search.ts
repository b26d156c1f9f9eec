// The search playground: pick a collection — or several, searched as one (a federated
// multi-search: hits merged by relevance, each naming its collection, facets per collection) — and
// type (results follow each keystroke, the last word a prefix); narrow with a JSON filter or by
// clicking facet values (each click adds an equality, shown as a removable chip; a facet with
// more values than shown has a box to find one as you type, by facet value search); sort (one
// collection); page through; search by words, meaning or both.
// Each hit shows its title or path, page and printed label, the other matching pages, the
// highlighted snippet, a line per searchable metadata field the query matched in (its value
// highlighted), a download of the kept original, and on request the score's explanation. A hit
// of a PDF or an image with a kept original shows a picture of its page beside it, and the
// other matching pages as small ones: a click opens the original at that page (a PDF in the
// browser's viewer at `#page=N`, the query's words asked to be found). The
// request is shown as a curl command to copy.

import { api, downloadOriginal, errorText, openOriginalAt, pagePicture, pathWithQuery } from '../api.ts';
import { h, highlightNodes, message, replace } from '../dom.ts';
import type { Page } from '../page.ts';
import type { FacetSearchResponse, FederatedHit, FederatedSearchResponse, ListCollectionsResponse, ScoreExplanation, SearchHit, SearchResponse } from '../../../clients/typescript/api-types.ts';

/** A hit of one collection's search, or of a federated one (which names the collection it comes from). */
type Hit = SearchHit & Partial<Pick<FederatedHit, 'collection'>>;
type FacetCounts = SearchResponse['facets'];
/** One collection's answer, or a federated search's. */
type Answer = SearchResponse | FederatedSearchResponse;

const PAGE_SIZE = 10;
const TYPING_PAUSE_MS = 120;
/** Values listed per facet; a facet with this many gets a box to find the others. */
const FACET_VALUES_SHOWN = 10;

function explanationTree(node: ScoreExplanation): HTMLElement {
  // The schema leaves nested explanations untyped: they are of the same shape.
  const details = node.details as ScoreExplanation[];
  return h('li', {}, `${node.value.toFixed(4)} ${node.description}`, details.length > 0 ? h('ul', {}, ...details.map(explanationTree)) : null);
}

/** `author: Donald E. <mark>Knuth</mark>`, one line a field; an array's strings joined by commas. */
function metadataHighlightLines(highlights: Hit['metadata_highlights'] = {}): HTMLElement[] {
  return Object.entries(highlights).map(([field, value]) => {
    const parts = (Array.isArray(value) ? value : [value]).flatMap((one, i) => (i === 0 ? highlightNodes(one) : [', ', ...highlightNodes(one)]));
    return h('p', { class: 'field-highlight' }, h('span', { class: 'field-name' }, `${field}: `), ...parts);
  });
}

/** File types whose pages have pictures (`GET …/pages/{n}/image`): PDFs and the images a browser shows. */
const PICTURED_FORMATS = new Set(['pdf', 'png', 'jpg', 'jpeg', 'jpe', 'jfif', 'gif', 'webp', 'bmp', 'dib']);
/** Other matching pages shown as small pictures. */
const OTHER_PAGES_SHOWN = 6;
/** Widths of the pictures, in CSS pixels (fetched at twice that, for sharp screens). */
const PAGE_PICTURE_WIDTH = 140;
const OTHER_PAGE_PICTURE_WIDTH = 56;

/** The words of a query, for a viewer to find: no operators, quotes or field names. */
function queryWords(q: string): string {
  return q
    .replace(/["()]/g, ' ')
    .split(/\s+/)
    .filter((word) => word !== '' && !word.startsWith('-') && !/^(AND|OR|NOT)$/.test(word))
    .map((word) => word.replace(/^[\w.]+:/, ''))
    .join(' ');
}

/** A button showing page `page`'s picture that opens the original there; it goes away if there is no picture. */
function pageButton(collection: string, hit: Hit, page: number, width: number, words: () => string, className: string): HTMLElement {
  const picture = h('img', { class: 'page-thumb', alt: `Page ${page}`, width });
  const button = h('button', { type: 'button', class: className, title: `Open page ${page} of the original`, onclick: () => openOriginalAt(collection, hit.id, page, words()).catch((error: unknown) => button.replaceWith(h('span', { class: 'hint' }, errorText(error)))) }, picture);
  pagePicture(collection, hit.id, page, width * 2).then(
    (url) => { picture.src = url; },
    () => button.remove(),
  );
  return button;
}

/** The hit's page as a picture, and its other matching pages as small ones; null for a type without pages to picture. */
function pagePictures(collection: string, hit: Hit, words: () => string): HTMLElement | null {
  if (hit.page == null || !PICTURED_FORMATS.has(hit.format ?? '')) return null;
  const others = (hit.matched_pages ?? []).filter((p) => p !== hit.page).slice(0, OTHER_PAGES_SHOWN);
  return h(
    'div',
    { class: 'page-pictures' },
    pageButton(collection, hit, hit.page, PAGE_PICTURE_WIDTH, words, 'page-main'),
    others.length > 0 ? h('div', { class: 'other-pages', 'aria-label': 'Other matching pages' }, ...others.map((p) => pageButton(collection, hit, p, OTHER_PAGE_PICTURE_WIDTH, words, 'page-other'))) : null,
  );
}

function pageText(hit: Hit): string {
  if (hit.page == null) return '';
  const label = hit.page_label != null && hit.page_label !== String(hit.page) ? ` (printed ${hit.page_label})` : '';
  const others = (hit.matched_pages ?? []).filter((p) => p !== hit.page);
  return `page ${hit.page}${label}${others.length > 0 ? ` · also ${others.length === 1 ? 'page' : 'pages'} ${others.slice(0, 8).join(', ')}${others.length > 8 ? ', …' : ''}` : ''}`;
}

export async function renderSearch(page: Page): Promise<void> {
  const { collections } = await api<ListCollectionsResponse>('/v1/collections');
  if (collections.length === 0) {
    replace(page.main, h('h1', {}, 'Search'), message('No collections yet: create one on the Collections page.'));
    return;
  }
  // `#/search/a,b,c`: the first is the collection picked, the others are searched with it.
  const known = new Set(collections.map((c) => c.name));
  const named = [...new Set((page.argument ?? '').split(',').filter((name) => known.has(name)))];
  const chosen = named[0] ?? collections[0].name;
  const also = named.slice(1);
  const searched = [chosen, ...also];
  const federated = also.length > 0;
  const goTo = (names: string[]): void => page.go(`search/${names.map(encodeURIComponent).join(',')}`);
  const picker = h('select', { id: 'collection', onchange: () => goTo([picker.value, ...also.filter((name) => name !== picker.value)]) }, ...collections.map((c) => h('option', { value: c.name, selected: c.name === chosen }, c.name)));
  const others = collections.filter((c) => c.name !== chosen).map((c) => {
    const box = h('input', { type: 'checkbox', id: `also-${c.name}`, checked: also.includes(c.name), onchange: () => goTo([chosen, ...collections.map((o) => o.name).filter((name) => name !== chosen && (name === c.name ? box.checked : also.includes(name)))]) });
    return h('label', { class: 'check' }, box, ` ${c.name}`);
  });
  const several = others.length === 0 ? null : h('details', { id: 'several', open: federated }, h('summary', {}, federated ? `Searching ${searched.length} collections as one` : 'Search several collections'), h('div', { class: 'several' }, ...others));
  const query = h('input', { id: 'q', type: 'search', autocomplete: 'off', placeholder: 'Words, "a phrase", -excluded, title:word' });
  const mode = h('select', { id: 'mode' }, h('option', { value: 'keyword' }, 'Words'), h('option', { value: 'semantic' }, 'Meaning'), h('option', { value: 'hybrid' }, 'Both'));
  const sort = h('input', { id: 'sort', placeholder: federated ? 'one collection only: hits of several rank by relevance' : 'e.g. modified_at:desc (default: relevance)', autocomplete: 'off', disabled: federated });
  const facetFields = h('input', { id: 'facets', value: 'format', autocomplete: 'off', placeholder: 'format, folder, year' });
  const filterText = h('textarea', { id: 'filter', rows: 2, placeholder: '{"year":{"gte":2020}}', spellcheck: 'false' });
  const explain = h('input', { id: 'explain', type: 'checkbox' });
  const chips = h('div', { class: 'chips', 'aria-label': 'Facet filters' });
  const results = h('section', { 'aria-live': 'polite', 'aria-label': 'Results' });
  const curl = h('pre', { class: 'curl' });
  const picked = new Map<string, string>();
  let offset = 0;
  let generation = 0;

  /** The filter typed, with the facet values picked. */
  const currentFilter = (): Record<string, unknown> => {
    let filter: Record<string, unknown> = {};
    const text = filterText.value.trim();
    if (text !== '') filter = JSON.parse(text) as Record<string, unknown>;
    for (const [field, value] of picked) filter = Object.keys(filter).length === 0 ? { [field]: value } : { ...filter, [field]: value };
    return filter;
  };

  /** The search's parameters, as one collection's search takes them (a federated query leaves paging and sort out). */
  const params = (): Record<string, unknown> => {
    const filter = currentFilter();
    const facets = facetFields.value.split(',').map((f) => f.trim()).filter(Boolean);
    return {
      q: query.value,
      prefix: 'last',
      ...(Object.keys(filter).length > 0 && { filter }),
      ...(facets.length > 0 && { facets, facet_limit: FACET_VALUES_SHOWN }),
      ...(mode.value !== 'keyword' && { mode: mode.value }),
      ...(explain.checked && { explain: true }),
    };
  };

  /** The request's path and body: a search, or a federated multi-search over the collections picked. */
  const request = (): { path: string; body: Record<string, unknown> } => {
    if (!federated) {
      const sortKeys = sort.value.trim();
      return { path: `/v1/collections/${encodeURIComponent(chosen)}/search`, body: { ...params(), limit: PAGE_SIZE, offset, ...(sortKeys !== '' && { sort: sortKeys }) } };
    }
    const shared = params();
    return { path: '/v1/multi-search', body: { queries: searched.map((collection) => ({ collection, ...shared })), federation: { offset, limit: PAGE_SIZE } } };
  };

  const run = async (): Promise<void> => {
    const mine = ++generation;
    let call: { path: string; body: Record<string, unknown> };
    try {
      call = request();
    } catch (error) {
      replace(results, message(`The filter is not JSON: ${errorText(error)}`, 'error'));
      return;
    }
    curl.textContent = `curl -s -X POST "${location.origin}${pathWithQuery(call.path, {})}" \\\n  -H "Authorization: Bearer $FOLIO_KEY" -H "Content-Type: application/json" \\\n  -d '${JSON.stringify(call.body).replace(/'/g, "'\\''")}'`;
    let answer: Answer;
    try {
      answer = await api<Answer>(call.path, { method: 'POST', body: call.body });
    } catch (error) {
      if (mine === generation) replace(results, message(errorText(error), 'error'));
      return;
    }
    if (mine !== generation) return; // a newer keystroke's answer wins
    show(answer);
  };

  const pick = (field: string, value: string): void => {
    picked.set(field, value);
    offset = 0;
    void run();
  };

  /** A facet's values as buttons that narrow the search. */
  const valueList = (field: string, counts: [string, number][]): HTMLElement =>
    h('ul', {}, ...counts.map(([value, count]) => h('li', {}, h('button', { type: 'button', class: 'link', onclick: () => pick(field, value) }, `${value} (${count})`))));

  /** One facet's block; with as many values as shown (there may be more), a box to find a value by facet value search. */
  const facetBlock = (collection: string, field: string, counts: Record<string, number>): HTMLElement => {
    const top = Object.entries(counts).sort((a, b) => b[1] - a[1]);
    const list = valueList(field, top);
    const heading = federated ? `${field} · ${collection}` : field;
    if (top.length < FACET_VALUES_SHOWN) return h('div', { class: 'facet' }, h('h3', {}, heading), list);
    let asked = 0;
    const find = h('input', { type: 'search', class: 'facet-find', autocomplete: 'off', placeholder: 'Find a value…', 'aria-label': `Find a value of ${field}${federated ? ` in ${collection}` : ''}` });
    let pause: number | undefined;
    find.addEventListener('input', () => {
      clearTimeout(pause);
      pause = window.setTimeout(async () => {
        const mine = ++asked;
        if (find.value.trim() === '') return replace(list, ...valueList(field, top).childNodes);
        const { q, filter } = params() as { q: string; filter?: Record<string, unknown> };
        try {
          const found = await api<FacetSearchResponse>(`/v1/collections/${encodeURIComponent(collection)}/facet-search`, {
            method: 'POST',
            body: { facet: field, q: find.value, query: q, ...(filter !== undefined && { filter }), limit: FACET_VALUES_SHOWN },
          });
          if (mine !== asked) return;
          const shown = found.values.length === 0 ? h('ul', {}, h('li', { class: 'hint' }, 'No value starts so.')) : valueList(field, found.values.map(({ value, count }) => [String(value), count]));
          replace(list, ...shown.childNodes);
        } catch (error) {
          if (mine === asked) replace(list, h('li', { class: 'hint' }, errorText(error)));
        }
      }, TYPING_PAUSE_MS);
    });
    return h('div', { class: 'facet' }, h('h3', {}, heading), find, list);
  };

  const show = (answer: Answer): void => {
    replace(chips, ...[...picked].map(([field, value]) => h('button', { type: 'button', class: 'chip', 'aria-label': `Remove filter ${field}: ${value}`, onclick: () => { picked.delete(field); offset = 0; void run(); } }, `${field}: ${value} ×`)));
    const total = `${answer.total_relation === 'gte' ? 'at least ' : ''}${answer.total} ${answer.total === 1 ? 'match' : 'matches'}${federated ? ` in ${searched.length} collections` : ''} · ${answer.took_ms} ms`;
    const hits = (answer.hits as Hit[]).map((hit) => {
      const from = hit.collection ?? chosen;
      const name = hit.title ?? (typeof hit.metadata?.path === 'string' ? hit.metadata.path : hit.id);
      const details = [federated ? from : '', hit.format, pageText(hit), `score ${hit.score.toFixed(3)}`, name === hit.id ? '' : hit.id].filter(Boolean).join(' · ');
      const download = h('button', { type: 'button', class: 'link', onclick: () => downloadOriginal(from, hit.id).catch((error: unknown) => download.replaceWith(h('span', { class: 'hint' }, errorText(error)))) }, 'Download original');
      const pictures = pagePictures(from, hit, () => queryWords(query.value));
      return h(
        'li',
        { class: pictures === null ? 'hit' : 'hit pictured' },
        pictures,
        h('h3', {}, name),
        h('p', { class: 'details' }, details),
        h('p', { class: 'snippet' }, ...highlightNodes(hit.highlight ?? '')),
        ...metadataHighlightLines(hit.metadata_highlights),
        h('p', { class: 'hit-actions' }, h('a', { href: `#/documents/${encodeURIComponent(from)}/${encodeURIComponent(hit.id)}` }, 'Open'), download),
        hit.explain ? h('details', {}, h('summary', {}, 'Why this score'), h('ul', { class: 'explain' }, explanationTree(hit.explain))) : null,
      );
    });
    const facetSets: [string, FacetCounts][] = 'facets' in answer ? [[chosen, answer.facets]] : Object.entries(answer.facets_by_collection ?? {}).map(([collection, { facets }]) => [collection, facets]);
    const facets = facetSets.flatMap(([collection, counts]) => Object.entries(counts).map(([field, values]) => facetBlock(collection, field, values)));
    const pager = h('p', { class: 'pager' },
      offset > 0 ? h('button', { type: 'button', class: 'secondary', onclick: () => { offset = Math.max(0, offset - PAGE_SIZE); void run(); } }, 'Previous') : null,
      answer.hits.length > 0 ? ` ${answer.offset + 1}–${answer.offset + answer.hits.length} ` : null,
      answer.has_more ? h('button', { type: 'button', class: 'secondary', onclick: () => { offset += PAGE_SIZE; void run(); } }, 'Next') : null,
    );
    const suggestions = 'suggestions' in answer ? answer.suggestions ?? [] : [];
    const notes = [
      ...(answer.warnings ?? []).map((w) => message(w.message)),
      ...(answer.hits.length === 0 && suggestions.length > 0 ? [h('p', {}, 'Did you mean ', ...suggestions.map((s) => h('button', { type: 'button', class: 'link', onclick: () => { query.value = s.text; offset = 0; void run(); } }, s.text)))] : []),
    ];
    replace(results, h('p', { class: 'total' }, total), ...notes, h('div', { class: 'results' }, h('ol', { class: 'hits' }, ...hits), h('aside', { class: 'facets', 'aria-label': 'Facets' }, ...facets)), pager);
  };

  let timer: number | undefined;
  const soon = (): void => {
    offset = 0;
    clearTimeout(timer);
    timer = window.setTimeout(() => void run(), TYPING_PAUSE_MS);
  };
  for (const input of [query, sort, facetFields, filterText]) input.addEventListener('input', soon);
  for (const input of [mode, explain]) input.addEventListener('change', soon);

  replace(
    page.main,
    h('h1', {}, 'Search'),
    h('form', { class: 'card search-form', role: 'search', onsubmit: (event: Event) => { event.preventDefault(); soon(); } },
      h('label', { for: 'collection' }, 'Collection'), picker,
      several,
      h('label', { for: 'q' }, 'Query'), query,
      h('label', { for: 'mode' }, 'Match by'), mode,
      h('details', {}, h('summary', {}, 'Filter, sort, facets'),
        h('label', { for: 'filter' }, 'Filter (JSON)'), filterText,
        h('label', { for: 'sort' }, 'Sort'), sort,
        h('label', { for: 'facets' }, 'Facet fields'), facetFields,
        h('label', { class: 'check' }, explain, ' Explain scores')),
    ),
    chips,
    results,
    h('details', { class: 'card' }, h('summary', {}, 'This request as curl'), curl),
  );
  query.focus();
  await run();
}
