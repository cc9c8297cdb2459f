/** Decides which browser origins may call /mcp. */
export interface OriginPolicy {
  /** True when a request with this `Origin` header may be served; requests without one always may. */
  allows(origin: string): boolean;
}

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The origins /mcp serves, against DNS rebinding (MCP transports: the server MUST validate `Origin`): the
 * origin of BASE_URL, any loopback origin when BASE_URL itself is on loopback (a local install is used
 * from local tools on any port), and `extra` (MCP_ALLOWED_ORIGINS, for browser-based clients elsewhere).
 * Requests without `Origin` come from programs rather than pages, and pass.
 */
export function createOriginPolicy(baseUrl: string, extra: readonly string[] = []): OriginPolicy {
  const base = new URL(baseUrl);
  const allowed = new Set([base.origin, ...extra.map((origin) => new URL(origin).origin)]);
  const loopbackBase = loopbackHosts.has(base.hostname);
  return {
    allows(origin) {
      if (allowed.has(origin)) return true;
      if (!loopbackBase) return false;
      const parsed = URL.parse(origin);
      // A serialised origin has no path; `Origin: null` and other junk never parse to one.
      return (
        parsed !== null &&
        (parsed.protocol === 'http:' || parsed.protocol === 'https:') &&
        parsed.origin === origin &&
        loopbackHosts.has(parsed.hostname)
      );
    },
  };
}
