// Signing in: the master key opens a 12-hour session (POST /v1/sessions; the key itself is not
// kept), or an admin API key is used as it is (checked with GET /v1/api-keys). Either way the
// token lives in sessionStorage only.

import { ApiError, api, errorText, signIn } from '../api.ts';
import { h, message, replace } from '../dom.ts';
import type { Session } from '../../../clients/typescript/api-types.ts';

async function tokenFor(secret: string): Promise<string> {
  try {
    const session = await api<Session>('/v1/sessions', { method: 'POST', body: { master_key: secret }, bearer: null });
    return session.token;
  } catch (error) {
    if (!(error instanceof ApiError) || (error.status !== 401 && error.status !== 400)) throw error;
  }
  // Not the master key: an admin API key works as it is.
  await api('/v1/api-keys', { bearer: secret });
  return secret;
}

export function renderSignIn(root: HTMLElement, done: () => void): void {
  const input = h('input', { id: 'secret', name: 'secret', type: 'password', autocomplete: 'current-password', required: true, spellcheck: 'false' });
  const status = h('div', { 'aria-live': 'polite' });
  const form = h(
    'form',
    { class: 'card sign-in', onsubmit: (event: Event) => {
      event.preventDefault();
      const secret = input.value.trim();
      replace(status, message('Signing in…'));
      tokenFor(secret).then(
        (value) => {
          signIn(value);
          done();
        },
        (error: unknown) => replace(status, message(error instanceof ApiError && (error.status === 401 || error.status === 403) ? 'That is neither the master key nor an admin API key.' : errorText(error), 'error')),
      );
    } },
    h('h1', {}, 'Sign in to Folio'),
    h('label', { for: 'secret' }, 'Master key or admin API key'),
    input,
    h('p', { class: 'hint' }, 'The master key is in folio-data/master.key (printed once when the server first started). It opens a 12-hour session; it is not stored in the browser.'),
    h('button', { type: 'submit' }, 'Sign in'),
    status,
  );
  replace(root, h('main', { id: 'main' }, form));
  input.focus();
}
