/**
 * One OAuth path through `Auth()`: the stand-in, the database and the browser as the path finds
 * them, the sign-in request, what changes while the user is at the provider, and the callback.
 *
 * @module
 */
import { mapProfile } from "../../core/oauth/callback.js"
import { usesFormPost } from "../../core/oauth/client.js"
import { discoveryGoesDown, failedLookups, latecomer, standInFaults, starter } from "./oauth-events.js"
import { redirectBackFor, variantOf } from "./oauth-responses.js"
import { find, has, limiterModeOf, prepareSecondFactor, sendFromCopy, type Scenario } from "./driver.js"
import type { World } from "../world.js"
import type { MachineEvent } from "../transitions.js"
import type { OAuthProviderConfig } from "../../providers/oauth.js"

/**
 * Sets up the world of `scenario` and sends its sign-in and, when the flow got to the provider,
 * its callback request.
 *
 * @example
 * ```ts
 * await driveOAuth(github, { name: "oauth github: code.refused", conditions: [{ type: "code.refused", error: "invalid_grant" }] }, world)
 * ```
 */
export async function driveOAuth(provider: OAuthProviderConfig, scenario: Scenario, world: World): Promise<void> {
  const conditions = scenario.conditions
  const standIn = world.standIn(provider.id)
  standIn.faults = standInFaults(conditions, provider.type === "oidc")

  // The database and the browser as this path finds them.
  const linked = find(conditions, "account.linked")
  const signedInNew = (find<MachineEvent>(conditions, "account.new")?.signedIn as { id?: string } | undefined)?.id
  const signedInBefore = linked?.signedInAs !== undefined || signedInNew === starter
  const signedInAfter = signedInNew === latecomer
  if (linked) {
    const claims = standIn.options.claims
    const owner = await world.ensureUser(String(claims.email), String(claims.name ?? "Stand-in User"))
    const { account: mapped } = await mapProfile(provider, { ...claims, sub: standIn.subject }, { access_token: standIn.accessToken, token_type: "bearer" })
    await world.database!.linkAccount!({ userId: owner.id, type: provider.type, provider: provider.id, providerAccountId: mapped.providerAccountId })
  }
  if (has(conditions, "emailOwner.found")) standIn.options.claims.email = (await world.existingUser()).email
  if (signedInBefore) await world.signInAs(await world.existingUser())

  // Each request meets its own limiter outcome: the sign-in's, then the callback's (its events say `at: "callback"`).
  const atCallback = (event: MachineEvent) => (event as { at?: unknown }).at === "callback"
  world.limitRequests(limiterModeOf(conditions.filter((event) => !atCallback(event))))
  const csrfToken = await world.csrfToken()
  const signIn = await world.send(`/signin/${provider.id}`, {
    form: { callbackUrl: world.callbackUrl, ...(!has(conditions, "csrf.invalid") && { csrfToken }) },
  })
  const location = signIn.headers.get("location")
  // The flow ended in the sign-in request unless it sent the browser to the provider.
  if (!location || new URL(location, world.origin).origin === world.origin) return

  // Between the two requests.
  if (has(conditions, "response.unreadable")) discoveryGoesDown(standIn)
  if (signedInAfter) await world.signInAs(await world.existingUser())
  const lookup = find(conditions, "lookup.failed")
  if (lookup) world.record.failing.add(lookup.error === failedLookups.email ? "getUserByEmail" : "getUserByAccount")
  if (has(conditions, "persist.failed")) world.record.failing.add("linkAccount")
  if (has(conditions, "undo.failed")) world.record.failing.add("deleteUser")
  if (has(conditions, "session.failed") && world.strategy === "database") world.record.failing.add("createSession")
  prepareSecondFactor(conditions, world)
  // The adapter-backed replay store claims the flow by deleting its row (or, without useVerificationToken, by inserting one).
  if (has(conditions, "flow.claimFailed")) for (const method of ["useVerificationToken", "createVerificationToken"]) world.record.failing.add(method)
  // The same flow cookie, sent twice: a copy of the browser uses it first (without the provider's answer, so that it writes nothing).
  if (has(conditions, "flow.replayed")) await sendFromCopy(world, `/callback/${provider.id}`)

  world.limitRequests(limiterModeOf(conditions.filter(atCallback)))
  const response = find(conditions, "response.received")
  const back = standIn.redirectBack(new URL(location), redirectBackFor(response ? variantOf(response) : "ok"))
  if (usesFormPost(provider)) await world.send(`/callback/${provider.id}`, { form: Object.fromEntries(back) })
  else await world.send(`/callback/${provider.id}?${back}`)
}
