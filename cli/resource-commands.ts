// The `list` and `delete` commands each managed resource has (`folio collections`, `keys`,
// `webhooks`): a table or the server's JSON, and a delete by name or id — declared once.

import type { Command } from 'commander';
import { action } from './errors.ts';

/** `<group> list [--json]`. */
export function addListCommand(group: Command, description: string, list: (options: { json?: boolean }) => Promise<void>): void {
  group.command('list').description(description).option('--json', "print the server's JSON answer").action(action(list));
}

/** `<group> delete <argument>`; `argument` is its name and what it is, e.g. `['<id>', "the key's id (key_…)"]`. */
export function addDeleteCommand(group: Command, description: string, argument: readonly [string, string], remove: (nameOrId: string) => Promise<void>): void {
  group.command('delete').description(description).argument(...argument).action(action(remove));
}
