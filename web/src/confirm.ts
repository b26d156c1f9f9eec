// Asking before a destructive action, in place rather than in a browser dialog: the element
// holding the button becomes the question, a "Yes, …" button (focused, so Enter confirms) and
// Cancel. Yes runs the action and reports the outcome in the page's status line.

import { errorText } from './api.ts';
import { h, message, replace } from './dom.ts';

export interface Confirmation {
  question: string;
  /** The confirming button's words, e.g. `Yes, delete`. */
  yes: string;
  run: () => Promise<unknown>;
  /** Said in `status` once `run` succeeded. */
  done: string;
  status: HTMLElement;
  /** After success (e.g. reload the list). */
  then: () => void;
  /** On Cancel (e.g. redraw the row). */
  cancel: () => void;
}

export function askInPlace(place: HTMLElement, confirmation: Confirmation): void {
  const { question, yes, run, done, status, then, cancel } = confirmation;
  const confirm = h('button', { type: 'button', class: 'danger', onclick: () => {
    run().then(
      () => {
        replace(status, message(done));
        then();
      },
      (error: unknown) => replace(status, message(errorText(error), 'error')),
    );
  } }, yes);
  replace(place, h('span', {}, question), confirm, h('button', { type: 'button', class: 'secondary', onclick: cancel }, 'Cancel'));
  confirm.focus();
}
