// Stats (GET /v1/stats): the server's version, uptime, memory and searches per second, and per
// collection its documents, segments, size, state and embedding progress; refreshed every 5 s
// while the page is open.

import { api, errorText } from '../api.ts';
import { formatBytes } from '../../../format/index.ts';
import { h, message, replace, table } from '../dom.ts';
import type { Page } from '../page.ts';
import type { Stats } from '../../../clients/typescript/api-types.ts';

const REFRESH_MS = 5000;

function duration(seconds: number): string {
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  return minutes > 0 ? `${minutes} min ${seconds % 60} s` : `${seconds} s`;
}

export async function renderStats(page: Page): Promise<void> {
  const body = h('div', { 'aria-live': 'polite' });
  replace(page.main, h('h1', {}, 'Stats'), body);
  const load = async (): Promise<void> => {
    try {
      const stats = await api<Stats>('/v1/stats');
      const server = h('dl', { class: 'card facts' },
        h('dt', {}, 'Version'), h('dd', {}, stats.version),
        h('dt', {}, 'Up'), h('dd', {}, `${duration(stats.uptime_s)} (since ${stats.started_at.slice(0, 19).replace('T', ' ')} UTC)`),
        h('dt', {}, 'Memory'), h('dd', {}, `${formatBytes(stats.memory.rss_bytes)} resident, heap ${formatBytes(stats.memory.heap_used_bytes)}`),
        h('dt', {}, 'Searches'), h('dd', {}, `${stats.searches.total} answered, ${stats.searches.per_second} per second over the last minute`));
      const rows = stats.collections.map((c) => [c.name, String(c.documents), String(c.segments), formatBytes(c.bytes), c.reason ? `${c.state}: ${c.reason}` : c.state,
        Object.entries(c.embedding).map(([name, p]) => `${name}: ${p.embedded}/${p.embedded + p.pending}`).join('; ') || '—']);
      replace(body, server, rows.length === 0 ? message('No collections.') : table(['Collection', 'Documents', 'Segments', 'Size', 'State', 'Embedded'], rows, 'Collections'));
    } catch (error) {
      replace(body, message(errorText(error), 'error'));
    }
  };
  await load();
  const timer = window.setInterval(() => {
    if (!document.body.contains(body)) window.clearInterval(timer);
    else void load();
  }, REFRESH_MS);
}
