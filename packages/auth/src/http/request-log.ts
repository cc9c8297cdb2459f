import type { FastifyReply, FastifyRequest } from 'fastify';

/** Who a request acts for, as its log lines name them. */
export type RequestLogBindings = Readonly<Record<string, string | null>>;

/**
 * Makes the rest of the request's log lines, "request completed" among them, carry `who` besides the
 * request id. The child is made from the server's logger, as Fastify makes the request's own, not from the
 * request's: a child of a per-request logger turns that object into a prototype, which V8 makes expensive
 * (made that way twice per request it was the largest new cost in a CPU profile of `npm run bench:mcp`).
 * One child serves the request and the reply, whose logger is the request's.
 */
export function logRequestAs(request: FastifyRequest, reply: FastifyReply, who: RequestLogBindings): void {
  const log = request.server.log.child({ reqId: request.id, ...who });
  request.log = log;
  reply.log = log;
}
