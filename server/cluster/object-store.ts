// The cluster's object store: segment, deletes and vector files under `s3://bucket/prefix`,
// through the S3 API (`@aws-sdk/client-s3`; MinIO, Ceph RGW, R2 and AWS S3 in production, an
// `--s3-endpoint` selects one, credentials come from the usual AWS environment variables).
// Objects are written once under a key no other writer uses (it carries the writer's fencing
// token) and never changed; `download` writes to a temp file and renames it into place.

import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ATOMIC_TEMP_PREFIX } from '../../storage/index.ts';
import { FolioError } from '../errors/index.ts';

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

// The SDK version in package.json is pinned to one that supports Node 20; its notice that later
// versions will not is for whoever upgrades it, not for every server start.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export class ObjectStore {
  private readonly client: S3Client;

  constructor(
    readonly location: ObjectStoreLocation,
    endpoint: string | null,
  ) {
    this.client = new S3Client({
      ...(endpoint !== null && { endpoint, forcePathStyle: true }),
      region: process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1',
      maxAttempts: 2,
      // Plain bodies: aws-chunked uploads with trailing checksums are not understood by every
      // S3-compatible store; each file carries its own CRC-32, checked when it is opened.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /** The full key of `name` under the store's prefix. */
  key(name: string): string {
    return this.location.prefix === '' ? name : `${this.location.prefix}/${name}`;
  }

  async upload(key: string, file: string): Promise<void> {
    const { size } = await fs.promises.stat(file);
    await this.client.send(new PutObjectCommand({ Bucket: this.location.bucket, Key: key, Body: fs.createReadStream(file), ContentLength: size }));
  }

  /** Downloads `key` to `file` (through a temp file beside it, renamed when complete). */
  async download(key: string, file: string): Promise<void> {
    const answer = await this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: key }));
    // Named as an atomic write's temporary: a node killed mid-download has it removed when the
    // collection next opens (collection-layout.ts), so the cache never keeps half a file.
    const temp = path.join(path.dirname(file), `${ATOMIC_TEMP_PREFIX}download-${path.basename(file)}-${process.pid}`);
    try {
      await pipeline(answer.Body as Readable, fs.createWriteStream(temp, { mode: 0o600 }));
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
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.location.bucket, Prefix: this.key(prefix), ContinuationToken: token }));
      for (const item of page.Contents ?? []) if (item.Key !== undefined) objects.push({ key: item.Key, lastModified: item.LastModified ?? new Date(0) });
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return objects;
  }

  async remove(keys: readonly string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += 1000) {
      const batch = keys.slice(start, start + 1000).map((Key) => ({ Key }));
      await this.client.send(new DeleteObjectsCommand({ Bucket: this.location.bucket, Delete: { Objects: batch, Quiet: true } }));
    }
  }

  close(): void {
    this.client.destroy();
  }
}
