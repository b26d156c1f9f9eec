// The cluster's object store: segment, deletes and vector files under `s3://bucket/prefix`,
// through the S3 API (MinIO, Ceph RGW, R2 and AWS S3 in production; `--s3-endpoint` selects one,
// path-style; without it AWS, virtual-hosted). Requests are signed here (s3-signature.ts,
// credentials from the usual AWS environment variables or shared credentials file) and sent
// with node:http, bodies streamed both ways. Objects are written once under a key no other
// writer uses (it carries the writer's fencing token) and never changed; `download` writes to a
// temp file and renames it into place.

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { XMLParser } from 'fast-xml-parser';
import { ATOMIC_TEMP_PREFIX } from '../../storage/index.ts';
import { FolioError } from '../errors/index.ts';
import { EMPTY_PAYLOAD_SHA256, encodeKeyPath, encodeRfc3986, s3CredentialsFromEnvironment, signS3Request } from './s3-signature.ts';
import type { S3Credentials } from './s3-signature.ts';

export interface ObjectStoreLocation {
  bucket: string;
  /** Key prefix without a trailing slash ('' for the bucket's root). */
  prefix: string;
}

/** Parses `s3://bucket/prefix`; throws FolioError `validation_failed` naming the flag. */
export function parseObjectStoreUrl(url: string): ObjectStoreLocation {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (match === null) throw new FolioError('validation_failed', `--object-store must look like s3://bucket/prefix, not '${url}'`);
  return { bucket: match[1]!, prefix: (match[2] ?? '').replace(/\/+$/, '') };
}

export interface StoredObject {
  key: string;
  lastModified: Date;
}

/** Attempts of one request: a 5xx or a broken connection is tried once more. */
const ATTEMPTS = 2;
/** Longest a request may go without a byte moving before it is given up. */
const IDLE_TIMEOUT_MS = 60_000;
/** Keys one DeleteObjects request may name (the S3 API's limit). */
const DELETE_BATCH = 1000;

interface S3Request {
  method: 'GET' | 'PUT' | 'POST';
  key: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** The body: bytes, or a file streamed with its length. */
  body?: Buffer | { file: string; size: number };
  payloadSha256?: string;
}

const xml = new XMLParser({ parseTagValue: false, isArray: (name) => name === 'Contents' || name === 'Error' });

export class ObjectStore {
  private readonly base: URL;
  private readonly pathStyle: boolean;
  private readonly region: string;
  private readonly credentials: S3Credentials;
  private readonly agent: http.Agent;

  constructor(
    readonly location: ObjectStoreLocation,
    endpoint: string | null,
  ) {
    this.region = process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION || 'us-east-1';
    const credentials = s3CredentialsFromEnvironment();
    if (credentials === null) {
      throw new FolioError('validation_failed', '--object-store needs S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile in ~/.aws/credentials (AWS_PROFILE)');
    }
    this.credentials = credentials;
    this.pathStyle = endpoint !== null;
    this.base = new URL(endpoint ?? `https://${location.bucket}.s3.${this.region}.amazonaws.com`);
    this.agent = this.base.protocol === 'https:' ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  }

  /** The full key of `name` under the store's prefix. */
  key(name: string): string {
    return this.location.prefix === '' ? name : `${this.location.prefix}/${name}`;
  }

  async upload(key: string, file: string): Promise<void> {
    const { size } = await fs.promises.stat(file);
    const hash = createHash('sha256');
    await pipeline(fs.createReadStream(file), hash);
    const response = await this.send({ method: 'PUT', key, body: { file, size }, payloadSha256: hash.digest('hex') });
    await expectOk(response, 'PUT', key);
  }

  /** Downloads `key` to `file` (through a temp file beside it, renamed when complete). */
  async download(key: string, file: string): Promise<void> {
    const response = await this.send({ method: 'GET', key });
    if (response.statusCode !== 200) {
      await expectOk(response, 'GET', key);
      throw new Error(`S3 GET ${key} answered ${response.statusCode} without the object`);
    }
    // Named as an atomic write's temporary: a node killed mid-download has it removed when the
    // collection next opens (collection-layout.ts), so the cache never keeps half a file.
    const temp = path.join(path.dirname(file), `${ATOMIC_TEMP_PREFIX}download-${path.basename(file)}-${process.pid}`);
    try {
      await pipeline(response, fs.createWriteStream(temp, { mode: 0o600 }));
      await fs.promises.rename(temp, file);
    } catch (error) {
      await fs.promises.rm(temp, { force: true });
      throw error;
    }
  }

