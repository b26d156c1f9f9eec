// The phases of a search request, read off CPU profiles (request-profile.ts): each sample of
// each thread is put in the phase of the first frame of its stack, leaf first, whose source
// names one (native frames such as `writev` name none and take their caller's), so a socket
// write under the logger is logging and under the HTTP response is HTTP. Samples no frame
// names fall to "V8: GC and the rest".

import type { CpuProfile } from './cpu-profile-summary.ts';

export interface Phase {
  label: string;
  /** Does this frame (function name and source address) belong to the phase? */
  matches: (functionName: string, url: string) => boolean;
}

const inUrl = (...parts: string[]) => (_name: string, url: string): boolean => parts.some((part) => url.includes(part));

/** In the order they are tried for each frame; the first that matches takes the sample. */
export const PHASES: readonly Phase[] = [
  { label: 'logging (one line a request)', matches: inUrl('/pino/', '/sonic-boom/', '/log-lines.', '/pino-std-serializers/', 'logger-factory') },
  { label: 'auth: token lookup, rate limit, scope', matches: (name, url) => inUrl('/plugins/auth.', '/server/auth/')(name, url) || url === 'node:internal/crypto/hash' },
  { label: 'admission (per-key share of threads)', matches: inUrl('/search-admission.') },
  { label: 'search cache lookup', matches: inUrl('/search-cache.') },
  { label: 'validation, request building', matches: inUrl('/http/validation/', '/fastify/lib/validation', '/ajv/', '/search-request.', '/typebox/') },
  { label: 'collection: lookup, hold, settings', matches: inUrl('/collection-registry.', '/indexing/', '/semantic-query.') },
  { label: 'worker: reading the snapshot (reader cache)', matches: inUrl('/reader-cache.') },
  { label: 'the page as JSON (hits serialised, in the thread that searched)', matches: inUrl('/search-page.') },
  { label: 'engine: search and hits', matches: inUrl('/engine/') },
  { label: 'hop to the worker and back (both sides)', matches: (name, url) => inUrl('/piscina/', '/worker_pool/', '/search-pool.', '/lazy-piscina.', '/search-worker.', 'messageport', 'worker_threads')(name, url) || name === 'postMessage' },
  { label: 'response: serialising, headers, send', matches: inUrl('/fast-json-stringify/', '/fastify/lib/reply', '/run-search.', '/error-handler.') },
  { label: 'HTTP: parse, route, write (Node, Fastify)', matches: inUrl('node:_http', 'node:net', 'node:internal/stream', 'node:internal/streams', '/fastify/', '/find-my-way/', '/fast-querystring/', '/fast-uri/', '/light-my-request/', 'node:events', 'node:internal/http') },
];

const REST = 'V8: GC and the rest';

/** Sampled µs per phase (idle left out) over the samples of every profile inside `window`. */
export function phaseTimes(profiles: readonly CpuProfile[], window: { fromMicros: number; toMicros: number }): Map<string, number> {
  const totals = new Map<string, number>();
  for (const profile of profiles) {
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const parentOf = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
    const phaseOf = new Map<number, string>();
    const classify = (leaf: number): string => {
      const known = phaseOf.get(leaf);
      if (known !== undefined) return known;
      let found = REST;
      search: for (let id: number | undefined = leaf; id !== undefined; id = parentOf.get(id)) {
        const { functionName, url } = byId.get(id)!.callFrame;
        for (const phase of PHASES) {
          if (phase.matches(functionName, url)) {
            found = phase.label;
            break search;
          }
        }
      }
      phaseOf.set(leaf, found);
      return found;
    };
    let time = profile.startTime;
    for (let i = 0; i < profile.samples.length; i++) {
      time += profile.timeDeltas[i];
      const span = i + 1 < profile.timeDeltas.length ? profile.timeDeltas[i + 1] : profile.endTime - time;
      if (time < window.fromMicros || time > window.toMicros) continue;
      if (byId.get(profile.samples[i])!.callFrame.functionName === '(idle)') continue;
      const phase = classify(profile.samples[i]);
      totals.set(phase, (totals.get(phase) ?? 0) + span);
    }
  }
  return totals;
}

/** The phase labels in print order, the catch-all last. */
export const PHASE_LABELS: readonly string[] = [...PHASES.map((phase) => phase.label), REST];
