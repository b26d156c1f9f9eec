// `folio webhooks add|list|delete`: webhooks (docs/api.md, "Webhooks"). `add` prints the signing secret once,
// alone on standard output, with the webhook's id on standard error.

import type { Command } from 'commander';
import { listArgument } from '../arguments.ts';
import { connect } from '../connect.ts';
import { action } from '../errors.ts';
import { formatTime } from '../../format/index.ts';
import { colorEnabled, note, paint, printJson, printTable, say } from '../output.ts';
import { addDeleteCommand, addListCommand } from '../resource-commands.ts';

interface AddOptions {
  events: string[];
  description?: string;
  json?: boolean;
}

async function add(url: string, options: AddOptions): Promise<void> {
  const client = await connect();
  const created = await client.createWebhook({
    url,
    events: options.events,
    ...(options.description !== undefined && { description: options.description }),
  });
  if (options.json) return printJson(created);
  note(`Created webhook ${created.id} for ${created.events.join(', ')} → ${created.url}.`);
  note(paint('Copy the signing secret now: it is not shown again.', 'bold', colorEnabled(process.stderr)));
  say(created.secret);
}

async function list(options: { json?: boolean }): Promise<void> {
  const { webhooks } = await (await connect()).listWebhooks();
  if (options.json) return printJson({ webhooks });
  if (webhooks.length === 0) return note("No webhooks. Add one with 'folio webhooks add URL --events EVENTS'.");
  const rows = webhooks.map((webhook) => [
    webhook.id,
    webhook.url,
    webhook.events.join(','),
    webhook.disabled ? `disabled (${webhook.disabled_reason ?? 'unknown'})` : 'active',
    formatTime(webhook.created_at),
    webhook.description ?? '',
  ]);
  const header = ['ID', 'URL', 'EVENTS', 'STATE', 'CREATED', 'DESCRIPTION'];
  printTable(header, rows);
}

async function remove(id: string): Promise<void> {
  await (await connect()).deleteWebhook(id);
  say(`Deleted webhook ${id}.`);
}

export function registerWebhooks(program: Command): void {
  const webhooks = program.command('webhooks').description('manage webhooks');
  webhooks
    .command('add')
    .description('add a webhook and print its signing secret (this once)')
    .argument('<url>', 'where events are POSTed (absolute http or https URL)')
    .requiredOption(
      '--events <list>',
      'comma-separated: collection.created, collection.deleted, document.indexed, document.deleted, ' +
        'file.indexed, file.failed, key.created, key.deleted, or * for all',
      listArgument,
    )
    .option('--description <text>', 'a note on what the webhook is for')
    .option('--json', "print the server's JSON answer (secret included)")
    .action(action(add));
  addListCommand(webhooks, 'list webhooks (never their secrets)', list);
  addDeleteCommand(webhooks, 'delete a webhook; nothing more is sent to it', ['<id>', "the webhook's id (wh_…)"], remove);
}
