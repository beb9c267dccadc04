/**
 * authflow: authentication for web applications as explicit state machines, wire-compatible with
 * Auth.js v5.
 *
 * @example
 * ```ts
 * import { Auth } from "authflow"
 * const response = await Auth(request, config)
 * ```
 * @module
 */
export { Auth, getAccessToken } from "./auth.js"
export { raw, skipCSRFCheck, customFetch } from "./core/symbols.js"
export { setEnvDefaults, createActionURL, isAuthAction } from "./core/env.js"
export { AuthError, CredentialsSignin } from "./core/errors.js"
export type * from "./types.js"
export { adapterReplayStore, isUniqueViolation, memoryReplayStore, redisReplayStore } from "./core/stores.js"
export type { ReplayStore, RedisSetClient } from "./core/replay-store.js"
export { memoryRevocationStore, redisRevocationStore } from "./core/revocation-store.js"
export type { RevocationStore, RedisRevocationClient } from "./core/revocation-store.js"
export { memoryRefreshStore, redisRefreshStore } from "./core/stores.js"
export type { RefreshStore, RefreshClaim, RedisRefreshClient } from "./core/refresh-store.js"
export type { AccessToken } from "./actions/access-token.js"
