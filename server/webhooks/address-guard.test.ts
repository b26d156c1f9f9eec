// Table tests of the webhook SSRF guard: which IPv4 and IPv6 addresses are forbidden (including
// IPv4 hidden in IPv6), webhook URL validation, and resolution that checks every address a name
// resolves to, with fake resolvers.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  forbiddenAddressReason,
  isForbiddenAddress,
  parseWebhookUrl,
  resolveDeliveryAddress,
  resolveDeliveryAddresses,
  WebhookAddressError,
  type LookupAll,
} from './address-guard.ts';

const FORBIDDEN: [string, RegExp][] = [
  // IPv4
  ['0.0.0.0', /unspecified/],
  ['0.255.255.255', /unspecified/],
  ['10.0.0.0', /private/],
  ['10.255.255.255', /private/],
  ['100.64.0.1', /carrier-grade NAT/],
  ['100.127.255.255', /carrier-grade NAT/],
  ['127.0.0.1', /loopback/],
  ['127.255.255.254', /loopback/],
  ['169.254.169.254', /link-local/], // cloud metadata
  ['172.16.0.1', /private/],
  ['172.31.255.255', /private/],
  ['192.0.0.8', /reserved/],
  ['192.0.2.1', /documentation/],
  ['192.88.99.1', /reserved/],
  ['192.168.1.1', /private/],
  ['198.18.0.1', /benchmarking/],
  ['198.19.255.255', /benchmarking/],
  ['198.51.100.7', /documentation/],
  ['203.0.113.9', /documentation/],
  ['224.0.0.1', /multicast/],
  ['239.255.255.250', /multicast/],
  ['240.0.0.1', /reserved/],
  ['255.255.255.254', /reserved/],
  ['255.255.255.255', /broadcast/],
  // IPv6
  ['::', /unspecified/],
  ['::1', /loopback/],
  ['0:0:0:0:0:0:0:1', /loopback/],
  ['fc00::1', /private/],
  ['fd12:3456:789a::1', /private/],
  ['fe80::1', /link-local/],
  ['fe80::1%eth0', /link-local/],
  ['febf:ffff::1', /link-local/],
  ['fec0::1', /site-local/],
  ['ff02::1', /multicast/],
  ['ff05::1:3', /multicast/],
  ['100::1', /reserved/],
  ['2001:db8::1', /documentation/],
  ['3fff::1', /documentation/],
  ['2001:2::1', /benchmarking/],
  ['2001:10::1', /reserved/],
  ['64:ff9b:1::a00:1', /private/],
  ['::2', /reserved/], // IPv4-compatible (deprecated)
  ['::7f00:1', /reserved/],
  ['::ffff:0:808:808', /reserved/], // SIIT
  ['4000::1', /reserved/], // outside 2000::/3
  ['e000::1', /reserved/],
  // IPv4 embedded in IPv6
  ['::ffff:127.0.0.1', /loopback.*127\.0\.0\.1.*IPv4-mapped/],
  ['::ffff:7f00:1', /loopback.*IPv4-mapped/],
  ['0:0:0:0:0:ffff:7f00:1', /loopback/],
  ['::ffff:10.1.2.3', /private/],
  ['::ffff:a9fe:a9fe', /link-local.*169\.254\.169\.254/],
  ['::ffff:0.0.0.0', /unspecified/],
  ['64:ff9b::127.0.0.1', /loopback.*NAT64/],
  ['64:ff9b::a00:1', /private.*10\.0\.0\.1.*NAT64/],
  ['64:ff9b::c0a8:101', /private/],
  ['2002:7f00:1::', /loopback.*6to4/],
  ['2002:a00:1::1', /private.*6to4/],
  ['2002:c0a8:0101::1', /private/],
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', /loopback.*Teredo/], // client 127.0.0.1, bits inverted
  // Not IP addresses at all: refused.
  ['localhost', /not an IP/],
  ['', /not an IP/],
  ['010.0.0.1', /not an IP/],
  ['1.2.3', /not an IP/],
  ['[::1]', /not an IP/],
];

const ALLOWED = [
  '1.1.1.1',
  '8.8.8.8',
  '9.255.255.255',
  '11.0.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '126.255.255.255',
  '128.0.0.0',
  '169.253.255.255',
  '169.255.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.0.1.255',
  '192.167.255.255',
  '192.169.0.0',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255',
  '2001:4860:4860::8888',
  '2606:4700:4700::1111',
  '2a00:1450:4001:81b::200e',
  '::ffff:8.8.8.8',
  '::ffff:808:808',
  '64:ff9b::8.8.8.8',
  '2002:808:808::1',
  '2001:0:4136:e378:8000:63bf:f7f7:f7f7', // Teredo, client 8.8.8.8
  '2001:3::1',
];

test('forbidden addresses are refused with the right reason', () => {
  for (const [ip, reason] of FORBIDDEN) {
    assert.equal(isForbiddenAddress(ip), true, ip);
    assert.match(forbiddenAddressReason(ip) ?? '', reason, ip);
  }
});

test('public addresses are allowed', () => {
  for (const ip of ALLOWED) {
    assert.equal(forbiddenAddressReason(ip), null, ip);
    assert.equal(isForbiddenAddress(ip), false, ip);
  }
});

