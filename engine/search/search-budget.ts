// A search's budget of time (issue 18: every search has a bounded cost). The loops that visit
// docs and positions spend work units; every SPEND_CHECK_EVERY units the budget reads the
// caller's clock, and past the deadline it throws SearchBudgetExhausted, which the searcher
// catches to answer with what it found so far (`timedOut`). The engine keeps no timers: the
// clock is the caller's.

/** Work units between two readings of the clock (a doc visited, a position examined). */
const SPEND_CHECK_EVERY = 4096;
/**
 * Hot loops count docs in a local variable and spend them in batches of this many (a power of
 * two: `(++visited & SPEND_BATCH_MASK) === 0`), which keeps the budget's bookkeeping out of the
 * per-doc cost.
 */
export const SPEND_BATCH = 256;
export const SPEND_BATCH_MASK = SPEND_BATCH - 1;

export class SearchBudgetExhausted extends Error {
  constructor() {
    super('the search ran out of time');
    this.name = 'SearchBudgetExhausted';
  }
}

export class SearchBudget {
  /** Never runs out (explanations, tests, callers without a deadline). */
  static readonly UNLIMITED = new SearchBudget(Infinity, () => 0);

  private unchecked = 0;
  private exhausted = false;

  /** `deadline` on the scale of `now()`. */
  constructor(
    private readonly deadline: number,
    private readonly now: () => number,
  ) {}

  /** True once the budget ran out: the search's answer is partial. */
  get timedOut(): boolean {
    return this.exhausted;
  }

  /** Counts `work` units; past the deadline, throws SearchBudgetExhausted. */
  spend(work: number): void {
    this.unchecked += work;
    if (this.unchecked < SPEND_CHECK_EVERY) return;
    this.unchecked = 0;
    this.checkNow();
  }

  /** Reads the clock now (between stages); past the deadline, throws SearchBudgetExhausted. */
  checkNow(): void {
    if (this.deadline === Infinity) return;
    if (this.exhausted || this.now() >= this.deadline) {
      this.exhausted = true;
      throw new SearchBudgetExhausted();
    }
  }
}

/** Runs `stage`; when the budget runs out inside it, answers `fallback()` instead. */
export function withinBudget<T>(stage: () => T, fallback: () => T): T {
  try {
    return stage();
  } catch (error) {
    if (error instanceof SearchBudgetExhausted) return fallback();
    throw error;
  }
}
