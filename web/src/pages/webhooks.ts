// Webhooks: add one (URL, events; its signing secret is shown once), list them, see each one's
// recent deliveries with their status and attempts, delete one after a confirmation.

import { api, errorText } from '../api.ts';
import { askInPlace } from '../confirm.ts';
import { formatTime } from '../../../format/index.ts';
import { h, message, replace, table } from '../dom.ts';
import type { Page } from '../page.ts';
import type { ListDeliveriesResponse, ListWebhooksResponse, Webhook, WebhookDelivery } from '../../../clients/typescript/api-types.ts';

const EVENTS = ['collection.created', 'collection.deleted', 'document.indexed', 'document.deleted', 'file.indexed', 'file.failed', 'key.created', 'key.deleted'];

export async function renderWebhooks(page: Page): Promise<void> {
  const status = h('div', { 'aria-live': 'polite' });
  const list = h('div');
  const deliveries = h('section', { 'aria-label': 'Deliveries' });
  const url = h('input', { id: 'hook-url', type: 'url', required: true, placeholder: 'https://example.com/folio-hook', autocomplete: 'off' });
  const description = h('input', { id: 'hook-description', maxlength: 500, autocomplete: 'off' });
  const boxes = EVENTS.map((event) => h('input', { type: 'checkbox', id: `event-${event}`, value: event, checked: event.startsWith('document.') }));

  const showDeliveries = async (hook: Webhook): Promise<void> => {
    try {
      const answer = await api<ListDeliveriesResponse>(`/v1/webhooks/${encodeURIComponent(hook.id)}/deliveries`);
      const rows = answer.deliveries.map((d) => {
        const last = d.attempts.at(-1);
        return [d.event_type, formatTime(d.created_at), d.status, String(d.attempts.length), last ? `${last.status ?? '—'}${last.error ? ` ${last.error}` : ''} (${last.duration_ms} ms)` : '—'];
      });
      replace(deliveries, h('h2', {}, `Deliveries to ${hook.url}`), rows.length === 0 ? message('No deliveries yet.') : table(['Event', 'Created', 'Status', 'Attempts', 'Last answer'], rows, 'Deliveries'));
    } catch (error) {
      replace(deliveries, message(errorText(error), 'error'));
    }
  };

  const load = async (): Promise<void> => {
    try {
      const { webhooks } = await api<ListWebhooksResponse>('/v1/webhooks');
      if (webhooks.length === 0) {
        replace(list, message('No webhooks yet.'));
        return;
      }
      const rows = webhooks.map((hook) => {
        const cell = h('span', { class: 'actions' },
          h('button', { type: 'button', class: 'secondary', onclick: () => void showDeliveries(hook) }, 'Deliveries'));
        cell.append(h('button', { type: 'button', class: 'danger', 'aria-label': `Delete webhook ${hook.url}`, onclick: () => askInPlace(cell, {
          question: `Delete the webhook to ${hook.url}?`,
          yes: 'Yes, delete',
          run: () => api(`/v1/webhooks/${encodeURIComponent(hook.id)}`, { method: 'DELETE' }),
          done: 'Webhook deleted.',
          status,
          then: () => { replace(deliveries); void load(); },
          cancel: () => void load(),
        }) }, 'Delete'));
        return [hook.url, hook.events.join(', '), hook.disabled ? `disabled (${hook.disabled_reason ?? '?'})` : 'active', formatTime(hook.created_at), cell];
      });
      replace(list, table(['URL', 'Events', 'State', 'Created', ''], rows, 'Webhooks'));
    } catch (error) {
      replace(list, message(errorText(error), 'error'));
    }
  };

  const form = h('form', { class: 'card', onsubmit: (event: Event) => {
    event.preventDefault();
    const events = boxes.filter((box) => box.checked).map((box) => box.value);
    api<Webhook & { secret: string }>('/v1/webhooks', { method: 'POST', body: { url: url.value.trim(), events, ...(description.value.trim() && { description: description.value.trim() }) } }).then(
      (hook) => {
        replace(status, h('div', { class: 'card once' }, h('p', {}, `Webhook added. Its signing secret, shown once (verify each delivery's signature with it):`), h('input', { readonly: true, value: hook.secret, 'aria-label': 'Signing secret' })));
        url.value = '';
        void load();
      },
      (error: unknown) => replace(status, message(errorText(error), 'error')),
    );
  } },
    h('h2', {}, 'Add webhook'),
    h('label', { for: 'hook-url' }, 'URL'), url,
    h('fieldset', {}, h('legend', {}, 'Events'), ...boxes.map((box) => h('label', { class: 'check', for: box.id }, box, ` ${box.value}`))),
    h('label', { for: 'hook-description' }, 'Description'), description,
    h('button', { type: 'submit' }, 'Add webhook'));

  replace(page.main, h('h1', {}, 'Webhooks'), status, list, deliveries, form);
  await load();
}
