// Command-line values shared by the throughput benchmarks: a number option ("all" means no
// limit) and a list of peers checked against the ones a benchmark knows ("none" for none).

export function numberOption(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  const parsed = value === 'all' ? Infinity : Number(value);
  if (!(parsed >= 0)) throw new Error(`--${name} expects a number, got '${value}'`);
  return parsed;
}

/** `fts5,engine` → the set of those names; throws on a name not in `known`. */
export function peerSet(value: string, known: readonly string[]): Set<string> {
  const peers = new Set(value.split(',').map((p) => p.trim()).filter((p) => p !== '' && p !== 'none'));
  for (const peer of peers) if (!known.includes(peer)) throw new Error(`--peers: unknown peer '${peer}' (known: ${known.join(', ')}, none)`);
  return peers;
}
