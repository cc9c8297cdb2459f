/** Host names on which plain http is allowed, for servers under development on the same machine. */
const loopbackHosts = new Set(['localhost', '127.0.0.1']);

/**
 * True when Innkeep may call `url` (a webhook receiver, a channel's calendar): https anywhere, http only to
 * localhost or 127.0.0.1, because what travels either way carries guest data or stays. The senders also
 * refuse private addresses after DNS resolution; this is only the check a form can make.
 */
export function isAllowedOutboundUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === 'https:') return parsed.hostname !== '';
  return parsed.protocol === 'http:' && loopbackHosts.has(parsed.hostname);
}
