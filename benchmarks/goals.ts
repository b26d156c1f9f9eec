// Goals of the throughput benchmarks, met or missed: absolute limits (issue 4: "≤ 2 s",
// "≥ 3,000 QPS") and ratios to a peer measured in the same run (issue 15: "≥ 1.0× Xapian's
// QPS", "≤ 1.5× FTS5's build time"), as rows of a Markdown goals table.

import { count, markdownTable } from './markdown-table.ts';

export interface Goal {
  what: string;
  target: string;
  measured: string;
  verdict: string;
}

/** Lower is better: met, or missed by how many times the goal. */
export function atMost(value: number, limit: number, unit: string, digits = 2): Goal['verdict'] {
  return value <= limit ? `met (${(value / limit * 100).toFixed(0)} % of the limit)` : `**missed**: ${(value / limit).toFixed(2)}× the limit (+${(value - limit).toFixed(digits)} ${unit})`;
}

/** Higher is better: met, or reached what share of the goal. */
export function atLeast(value: number, goal: number, unit: string): Goal['verdict'] {
  return value >= goal ? `met (${(value / goal).toFixed(2)}× the goal)` : `**missed**: ${(value / goal * 100).toFixed(0)} % of the goal (−${count(goal - value)} ${unit})`;
}

export interface RatioGoal {
  what: string;
  /** Folio's figure and the peer's; null when not measured in this run. */
  value: number | null;
  reference: number | null;
  /** The peer's name as the target reads it, e.g. "Xapian's QPS". */
  referenceName: string;
  factor: number;
  /** Higher is better (QPS) or lower is better (seconds, bytes). */
  better: 'higher' | 'lower';
  /** Formats a figure with its unit, e.g. `(v) => \`${count(v)} QPS\``. */
  format: (value: number) => string;
  /** Why a figure is missing, when one is. */
  missing?: string;
}

/** `value` against `factor ×` the peer's figure. */
export function ratioGoal(goal: RatioGoal): Goal {
  const target = `${goal.better === 'higher' ? '≥' : '≤'} ${goal.factor.toFixed(1)}× ${goal.referenceName}`;
  if (goal.value === null || goal.reference === null || !(goal.reference > 0)) {
    return { what: goal.what, target, measured: '—', verdict: `not measured${goal.missing === undefined ? '' : ` (${goal.missing})`}` };
  }
  const ratio = goal.value / goal.reference;
  const met = goal.better === 'higher' ? ratio >= goal.factor : ratio <= goal.factor;
  return {
    what: goal.what,
    target,
    measured: `${goal.format(goal.value)} against ${goal.format(goal.reference)}: ${ratio.toFixed(2)}×`,
    verdict: met ? '**met**' : `**missed**: ${ratio.toFixed(2)}× against ${goal.factor.toFixed(1)}×`,
  };
}

export function goalsTable(goals: Goal[]): string {
  return markdownTable(['goal', 'target', 'measured', 'verdict'], goals.map((g) => [g.what, g.target, g.measured, g.verdict]));
}
