// PostgreSQL LISTEN on the cluster's channels through one dedicated connection: a new write in
// the log, a new manifest, a catalog change. When the connection drops it is made again after
// a pause and `onReconnect` runs (the node then looks at everything, since notifications sent
// meanwhile are lost); the nodes also poll, so a lost notification only delays.

import pg from 'pg';

const RECONNECT_DELAY_MS = 1_000;

export class ClusterNotifications {
  private client: pg.Client | null = null;
  private closed = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly channels: readonly string[],
    private readonly onNotify: (channel: string, payload: string) => void,
    private readonly onReconnect: () => void,
  ) {}

  async start(): Promise<void> {
    await this.connect().catch(() => this.retry());
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5_000 });
    client.on('notification', (message) => this.onNotify(message.channel, message.payload ?? ''));
    client.on('error', () => this.drop(client));
    client.on('end', () => this.drop(client));
    await client.connect();
    for (const channel of this.channels) await client.query(`LISTEN ${channel}`);
    this.client = client;
    this.onReconnect();
  }

  private drop(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    client.end().catch(() => {});
    this.retry();
  }

  private retry(): void {
    if (this.closed || this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect().catch(() => this.retry());
    }, RECONNECT_DELAY_MS);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}
