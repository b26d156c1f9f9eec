// Unit tests of condensing validator errors into the problem body's `errors` list: unions
// keep the branch that fits, type alternatives merge, unknown properties, bad field names and
// empty objects get plain messages, and the list is capped.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Compile } from 'typebox/compile';
import { Settings } from 'typebox/system';
import { DeleteByFilterBodySchema } from './delete-by-filter.ts';
import { DocumentPatchBodySchema, DocumentPostBodySchema } from './document.ts';
import { MAX_LISTED_FIELD_ERRORS, MAX_RAW_VALIDATION_ERRORS } from './limits.ts';
import { toFieldErrors } from './validation-errors.ts';
import type { RawValidationError } from './validation-errors.ts';

Settings.Set({ maxErrors: MAX_RAW_VALIDATION_ERRORS });
const post = Compile(DocumentPostBodySchema);
const errorsOf = (value: unknown) => toFieldErrors('body', post.Errors(value) as unknown as RawValidationError[]);

test('a single document reports its own fields, not the array branch', () => {
  assert.deepEqual(errorsOf({ id: 'ok', extra: 1, title: 5 }), [
    { path: '/body/extra', message: 'is not an allowed property' },
    { path: '/body/title', message: 'must be one of string, null' },
  ]);
});

test('a batch reports item paths', () => {
  const errors = errorsOf([{ id: 'ok' }, { id: 'bad id' }]);
  assert.deepEqual(errors.map((error) => error.path), ['/body/1/id']);
});

test('a nested metadata value gets one merged message', () => {
  assert.deepEqual(errorsOf({ id: 'x', metadata: { author: { name: 'a' } } }), [
    { path: '/body/metadata/author', message: 'must be one of string, number, boolean, array' },
  ]);
});

test('reserved metadata field names are named', () => {
  assert.deepEqual(errorsOf({ id: 'x', metadata: { $or: 1 } }), [
    { path: '/body/metadata/$or', message: 'is not an allowed field name' },
  ]);
});

test('an empty batch and a non-document say so', () => {
  assert.deepEqual(errorsOf([]), [{ path: '/body', message: 'must not have fewer than 1 items' }]);
  assert.deepEqual(errorsOf('text'), [{ path: '/body', message: 'must be one of object, array' }]);
});

test('PATCH metadata allows null but not objects', () => {
  const patch = Compile(DocumentPatchBodySchema);
  assert.equal(patch.Check({ metadata: { gone: null, kept: 1 } }), true);
  const errors = toFieldErrors('body', patch.Errors({ metadata: { bad: {} } }) as unknown as RawValidationError[]);
  assert.deepEqual(errors.map((error) => error.path), ['/body/metadata/bad']);
});

test('the list is capped', () => {
  const many = Array.from({ length: 500 }, (_, i) => ({ id: `bad id ${i}` }));
  assert.equal(errorsOf(many).length, MAX_LISTED_FIELD_ERRORS);
});

test('an object that must have a property says it must not be empty', () => {
  const raw = Compile(DeleteByFilterBodySchema).Errors({ filter: {} }) as unknown as RawValidationError[];
  assert.deepEqual(toFieldErrors('body', raw), [{ path: '/body/filter', message: 'must not be empty' }]);
});
