// AWS Signature Version 4 for S3 requests (the `Authorization` header), as AWS documents it
// ("Signature Calculations for the Authorization Header"): a canonical request of the method,
// the path, the sorted query, the signed headers and the payload's SHA-256, signed with a key
// derived from the secret, the date, the region and the service. Credentials come from the
// usual AWS environment variables or the shared credentials file.

import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** The SHA-256 of an empty payload, as the signature wants it (hex). */
export const EMPTY_PAYLOAD_SHA256 = createHash('sha256').update('').digest('hex');

/** RFC 3986 encoding, as SigV4 wants it: encodeURIComponent leaves `!'()*` alone. */
export function encodeRfc3986(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A key's path: each `/`-separated part encoded, the slashes kept. */
export function encodeKeyPath(key: string): string {
  return key.split('/').map(encodeRfc3986).join('/');
}

/** The query string in SigV4's canonical form: encoded, sorted by name then value. */
export function canonicalQuery(query: Readonly<Record<string, string>>): string {
  return Object.entries(query)
    .map(([name, value]) => [encodeRfc3986(name), encodeRfc3986(value)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

export interface SignInput {
  method: string;
  /** The encoded path, as sent (`/bucket/key` or `/key`). */
  path: string;
  query: Readonly<Record<string, string>>;
  /** Headers to sign and send (any case); `host` included. */
  headers: Readonly<Record<string, string>>;
  /** Hex SHA-256 of the body. */
  payloadSha256: string;
  region: string;
  credentials: S3Credentials;
  now?: Date;
}

/**
 * The headers to send: the given ones plus `x-amz-date`, `x-amz-content-sha256`, the session
 * token when there is one, and `authorization`.
 */
export function signS3Request(input: SignInput): Record<string, string> {
  const amzDate = (input.now ?? new Date()).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers)) headers[name.toLowerCase()] = value;
  headers['x-amz-date'] = amzDate;
  headers['x-amz-content-sha256'] = input.payloadSha256;
  if (input.credentials.sessionToken !== undefined) headers['x-amz-security-token'] = input.credentials.sessionToken;
  const names = Object.keys(headers).sort();
  const canonicalHeaders = names.map((name) => `${name}:${headers[name]!.trim().replace(/\s+/g, ' ')}\n`).join('');
  const signedHeaders = names.join(';');
  const canonicalRequest = [input.method, input.path, canonicalQuery(input.query), canonicalHeaders, signedHeaders, input.payloadSha256].join('\n');
  const scope = `${day}/${input.region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonicalRequest, 'utf8').digest('hex')].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${input.credentials.secretAccessKey}`, day), input.region), 's3'), 'aws4_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${input.credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return headers;
}

/**
 * Credentials from `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` (and `AWS_SESSION_TOKEN`), else
 * from the profile `AWS_PROFILE` (default `default`) of the shared credentials file
 * (`AWS_SHARED_CREDENTIALS_FILE`, default `~/.aws/credentials`); null when neither has them.
 */
export function s3CredentialsFromEnvironment(env: NodeJS.ProcessEnv = process.env): S3Credentials | null {
  if (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) {
    return { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, ...(env.AWS_SESSION_TOKEN && { sessionToken: env.AWS_SESSION_TOKEN }) };
  }
  let text: string;
  try {
    text = readFileSync(env.AWS_SHARED_CREDENTIALS_FILE || join(homedir(), '.aws', 'credentials'), 'utf8');
  } catch {
    return null;
  }
  const profile = sharedCredentialsProfile(text, env.AWS_PROFILE || 'default');
  if (!profile.aws_access_key_id || !profile.aws_secret_access_key) return null;
  return { accessKeyId: profile.aws_access_key_id, secretAccessKey: profile.aws_secret_access_key, ...(profile.aws_session_token && { sessionToken: profile.aws_session_token }) };
}

/** The `name = value` lines of one `[profile]` section of an INI credentials file. */
function sharedCredentialsProfile(text: string, profile: string): Record<string, string> {
  const values: Record<string, string> = {};
  let inside = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[\s*(.+?)\s*\]$/.exec(line);
    if (section !== null) {
      inside = section[1] === profile;
      continue;
    }
    const pair = /^([A-Za-z0-9_]+)\s*=\s*(.*)$/.exec(line);
    if (inside && pair !== null) values[pair[1]!.toLowerCase()] = pair[2]!.trim();
  }
  return values;
}
