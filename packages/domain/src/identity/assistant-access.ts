/**
 * How long what an assistant (an OAuth client) receives when the owner connects it stays valid. These are
 * product rules the help centre tells hosts, so they live here; the authorization server configures its
 * token lifetimes from them.
 */
export const assistantAccessLifetimes = {
  /** An access token, in seconds; clients refresh it in the background. */
  accessTokenSeconds: 3600,
  /** A refresh token, in days; each refresh issues a new one, so only a client unused this long drops off. */
  refreshTokenDays: 30,
  /**
   * The grant the owner approved, in days from the approval: no refresh is accepted after it, however
   * often the client was used, so the owner connects the assistant again.
   */
  grantDays: 365,
} as const;
