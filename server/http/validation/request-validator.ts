// Fastify's validator compiler for the routes' TypeBox schemas. Bodies are checked as sent
// (JSON has types: `"5"` is not a number). Query strings and path parameters arrive as
// text, so a value is converted for an integer, number or boolean property only when it is
// written exactly so (`10`, `-1.5`, `true`): `limit=1.5`, `limit=0x10` or `limit=` are
// refused rather than silently becoming 1, 16 or 0 (as TypeBox's Value.Convert would do).

import type { FastifySchemaCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

const INTEGER_TEXT = /^-?\d+$/;
const NUMBER_TEXT = /^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const BOOLEAN_TEXT: Readonly<Record<string, boolean>> = { true: true, false: false };

interface PropertySchema {
  type?: unknown;
}

/** The value a query or path text stands for under `schema`, or the text itself. */
function convertText(schema: PropertySchema | undefined, text: string): unknown {
  switch (schema?.type) {
    case 'integer': {
      const value = Number(text);
      return INTEGER_TEXT.test(text) && Number.isSafeInteger(value) ? value : text;
    }
    case 'number':
      return NUMBER_TEXT.test(text) ? Number(text) : text;
    case 'boolean':
      return BOOLEAN_TEXT[text] ?? text;
    default:
      return text;
  }
}

/** Converts the top-level properties of a query string or path parameters object. */
function convertParts(schema: TSchema, value: unknown): unknown {
  const properties = (schema as { properties?: Record<string, PropertySchema> }).properties;
  if (properties === undefined || typeof value !== 'object' || value === null) return value;
  const converted: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    converted[key] = typeof item === 'string' ? convertText(properties[key], item) : item;
  }
  return converted;
}

export const requestValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const validator = Compile(schema);
  return (value: unknown) => {
    const candidate = httpPart === 'body' ? value : convertParts(schema, value);
    if (validator.Check(candidate)) return { value: candidate };
    return { error: validator.Errors(candidate) as never };
  };
};
