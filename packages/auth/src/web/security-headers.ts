import type { FastifyInstance, FastifyPluginAsync } from 'fastify';

// No inline scripts or styles, no framing, nothing loaded from elsewhere: our pages are plain forms.
const basePolicy = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
];

/**
 * The policy on ordinary pages: forms post only back to us, and the one script they may load is our own
 * /assets/innkeep.js (copy buttons). The interaction pages load none, so they keep `script-src` at none.
 */
export const pageContentSecurityPolicy = [...basePolicy, "script-src 'self'", "form-action 'self'"].join(
  '; ',
);

/**
 * The policy on OAuth interaction pages: the base policy without `form-action`. Browsers apply
 * `form-action` to every redirect that follows a form post, and the sign-in and consent forms end in a
 * redirect to the client's `redirect_uri` — a custom scheme (`cursor://`), `http://[::1]` or any other
 * loopback port of a desktop app, or an https site — which no source list can name in advance (Chromium
 * blocks the last hop otherwise). `form-action` does not fall back to `default-src`, so these pages' forms
 * may post anywhere; they are our own, with every value escaped and no script, so the directive would only
 * have guarded against injected markup.
 */
export const interactionContentSecurityPolicy = basePolicy.join('; ');

const interactionPathPrefix = '/oauth/interaction';

function isInteractionPath(url: string): boolean {
  const path = url.split('?', 1)[0] ?? '';
  return path === interactionPathPrefix || path.startsWith(`${interactionPathPrefix}/`);
}

async function addSecurityHeaders(app: FastifyInstance): Promise<void> {
  app.addHook('onSend', async (request, reply, payload) => {
    const contentType = reply.getHeader('content-type');
    if (typeof contentType !== 'string' || !contentType.startsWith('text/html')) return payload;
    reply.header(
      'content-security-policy',
      isInteractionPath(request.url) ? interactionContentSecurityPolicy : pageContentSecurityPolicy,
    );
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    // Every page shows personal data or carries a form token; neither may sit in a shared or back-button cache.
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}

/**
 * Fastify plugin adding security headers to every HTML response of the context it is registered in (and,
 * as it does not encapsulate, of that context's children): Content-Security-Policy, X-Content-Type-Options,
 * Referrer-Policy, X-Frame-Options and `Cache-Control: no-store` unless a route set its own. Routes under
 * `/oauth/interaction` get {@link interactionContentSecurityPolicy}, all others {@link pageContentSecurityPolicy}.
 */
export const securityHeaders: FastifyPluginAsync = Object.assign(addSecurityHeaders, {
  // What fastify-plugin sets: the hook applies to the registering context instead of a private child.
  [Symbol.for('skip-override')]: true,
  [Symbol.for('fastify.display-name')]: 'innkeep-security-headers',
});
