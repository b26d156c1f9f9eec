// Parsers for the `folio` command's option values (comma lists, bounded integers, JSON
// objects and arrays). A bad value is an InvalidArgumentError, which commander reports as a usage
// error (exit status 2) naming the option.

import { InvalidArgumentError } from 'commander';

/** `a,b, c` → `['a', 'b', 'c']`; empty entries are dropped, an empty list is refused. */
export function listArgument(value: string): string[] {
  const items = value.split(',').map((item) => item.trim()).filter((item) => item !== '');
  if (items.length === 0) throw new InvalidArgumentError('expected a comma-separated list');
  return items;
}

/** A parser for whole numbers from `min` to `max`. */
export function integerArgument(min: number, max: number): (value: string) => number {
  return (value: string) => {
    const number = /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
    if (!Number.isSafeInteger(number) || number < min || number > max) {
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    }
    return number;
  };
}

/** The value as JSON; not JSON is an InvalidArgumentError. */
function jsonArgument(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch (error) {
    throw new InvalidArgumentError(`not valid JSON (${(error as Error).message})`);
  }
}

/** A JSON object, such as a search filter. */
export function jsonObjectArgument(value: string): Record<string, unknown> {
  const parsed = jsonArgument(value);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new InvalidArgumentError('expected a JSON object');
  return parsed as Record<string, unknown>;
}

/** A JSON array, such as a search's field boosts. */
export function jsonArrayArgument(value: string): unknown[] {
  const parsed = jsonArgument(value);
  if (!Array.isArray(parsed)) throw new InvalidArgumentError('expected a JSON array');
  return parsed;
}

/** An absolute http(s) URL, without a trailing slash. */
export function urlArgument(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('expected an absolute URL such as http://127.0.0.1:7700');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('expected an http or https URL');
  return value.replace(/\/+$/, '');
}
