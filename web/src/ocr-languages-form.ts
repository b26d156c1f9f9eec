// The Settings page's OCR languages (docs/api.md, "OCR languages"): the languages a collection's
// scans and images are read in, picked among those the server has installed (`GET /v1/formats`
// lists them; `folio ocr add <code>` on the server installs more), saved with the collection's
// other settings. A refused save shows the server's reason.

import { api, errorText } from './api.ts';
import { h, message, replace } from './dom.ts';
import type { Collection, ListFormatsResponse, UpdateCollectionBody } from '../../clients/typescript/api-types.ts';

/** What a save sends and answers: the collection's record with its settings. */
type Save = (body: UpdateCollectionBody) => Promise<Collection>;

/** The form: a checkbox per installed language (and any the setting names that is not installed), a save button and its answer. */
export function ocrLanguagesForm(saved: readonly string[], save: Save): HTMLElement {
  const boxes = h('div', { class: 'ocr-languages', role: 'group', 'aria-labelledby': 'ocr-heading' });
  const status = h('div', { 'aria-live': 'polite' });
  let current = [...saved];
  const show = (installed: readonly string[]): void => {
    const codes = [...new Set([...installed, ...current])].sort();
    replace(boxes, ...codes.map((code) => h('label', { class: 'check' }, h('input', { type: 'checkbox', value: code, name: 'ocr-language', checked: current.includes(code) }), ` ${code}${installed.includes(code) ? '' : ' (not installed)'}`)));
  };
  show([]);
  api<ListFormatsResponse>('/v1/formats').then(({ ocr_languages }) => show(ocr_languages), (error: unknown) => replace(status, message(errorText(error), 'error')));
  return h(
    'form',
    {
      class: 'card',
      'aria-labelledby': 'ocr-heading',
      onsubmit: (event: Event) => {
        event.preventDefault();
        const picked = [...boxes.querySelectorAll<HTMLInputElement>('input:checked')].map((box) => box.value);
        save({ ocr_languages: picked }).then(
          (record) => {
            current = record.settings.ocr_languages;
            replace(status, message(`OCR languages saved: ${current.join('+')}. Files uploaded from now on are read in them.`));
          },
          (error: unknown) => replace(status, message(errorText(error), 'error')),
        );
      },
    },
    h('h2', { id: 'ocr-heading' }, 'OCR languages'),
    h('p', { class: 'hint' }, 'The languages scanned pages and images of uploaded files are read in (several at once: a page in German and English). The server has those listed; `folio ocr add deu` on the server installs another.'),
    boxes,
    h('button', { type: 'submit' }, 'Save OCR languages'),
    status,
  );
}
