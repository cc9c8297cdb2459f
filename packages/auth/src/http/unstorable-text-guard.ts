import { findUnstorableText } from '@innkeep/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const nulMessage = 'must not contain the NUL character (U+0000), which Innkeep cannot store';

/**
 * Refuses, with 400, any request whose decoded path, query string or form body holds U+0000: PostgreSQL
 * cannot store that character, and a query carrying one would fail as a 500 deep inside a page, the
 * sign-in or the OAuth provider (which copies `state` and the other authorization parameters into its
 * database).
 *
 * Call it once on the root instance, before the plugins: hooks added inside an encapsulated plugin would
 * not reach the routes of its siblings. JSON bodies are left to their readers, which refuse by field:
 * `/mcp` tool, prompt and resource arguments through the domain's `parseInput` (a tool result the model can
 * act on, not an HTTP error), and the OAuth endpoints that read their own bodies (`/oauth/token`,
 * `/oauth/register`, `/oauth/token/revoke`) in the authorization server.
 */
export function refuseUnstorableText(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    const field = unstorableUrlPart(request.raw.url ?? '/');
    if (field !== undefined) return refuse(request, reply, field);
  });
  app.addHook('preValidation', async (request, reply) => {
    if (!request.headers['content-type']?.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      return;
    }
    const found = findUnstorableText(request.body);
    if (found !== undefined) return refuse(request, reply, `the field ${found.path}`);
  });
}

/** What in `rawUrl` holds U+0000 (`the path`, `the query parameter state`), or undefined. */
function unstorableUrlPart(rawUrl: string): string | undefined {
  // A NUL reaches a URL only percent-encoded (Node refuses a raw one); this spares decoding every URL.
  if (!/%00/.test(rawUrl)) return undefined;
  const queryStart = rawUrl.indexOf('?');
  const path = queryStart === -1 ? rawUrl : rawUrl.slice(0, queryStart);
  if (/%00/.test(path)) return 'the path';
  for (const [name, value] of new URLSearchParams(rawUrl.slice(queryStart + 1))) {
    if (name.includes('\u0000')) return 'a query parameter name';
    if (value.includes('\u0000')) return `the query parameter ${name}`;
  }
  return undefined;
}

function refuse(request: FastifyRequest, reply: FastifyReply, field: string): FastifyReply {
  const message = `${upperFirst(field)} ${nulMessage}.`;
  reply.code(400).header('cache-control', 'no-store');
  // OAuth clients read RFC 6749 errors; everything else gets Innkeep's own error shape.
  if (request.url.startsWith('/oauth/')) {
    return reply.send({ error: 'invalid_request', error_description: message });
  }
  return reply.send({ code: 'invalid_argument', message });
}

function upperFirst(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
