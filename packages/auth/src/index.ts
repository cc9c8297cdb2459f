// The public surface of @innkeep/auth: the authorization server plugin, the resource server plugin (the
// Bearer-token check, challenge, metadata and per-token limit of /mcp and /api), the account pages, and
// the migrations of the tables behind them.

export { refuseUnstorableText } from './http/unstorable-text-guard.ts';
export { withAuthTables } from './postgres/auth-database.ts';
export type { PostgresAuthNotificationsOptions } from './postgres/auth-notifications.ts';
export { createPostgresAuthNotifications } from './postgres/auth-notifications.ts';
export type { AuthDatabase, AuthExecutor } from './postgres/database.ts';
export type { RemovedAuthRows } from './postgres/expired-rows.ts';
export { removeExpiredAuthRows } from './postgres/expired-rows.ts';
export { authMigrations } from './postgres/migrations/index.ts';
export type { StepUpMark, StepUpMarks } from './postgres/step-up-marks.ts';
export { createStepUpMarks } from './postgres/step-up-marks.ts';
export type { AuthorizationServerOptions } from './provider/authorization-server.ts';
export { authorizationServer } from './provider/authorization-server.ts';
export { protectedResourceMetadataUrl } from './provider/protected-resource.ts';
export type { ResourceName } from './provider/resource.ts';
export { mcpResourceUrl, resourceUrl } from './provider/resource.ts';
export type { SigningKey } from './provider/signing-keys.ts';
export { generateSigningKey, parseSigningKey } from './provider/signing-keys.ts';
export type {
  AccessTokenCacheOptions,
  AccessTokenVerifier,
  AccessTokenVerifierOptions,
  ClosableAccessTokenVerifier,
  VerifiedAccessToken,
} from './resource-server/access-token-verifier.ts';
export { createAccessTokenVerifier } from './resource-server/access-token-verifier.ts';
export type { AuthNotifications } from './resource-server/auth-notifications.ts';
export { bearerChallenge, rateLimitKey } from './resource-server/bearer.ts';
export type {
  ClosableCredentialLookups,
  CredentialLookups,
} from './resource-server/cached-credential-lookups.ts';
export { createCachedCredentialLookups } from './resource-server/cached-credential-lookups.ts';
export type {
  AuthTokenCredentials,
  ResourceServerOptions,
  ResourceServerRefusal,
  ResourceServerRefusalCode,
  ResourceServerRefusalWriter,
  VerifiedCaller,
} from './resource-server/resource-server.ts';
export { resourceServer } from './resource-server/resource-server.ts';
export { sharedAuthNotifications } from './resource-server/shared-auth-notifications.ts';
export type { AccountPagesOptions } from './web/account-pages.ts';
export { accountPages } from './web/account-pages.ts';
export type { HomePagesOptions } from './web/home-pages.ts';
export { securityHeaders } from './web/security-headers.ts';
export type { StrictTransportSecurityOptions } from './web/strict-transport-security.ts';
export { strictTransportSecurity } from './web/strict-transport-security.ts';
export type { WebhookPagesOptions } from './web/webhook-pages.ts';