  /** Every object under `prefix` (relative to the store's prefix). */
  async list(prefix: string): Promise<StoredObject[]> {
    const objects: StoredObject[] = [];
    let token: string | undefined;
    do {
      const query: Record<string, string> = { 'list-type': '2', prefix: this.key(prefix), ...(token !== undefined && { 'continuation-token': token }) };
      const response = await this.send({ method: 'GET', key: '', query });
      const page = xml.parse(await expectOk(response, 'LIST', this.key(prefix))).ListBucketResult ?? {};
      for (const item of (page.Contents ?? []) as Array<{ Key?: string; LastModified?: string }>) {
        if (typeof item.Key === 'string') objects.push({ key: item.Key, lastModified: item.LastModified ? new Date(item.LastModified) : new Date(0) });
      }
      token = page.IsTruncated === 'true' && typeof page.NextContinuationToken === 'string' ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return objects;
  }

  async remove(keys: readonly string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const objects = keys.slice(start, start + DELETE_BATCH).map((key) => `<Object><Key>${escapeXml(key)}</Key></Object>`);
      const body = Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><Delete><Quiet>true</Quiet>${objects.join('')}</Delete>`);
      const response = await this.send({
        method: 'POST',
        key: '',
        query: { delete: '' },
        headers: { 'content-type': 'application/xml', 'content-md5': createHash('md5').update(body).digest('base64') },
        body,
      });
      const answer = xml.parse(await expectOk(response, 'DELETE', `${keys.length} keys`)).DeleteResult ?? {};
      const failed = (answer.Error ?? []) as Array<{ Key?: string; Code?: string }>;
      if (failed.length > 0) throw new Error(`S3 DeleteObjects failed for ${failed[0]!.Key}: ${failed[0]!.Code}`);
    }
  }

  close(): void {
    this.agent.destroy();
  }

  /** Signs and sends one request, once more after a 5xx or a broken connection. */
  private async send(request: S3Request): Promise<http.IncomingMessage> {
    for (let attempt = 1; ; attempt++) {
      try {
        const response = await this.sendOnce(request);
        if (response.statusCode !== undefined && response.statusCode >= 500 && attempt < ATTEMPTS) {
          response.resume();
          continue;
        }
        return response;
      } catch (error) {
        if (attempt >= ATTEMPTS) throw error;
      }
    }
  }

  private sendOnce(request: S3Request): Promise<http.IncomingMessage> {
    const keyPath = encodeKeyPath(request.key);
    const basePath = this.base.pathname.replace(/\/$/, '');
    const requestPath = this.pathStyle ? `${basePath}/${this.location.bucket}/${keyPath}` : `${basePath}/${keyPath}`;
    const query = request.query ?? {};
    const body = request.body;
    const length = body === undefined ? 0 : Buffer.isBuffer(body) ? body.length : body.size;
    const payloadSha256 = request.payloadSha256 ?? (Buffer.isBuffer(body) ? createHash('sha256').update(body).digest('hex') : EMPTY_PAYLOAD_SHA256);
    const headers = signS3Request({
      method: request.method,
      path: requestPath,
      query,
      headers: { host: this.base.host, ...request.headers, ...(request.method !== 'GET' && { 'content-length': String(length) }) },
      payloadSha256,
      region: this.region,
      credentials: this.credentials,
    });
    const search = Object.entries(query).map(([name, value]) => (value === '' ? encodeRfc3986(name) : `${encodeRfc3986(name)}=${encodeRfc3986(value)}`)).join('&');
    const transport = this.base.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const outgoing = transport.request(
        { protocol: this.base.protocol, hostname: this.base.hostname, port: this.base.port, method: request.method, path: requestPath + (search === '' ? '' : `?${search}`), headers, agent: this.agent },
        resolve,
      );
      outgoing.setTimeout(IDLE_TIMEOUT_MS, () => outgoing.destroy(new Error(`S3 ${request.method} ${request.key} stalled for ${IDLE_TIMEOUT_MS / 1000} s`)));
      outgoing.on('error', reject);
      if (body === undefined) outgoing.end();
      else if (Buffer.isBuffer(body)) outgoing.end(body);
      else pipeline(fs.createReadStream(body.file), outgoing).catch(reject);
    });
  }
}

/** The response's body as text when it is a 2xx; else an error naming the operation and S3's code. */
async function expectOk(response: http.IncomingMessage, operation: string, what: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const status = response.statusCode ?? 0;
  if (status >= 200 && status < 300) return text;
  const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? 'no error code';
  throw new Error(`S3 ${operation} ${what} answered ${status} (${code})`);
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
