// The schema of a 204 response: no body. @fastify/swagger documents `type: 'null'` as a
// response without content.

import { Type } from 'typebox';

export const NoContentSchema = Type.Null({ description: 'No Content' });
