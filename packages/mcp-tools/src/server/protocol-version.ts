/** The MCP revisions Innkeep speaks, newest first. Everything it serves means the same in each of them. */
export const supportedProtocolVersions = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;

/** One of {@link supportedProtocolVersions}. */
export type ProtocolVersion = (typeof supportedProtocolVersions)[number];

/** The newest revision, offered to clients that ask for one Innkeep does not speak. */
export const latestProtocolVersion: ProtocolVersion = supportedProtocolVersions[0];

/** True when `value` names a revision Innkeep speaks. */
export function isSupportedProtocolVersion(value: string): value is ProtocolVersion {
  return (supportedProtocolVersions as readonly string[]).includes(value);
}

/**
 * The revision to answer `initialize` with: the client's own when Innkeep speaks it (MUST), else the newest
 * (SHOULD), which the client may accept or disconnect over.
 */
export function negotiateProtocolVersion(requested: unknown): ProtocolVersion {
  return typeof requested === 'string' && isSupportedProtocolVersion(requested)
    ? requested
    : latestProtocolVersion;
}
