// Documents of a collection: a page at a time in id order (GET …/documents, "Next" follows the
// cursor), one opened by id (summary, metadata, pages, text), deleted after a confirmation;
// files uploaded by dropping them on the page (or choosing them), each with its progress.

import { api, downloadOriginal, errorText, uploadFile } from '../api.ts';
import { askInPlace } from '../confirm.ts';
import { formatBytes, formatTime } from '../../../format/index.ts';
import { h, message, replace, table } from '../dom.ts';
import type { Page } from '../page.ts';
import type { DocumentList, ListCollectionsResponse, ListedDocument, StoredDocument } from '../../../clients/typescript/api-types.ts';

const LIST_LIMIT = 25;
/** Characters of a document's text shown before "Show all". */
const TEXT_PREVIEW = 4000;

export async function renderDocuments(page: Page): Promise<void> {
  const { collections } = await api<ListCollectionsResponse>('/v1/collections');
  if (collections.length === 0) {
    replace(page.main, h('h1', {}, 'Documents'), message('No collections yet: create one on the Collections page.'));
    return;
  }
  const [requested = '', ...idParts] = page.argument.split('/');
  const chosen = collections.some((c) => c.name === requested) ? requested : collections[0].name;
  const base = `/v1/collections/${encodeURIComponent(chosen)}/documents`;
  const picker = h('select', { id: 'collection', onchange: () => page.go(`documents/${encodeURIComponent(picker.value)}`) }, ...collections.map((c) => h('option', { value: c.name, selected: c.name === chosen }, c.name)));
  const status = h('div', { 'aria-live': 'polite' });
  const listing = h('section', { 'aria-label': 'Documents' });
  const detail = h('section', { 'aria-label': 'Document' });
  const cursors: (string | undefined)[] = [undefined];

  const showList = async (pageIndex: number): Promise<void> => {
    try {
      const answer = await api<DocumentList>(base, { query: { limit: LIST_LIMIT, cursor: cursors[pageIndex] } });
      if (answer.next_cursor !== null) cursors[pageIndex + 1] = answer.next_cursor;
      if (answer.documents.length === 0 && pageIndex === 0) {
        replace(listing, message('No documents yet: drop files above, or use folio index.'));
        return;
      }
      const rows = answer.documents.map((d) => [
        h('button', { type: 'button', class: 'link', onclick: () => void showDocument(d.id) }, d.id),
        d.title ?? (typeof d.metadata?.path === 'string' ? d.metadata.path : '—'),
        d.format ?? '—',
        d.pages == null ? '—' : String(d.pages),
        formatBytes(d.bytes ?? 0),
        formatTime(d.indexed_at),
      ]);
      replace(
        listing,
        table(['Id', 'Title or path', 'Format', 'Pages', 'Size', 'Indexed'], rows, `Documents of ${chosen}`),
        h('p', { class: 'pager' },
          pageIndex > 0 ? h('button', { type: 'button', class: 'secondary', onclick: () => void showList(pageIndex - 1) }, 'Previous') : null,
          answer.next_cursor !== null ? h('button', { type: 'button', class: 'secondary', onclick: () => void showList(pageIndex + 1) }, 'Next') : null),
      );
    } catch (error) {
      replace(listing, message(errorText(error), 'error'));
    }
  };

  const showDocument = async (id: string): Promise<void> => {
    let doc: StoredDocument;
    try {
      doc = await api<StoredDocument>(`${base}/${encodeURIComponent(id)}`);
    } catch (error) {
      replace(detail, message(errorText(error), 'error'));
      return;
    }
    const actions = h('p', { class: 'actions' });
    const askDelete = (): void => askInPlace(actions, {
      question: `Delete ${doc.id}?`,
      yes: 'Yes, delete',
      run: () => api(`${base}/${encodeURIComponent(doc.id)}?refresh=wait_for`, { method: 'DELETE' }),
      done: `Deleted ${doc.id}.`,
      status,
      then: () => { replace(detail); void showList(0); },
      cancel: () => void showDocument(doc.id),
    });
    const download = h('button', { type: 'button', class: 'secondary', onclick: () => downloadOriginal(chosen, doc.id).catch((error: unknown) => replace(status, message(errorText(error), 'error'))) }, 'Download original');
    actions.append(download, h('button', { type: 'button', class: 'danger', onclick: askDelete }, 'Delete'));
    const textBlock = h('pre', { class: 'text' }, doc.text.length > TEXT_PREVIEW ? `${doc.text.slice(0, TEXT_PREVIEW)}…` : doc.text);
    const showAll = doc.text.length > TEXT_PREVIEW
      ? h('button', { type: 'button', class: 'link', onclick: () => { textBlock.textContent = doc.text; showAll?.remove(); } }, 'Show all')
      : null;
    const metadata = Object.entries(doc.metadata).map(([field, value]) => [field, Array.isArray(value) ? value.join(', ') : String(value)]);
    replace(
      detail,
      h('article', { class: 'card document' },
        h('h2', {}, doc.title ?? doc.id),
        h('p', { class: 'details' }, [doc.id, doc.format, doc.pages === null ? '' : `${doc.pages} pages`, formatBytes(doc.bytes), `indexed ${formatTime(doc.indexed_at)}`].filter(Boolean).join(' · ')),
        metadata.length > 0 ? table(['Field', 'Value'], metadata, 'Metadata') : null,
        doc.page_list !== null && doc.page_list.some((p) => p.label !== null && p.label !== String(p.number))
          ? h('p', { class: 'hint' }, `Printed page labels: ${doc.page_list.slice(0, 12).map((p) => `${p.number}=${p.label ?? p.number}`).join(', ')}${doc.page_list.length > 12 ? ', …' : ''}`)
          : null,
        textBlock,
        showAll,
        actions),
    );
    detail.scrollIntoView?.({ block: 'start' });
  };

  const uploads = h('ul', { class: 'uploads', 'aria-live': 'polite' });
  const sendFiles = (files: FileList | File[]): void => {
    for (const file of Array.from(files)) {
      const bar = h('progress', { max: 100, value: 0, 'aria-label': `Uploading ${file.name}` });
      const line = h('li', {}, `${file.name} `, bar);
      uploads.append(line);
      uploadFile(chosen, file, (sent, total) => { bar.value = total > 0 ? Math.round((sent / total) * 100) : 0; }).then(
        (summary) => { replace(line, `${file.name}: indexed as ${summary.id}${summary.pages ? ` (${summary.pages} pages)` : ''}`); void showList(0); },
        (error: unknown) => { replace(line, h('span', { class: 'error', role: 'alert' }, `${file.name}: ${errorText(error)}`)); },
      );
    }
  };
  const chooser = h('input', { id: 'files', type: 'file', multiple: true, onchange: () => { if (chooser.files) sendFiles(chooser.files); chooser.value = ''; } });
  const drop = h('div', { class: 'drop', tabindex: '0', role: 'button', 'aria-label': 'Drop files here to upload, or press Enter to choose files',
    onkeydown: (event: Event) => { if ((event as KeyboardEvent).key === 'Enter' || (event as KeyboardEvent).key === ' ') { event.preventDefault(); chooser.click(); } },
    ondragover: (event: Event) => { event.preventDefault(); drop.classList.add('over'); },
    ondragleave: () => drop.classList.remove('over'),
    ondrop: (event: Event) => { event.preventDefault(); drop.classList.remove('over'); const files = (event as DragEvent).dataTransfer?.files; if (files) sendFiles(files); },
  }, 'Drop files here to upload them into ', h('strong', {}, chosen), ', or ', h('label', { for: 'files', class: 'link' }, 'choose files'), '.', chooser);
  const idInput = h('input', { id: 'document-id', autocomplete: 'off', placeholder: 'document id' });

  replace(
    page.main,
    h('h1', {}, 'Documents'),
    h('form', { class: 'card inline', onsubmit: (event: Event) => { event.preventDefault(); if (idInput.value.trim()) void showDocument(idInput.value.trim()); } },
      h('label', { for: 'collection' }, 'Collection'), picker,
      h('label', { for: 'document-id' }, 'Open by id'), idInput,
      h('button', { type: 'submit', class: 'secondary' }, 'Open')),
    drop,
    uploads,
    status,
    detail,
    listing,
  );
  await showList(0);
  if (idParts.length > 0) await showDocument(idParts.join('/'));
}