test('articles read right', () => {
  assert.equal(forbiddenAddressReason('10.0.0.1'), 'a private address');
  assert.equal(forbiddenAddressReason('0.0.0.0'), 'an unspecified address');
});

test('webhook URLs must be absolute http(s) with a host and no credentials', () => {
  for (const good of ['https://example.com/hook', 'http://example.com:8080/a?b=c', 'http://[2001:db8::1]/x', 'https://127.0.0.1/']) {
    const parsed = parseWebhookUrl(good);
    assert.ok('url' in parsed, good);
  }
  const cases: [string, RegExp][] = [
    ['', /absolute http or https/],
    ['/relative/path', /absolute http or https/],
    ['example.com/hook', /absolute http or https/],
    ['ftp://example.com/', /absolute http or https/],
    ['file:///etc/passwd', /absolute http or https/],
    ['javascript:alert(1)', /absolute http or https/],
    ['http://', /absolute http or https/],
    ['https://user:secret@example.com/', /user name or password/],
    ['https://user@example.com/', /user name or password/],
    [`https://example.com/${'a'.repeat(2048)}`, /at most 2048 characters/],
  ];
  for (const [text, error] of cases) {
    const parsed = parseWebhookUrl(text);
    assert.ok('error' in parsed, text);
    assert.match(parsed.error, error, text);
  }
});

function fakeLookup(...addresses: string[]): LookupAll {
  return async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
}

test('IP literals are checked without resolving', async () => {
  const noLookup: LookupAll = async () => assert.fail('no lookup for a literal');
  await assert.rejects(resolveDeliveryAddress(new URL('http://127.0.0.1:8080/'), false, noLookup), (error: Error) => {
    assert.ok(error instanceof WebhookAddressError);
    assert.match(error.message, /^webhook address 127\.0\.0\.1 is a loopback address; .*--allow-private-webhooks/);
    return true;
  });
  await assert.rejects(resolveDeliveryAddress(new URL('http://[::ffff:127.0.0.1]/'), false, noLookup), WebhookAddressError);
  await assert.rejects(resolveDeliveryAddress(new URL('http://0x7f.1/'), false, noLookup), WebhookAddressError);
  await assert.rejects(resolveDeliveryAddress(new URL('http://2130706433/'), false, noLookup), WebhookAddressError);
  assert.deepEqual(await resolveDeliveryAddress(new URL('http://[::1]/'), true, noLookup), { address: '::1', family: 6 });
  assert.deepEqual(await resolveDeliveryAddress(new URL('http://8.8.8.8/'), false, noLookup), { address: '8.8.8.8', family: 4 });
});

test('every address a name resolves to must be allowed', async () => {
  const url = new URL('https://hooks.example.com/in');
  assert.deepEqual(await resolveDeliveryAddress(url, false, fakeLookup('93.184.216.34', '2606:2800:220:1::1')), {
    address: '93.184.216.34',
    family: 4,
  });
  await assert.rejects(resolveDeliveryAddress(url, false, fakeLookup('93.184.216.34', '10.0.0.5')), (error: Error) => {
    assert.ok(error instanceof WebhookAddressError);
    assert.equal(
      error.message,
      'webhook host hooks.example.com resolves to 10.0.0.5, a private address; start the server with --allow-private-webhooks to allow it',
    );
    return true;
  });
  await assert.rejects(resolveDeliveryAddress(url, false, fakeLookup('::1', '93.184.216.34')), WebhookAddressError);
  assert.deepEqual(await resolveDeliveryAddress(url, true, fakeLookup('10.0.0.5', '93.184.216.34')), { address: '10.0.0.5', family: 4 });
});

test('resolveDeliveryAddresses gives every checked address once, in resolver order', async () => {
  const url = new URL('https://hooks.example.com/in');
  assert.deepEqual(await resolveDeliveryAddresses(url, false, fakeLookup('2606:2800:220:1::1', '93.184.216.34', '2606:2800:220:1::1')), [
    { address: '2606:2800:220:1::1', family: 6 },
    { address: '93.184.216.34', family: 4 },
  ]);
  await assert.rejects(resolveDeliveryAddresses(url, false, fakeLookup('93.184.216.34', 'fe80::1')), WebhookAddressError);
});

test('localhost resolves to loopback and is refused', async () => {
  await assert.rejects(resolveDeliveryAddress(new URL('http://localhost:9/'), false), WebhookAddressError);
});

test('resolution failures are plain errors, not refusals', async () => {
  const url = new URL('https://nowhere.invalid/');
  const failing: LookupAll = async () => {
    throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' });
  };
  await assert.rejects(resolveDeliveryAddress(url, false, failing), (error: Error) => {
    assert.ok(!(error instanceof WebhookAddressError));
    assert.equal(error.message, 'could not resolve webhook host nowhere.invalid (no such host)');
    return true;
  });
  await assert.rejects(resolveDeliveryAddress(url, false, fakeLookup()), /no addresses/);
  await assert.rejects(resolveDeliveryAddress(url, true, fakeLookup('not-an-ip')), /invalid address/);
});
