// AWS Signature Version 4 for S3: the examples of AWS's documentation ("Signature Calculations
// for the Authorization Header: Transferring Payload in a Single Chunk") signed here give AWS's
// signatures; keys and queries are encoded as S3 wants; credentials come from the environment
// or the shared credentials file.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { EMPTY_PAYLOAD_SHA256, canonicalQuery, encodeKeyPath, s3CredentialsFromEnvironment, signS3Request } from './s3-signature.ts';

const EXAMPLE_CREDENTIALS = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const EXAMPLE_DATE = new Date('2013-05-24T00:00:00Z');

test("AWS's GET Object example signs to AWS's signature", () => {
  const headers = signS3Request({
    method: 'GET',
    path: '/test.txt',
    query: {},
    headers: { Host: 'examplebucket.s3.amazonaws.com', Range: 'bytes=0-9' },
    payloadSha256: EMPTY_PAYLOAD_SHA256,
    region: 'us-east-1',
    credentials: EXAMPLE_CREDENTIALS,
    now: EXAMPLE_DATE,
  });
  assert.equal(headers['x-amz-date'], '20130524T000000Z');
  assert.equal(
    headers.authorization,
    'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
  );
});

test("AWS's GET Bucket (list objects) example signs to AWS's signature", () => {
  const headers = signS3Request({
    method: 'GET',
    path: '/',
    query: { prefix: 'J', 'max-keys': '2' },
    headers: { host: 'examplebucket.s3.amazonaws.com' },
    payloadSha256: EMPTY_PAYLOAD_SHA256,
    region: 'us-east-1',
    credentials: EXAMPLE_CREDENTIALS,
    now: EXAMPLE_DATE,
  });
  assert.match(headers.authorization!, /Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7$/);
});

test('keys and queries are encoded as S3 wants them: slashes kept, everything else RFC 3986', () => {
  assert.equal(encodeKeyPath("folio/a b/seg(1)*!'~.fseg"), "folio/a%20b/seg%281%29%2A%21%27~.fseg");
  assert.equal(encodeKeyPath('notes/ü'), 'notes/%C3%BC');
  assert.equal(canonicalQuery({ 'list-type': '2', prefix: 'folio/x y/', 'continuation-token': 'a+b=' }), 'continuation-token=a%2Bb%3D&list-type=2&prefix=folio%2Fx%20y%2F');
  assert.equal(canonicalQuery({ delete: '' }), 'delete=');
});

test('a session token is signed and sent', () => {
  const headers = signS3Request({ method: 'GET', path: '/k', query: {}, headers: { host: 'h' }, payloadSha256: EMPTY_PAYLOAD_SHA256, region: 'eu-west-1', credentials: { ...EXAMPLE_CREDENTIALS, sessionToken: 'token' } });
  assert.equal(headers['x-amz-security-token'], 'token');
  assert.match(headers.authorization!, /SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,/);
  assert.match(headers.authorization!, /\/eu-west-1\/s3\/aws4_request/);
});

test('credentials come from the environment, else from the profile of the shared credentials file', () => {
  assert.deepEqual(s3CredentialsFromEnvironment({ AWS_ACCESS_KEY_ID: 'id', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'token' }), { accessKeyId: 'id', secretAccessKey: 'secret', sessionToken: 'token' });
  const dir = mkdtempSync(join(tmpdir(), 'folio-aws-'));
  try {
    const file = join(dir, 'credentials');
    writeFileSync(file, '[default]\naws_access_key_id = d-id\naws_secret_access_key = d-secret\n\n# a comment\n[work]\naws_access_key_id=w-id\naws_secret_access_key=w-secret\naws_session_token = w-token\n');
    assert.deepEqual(s3CredentialsFromEnvironment({ AWS_SHARED_CREDENTIALS_FILE: file }), { accessKeyId: 'd-id', secretAccessKey: 'd-secret' });
    assert.deepEqual(s3CredentialsFromEnvironment({ AWS_SHARED_CREDENTIALS_FILE: file, AWS_PROFILE: 'work' }), { accessKeyId: 'w-id', secretAccessKey: 'w-secret', sessionToken: 'w-token' });
    assert.equal(s3CredentialsFromEnvironment({ AWS_SHARED_CREDENTIALS_FILE: file, AWS_PROFILE: 'none' }), null);
    assert.equal(s3CredentialsFromEnvironment({ AWS_SHARED_CREDENTIALS_FILE: join(dir, 'missing') }), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
