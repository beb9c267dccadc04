/**
 * The cases of the providers added for parity with @auth/core: one per provider, with the stand-in
 * behaving as the provider does where it strays from the standards (token responses without
 * `token_type`, userinfo reached with the token in the query or the path, a signed userinfo, the
 * code exchanged by GET or as an assertion).
 */
import FortyTwoSchool from "../../src/providers/42-school.js"
import Asgardeo from "../../src/providers/asgardeo.js"
import AzureADB2C from "../../src/providers/azure-ad-b2c.js"
import AzureAD from "../../src/providers/azure-ad.js"
import AzureDevOps from "../../src/providers/azure-devops.js"
import BankIDNorge from "../../src/providers/bankid-no.js"
import BattleNet from "../../src/providers/battlenet.js"
import BeyondIdentity from "../../src/providers/beyondidentity.js"
import Box from "../../src/providers/box.js"
import BoxyHQSAML from "../../src/providers/boxyhq-saml.js"
import Bungie from "../../src/providers/bungie.js"
import ClickUp from "../../src/providers/click-up.js"
import Coinbase from "../../src/providers/coinbase.js"
import Concept2 from "../../src/providers/concept2.js"
import Descope from "../../src/providers/descope.js"
import Dribbble from "../../src/providers/dribbble.js"
import DuendeIdentityServer6 from "../../src/providers/duende-identity-server6.js"
import Eventbrite from "../../src/providers/eventbrite.js"
import EVEOnline from "../../src/providers/eveonline.js"
import FACEIT from "../../src/providers/faceit.js"
import Figma from "../../src/providers/figma.js"
import Foursquare from "../../src/providers/foursquare.js"
import Freshbooks from "../../src/providers/freshbooks.js"
import Frontegg from "../../src/providers/frontegg.js"
import HubSpot from "../../src/providers/hubspot.js"
import HuggingFace from "../../src/providers/huggingface.js"
import IdentityServer4 from "../../src/providers/identity-server4.js"
import Instagram from "../../src/providers/instagram.js"
import Kinde from "../../src/providers/kinde.js"
import Logto from "../../src/providers/logto.js"
import Mailchimp from "../../src/providers/mailchimp.js"
import Mailru from "../../src/providers/mailru.js"
import Mastodon from "../../src/providers/mastodon.js"
import Mattermost from "../../src/providers/mattermost.js"
import Medium from "../../src/providers/medium.js"
import Netlify from "../../src/providers/netlify.js"
import NetSuite from "../../src/providers/netsuite.js"
import Nextcloud from "../../src/providers/nextcloud.js"
import OneLogin from "../../src/providers/onelogin.js"
import OryHydra from "../../src/providers/ory-hydra.js"
import Osso from "../../src/providers/osso.js"
import Osu from "../../src/providers/osu.js"
import Passage from "../../src/providers/passage.js"
import Patreon from "../../src/providers/patreon.js"
import PingId from "../../src/providers/ping-id.js"
import Pinterest from "../../src/providers/pinterest.js"
import Pipedrive from "../../src/providers/pipedrive.js"
import Roblox from "../../src/providers/roblox.js"
import SimpleLogin from "../../src/providers/simplelogin.js"
import Strava from "../../src/providers/strava.js"
import Threads from "../../src/providers/threads.js"
import TikTok from "../../src/providers/tiktok.js"
import Todoist from "../../src/providers/todoist.js"
import Trakt from "../../src/providers/trakt.js"
import UnitedEffects from "../../src/providers/united-effects.js"
import Vipps from "../../src/providers/vipps.js"
import VK from "../../src/providers/vk.js"
import Webex from "../../src/providers/webex.js"
import WeChat from "../../src/providers/wechat.js"
import Wikimedia from "../../src/providers/wikimedia.js"
import WordPress from "../../src/providers/wordpress.js"
import Yandex from "../../src/providers/yandex.js"
import Zoho from "../../src/providers/zoho.js"
import { json, oauth, oidc, photoBytes, type ProviderCase } from "./case-kit.js"
import type { Route } from "./harness.js"

/** A route that answers `body` to a request with the stand-in's bearer token. */
const bearer = (body: unknown, where: string): Route => (request, standIn) => standIn.checkBearer(request, where) ?? json(body)

/** A self-hosted OIDC provider on `issuer`, with the standard claims. */
function selfHostedOidc(id: string, name: string, factory: ProviderCase["factory"], issuer: string, extra: Partial<Parameters<typeof oidc>[0]> = {}): ProviderCase {
  const sub = `${id}-user-0001`
  return oidc({
    id,
    name,
    factory,
    issuer,
    providerOptions: { issuer },
    profile: { sub, name: "Ada Lovelace", preferred_username: "ada", email: "ada@example.com", email_verified: true, picture: `${issuer.replace(/\/+$/, "")}/avatars/ada.png` },
    user: { name: "Ada Lovelace", email: "ada@example.com", image: `${issuer.replace(/\/+$/, "")}/avatars/ada.png` },
    accountId: sub,
    ...extra,
  })
}

const hubspotInfo = { token: "at", user: "jane@hubspot.example", user_id: 1234567, hub_id: 62515, hub_domain: "demo.hubspot.example", app_id: 456, expires_in: 1800, token_type: "access", scopes: ["oauth"] }

export const addedCases: ProviderCase[] = [
  oauth({
    id: "42-school",
    name: "42 School",
    factory: FortyTwoSchool,
    authorization: "https://api.intra.42.fr/oauth/authorize",
    token: "https://api.intra.42.fr/oauth/token",
    userinfo: "https://api.intra.42.fr/v2/me",
    scope: "public",
    profile: { id: 110003, login: "nbaudet", email: "nbaudet@student.42.fr", first_name: "Noa", last_name: "Baudet", usual_full_name: "Noa Baudet", usual_first_name: null, displayname: "Noa Baudet", url: "https://api.intra.42.fr/v2/users/nbaudet", image: { link: "https://cdn.intra.42.fr/users/nbaudet.jpg", versions: {} } },
    user: { name: "Noa Baudet", email: "nbaudet@student.42.fr", image: "https://cdn.intra.42.fr/users/nbaudet.jpg" },
    accountId: "110003",
  }),
  selfHostedOidc("asgardeo", "Asgardeo", Asgardeo, "https://api.asgardeo.io/t/acme/oauth2/token", {
    // The issuer given is the organization's URL; discovery is under /oauth2/token (wellKnown).
    providerOptions: { issuer: "https://api.asgardeo.io/t/acme" },
    configIssuer: "https://api.asgardeo.io/t/acme",
  }),
  oidc({
    id: "azure-ad-b2c",
    name: "Azure AD B2C",
    factory: AzureADB2C,
    issuer: "https://contoso.b2clogin.com/775527ff-9a37-4307-8b3d-cc311f58d925/v2.0/",
    providerOptions: { issuer: "https://contoso.b2clogin.com/775527ff-9a37-4307-8b3d-cc311f58d925/v2.0/" },
    // B2C's ID token lists the addresses in `emails` and has no `email`: userinfo is asked as well.
    profile: { sub: "b1c2d3e4-0000-4000-8000-000000000001", name: "Bea Bee", emails: ["bea@contoso.example"], tfp: "B2C_1_signupsignin", idp: "local" },
    user: { name: "Bea Bee", email: "bea@contoso.example", image: null },
    accountId: "b1c2d3e4-0000-4000-8000-000000000001",
  }),
  oidc({
    id: "azure-ad",
    name: "Azure Active Directory",
    factory: AzureAD,
    issuer: "https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0",
    providerOptions: { tenantId: "9188040d-6c67-4c5b-b112-36a304b66dad" },
    scope: "openid profile email User.Read",
    profile: { sub: "AAAAAAAAAAAAAAAAAAAAAKbd4mxbBQKQ", oid: "00000000-0000-0000-66f3-3332eca7ea81", tid: "9188040d-6c67-4c5b-b112-36a304b66dad", name: "Megan Bowen", email: "meganb@contoso.com", ver: "2.0" },
    standIn: {
      routes: {
        "GET https://graph.microsoft.com/v1.0/me/photos/48x48/$value": (request, standIn) =>
          standIn.checkBearer(request, "graph photo") ?? new Response(photoBytes, { headers: { "content-type": "image/jpeg" } }),
      },
    },
    user: { name: "Megan Bowen", email: "meganb@contoso.com", image: `data:image/jpeg;base64,${Buffer.from(photoBytes).toString("base64")}` },
    accountId: "AAAAAAAAAAAAAAAAAAAAAKbd4mxbBQKQ",
  }),
  oauth({
    id: "azure-devops",
    name: "Azure DevOps",
    factory: AzureDevOps,
    authorization: "https://app.vssps.visualstudio.com/oauth2/authorize",
    token: "https://app.vssps.visualstudio.com/oauth2/token",
    userinfo: "https://app.vssps.visualstudio.com/_apis/profile/profiles/me",
    authMethod: "client_secret_post",
    scope: "vso.profile",
    responseType: "Assertion",
    profile: { id: "d291b0c4-a05c-4ea6-8df1-4b41d5f39eff", displayName: "Jamal Hartnett", publicAlias: "d291b0c4-a05c-4ea6-8df1-4b41d5f39eff", emailAddress: "fabrikamfiber4@hotmail.com", coreRevision: 1, coreAttributes: { Avatar: { value: { value: "AQID", contentType: "image/png" } } } },
    standIn: { tokenRequest: "jwt-bearer-assertion" },
    user: { name: "Jamal Hartnett", email: "fabrikamfiber4@hotmail.com", image: "data:image/png;base64,AQID" },
    accountId: "d291b0c4-a05c-4ea6-8df1-4b41d5f39eff",
  }),
  oidc({
    id: "bankid-no",
    name: "BankID Norge",
    factory: BankIDNorge,
    issuer: "https://auth.bankid.no/auth/realms/prod",
    authMethod: "client_secret_post",
    params: { ui_locales: "no", login_hint: "BIS" },
    // idToken: false — the profile is the signed userinfo, not the ID token (which has `sub` only).
    profile: { sub: "9578-6000-4-365161", name: "Kari Nordmann", given_name: "Kari", family_name: "Nordmann", birthdate: "1986-02-20" },
    standIn: { idTokenClaims: { sub: "9578-6000-4-365161" }, userinfoJwt: true },
    user: { name: "Kari Nordmann", email: null, image: null },
    accountId: "9578-6000-4-365161",
  }),
  oidc({
    id: "battlenet",
    name: "Battle.net",
    factory: BattleNet,
    issuer: "https://oauth.battle.net",
    scope: "openid",
    profile: { sub: "100000001", battle_tag: "Thrall#1234" },
    user: { name: "Thrall#1234", email: null, image: null },
    accountId: "100000001",
  }),
  selfHostedOidc("beyondidentity", "Beyond Identity", BeyondIdentity, "https://auth-us.beyondidentity.com/v1/tenants/t1/realms/r1/applications/a1", {
    user: { name: "Ada Lovelace", email: "ada@example.com", image: null },
  }),
  oauth({
    id: "box",
    name: "Box",
    factory: Box,
    authorization: "https://account.box.com/api/oauth2/authorize",
    token: "https://api.box.com/oauth2/token",
    userinfo: "https://api.box.com/2.0/users/me",
    scope: null,
    profile: { type: "user", id: "11446498", name: "Aaron Levie", login: "ceo@example.com", avatar_url: "https://www.box.com/api/avatar/large/181216415", language: "en" },
    user: { name: "Aaron Levie", email: "ceo@example.com", image: "https://www.box.com/api/avatar/large/181216415" },
    accountId: "11446498",
  }),
  oauth({
    id: "boxyhq-saml",
    name: "BoxyHQ SAML",
    factory: BoxyHQSAML,
    providerOptions: { issuer: "https://jackson.example.com" },
    authorization: "https://jackson.example.com/api/oauth/authorize",
    token: "https://jackson.example.com/api/oauth/token",
    userinfo: "https://jackson.example.com/api/oauth/userinfo",
    scope: null,
    params: { provider: "saml" },
    profile: { id: "c0ffee00-0000-4000-8000-0000000000aa", email: "sam@acme.example", firstName: "Sam", lastName: "Ell", requested: { tenant: "acme.example", product: "demo" } },
    user: { name: "Sam Ell", email: "sam@acme.example", image: null },
    accountId: "c0ffee00-0000-4000-8000-0000000000aa",
  }),
  oauth({
    id: "bungie",
    name: "Bungie",
    factory: Bungie,
    providerOptions: { apiKey: "bungie-api-key" },
    authorization: "https://www.bungie.net/en/OAuth/Authorize",
    token: "https://www.bungie.net/platform/app/oauth/token/",
    userinfo: "https://www.bungie.net/Platform/User/GetBungieAccount/%7BmembershipId%7D/254/",
    scope: null,
    params: { reauth: "true" },
    profile: { Response: { bungieNetUser: { membershipId: "4611686018467284386", uniqueName: "Guardian#0042", displayName: "Guardian", profilePicturePath: "/img/profile/avatars/default_avatar.gif" } }, ErrorCode: 1, ErrorStatus: "Success", Message: "Ok" },
    standIn: {
      // Bungie's token response names the user; the account is read with it and the API key.
      tokenResponse: { membership_id: "4611686018467284386" },
      routes: {
        "GET https://www.bungie.net/Platform/User/GetBungieAccount/4611686018467284386/254/": (request, standIn) => {
          if (request.headers.get("x-api-key") !== "bungie-api-key") standIn.failures.push("Bungie: X-API-Key header missing")
          return standIn.checkBearer(request, "bungie account") ?? json({ Response: { bungieNetUser: { membershipId: "4611686018467284386", uniqueName: "Guardian#0042", displayName: "Guardian", profilePicturePath: "/img/profile/avatars/default_avatar.gif" } }, ErrorCode: 1, ErrorStatus: "Success", Message: "Ok" })
        },
      },
    },
    user: { name: "Guardian", email: null, image: "https://www.bungie.net/img/profile/avatars/default_avatar.gif" },
    accountId: "4611686018467284386",
  }),
  oauth({
    id: "click-up",
    name: "ClickUp",
    factory: ClickUp,
    authorization: "https://app.clickup.com/api",
    token: "https://api.clickup.com/api/v2/oauth/token",
    userinfo: "https://api.clickup.com/api/v2/user",
    scope: null,
    profile: { user: { id: 123, username: "John Doe", email: "johndoe@example.com", color: "#000000", profilePicture: "https://attachments.clickup.com/profilePictures/123_abc.jpg", initials: "JD", week_start_day: 0, timezone: "America/New_York" } },
    user: { name: "John Doe", email: "johndoe@example.com", image: "https://attachments.clickup.com/profilePictures/123_abc.jpg" },
    accountId: "123",
  }),
  oauth({
    id: "coinbase",
    name: "Coinbase",
    factory: Coinbase,
    authorization: "https://login.coinbase.com/oauth2/auth",
    token: "https://login.coinbase.com/oauth2/token",
    userinfo: "https://api.coinbase.com/v2/user",
    scope: "wallet:user:email wallet:user:read",
    profile: { data: { id: "9da7a204-544e-5fd1-9a12-61176c5d4cd8", name: "User One", username: "user1", profile_location: null, profile_bio: null, profile_url: "https://coinbase.com/user1", avatar_url: "https://images.coinbase.com/avatar?h=vR%2FY8igBoPwuwGren5JMwvDNGpURAY%2F0nRIOgH%2FY2Qh%2BQ6nomR3qusA%2Bh6o2%0Af9rH&s=128", resource: "user", resource_path: "/v2/user", email: "user1@example.com" } },
    user: { name: "User One", email: "user1@example.com", image: "https://images.coinbase.com/avatar?h=vR%2FY8igBoPwuwGren5JMwvDNGpURAY%2F0nRIOgH%2FY2Qh%2BQ6nomR3qusA%2Bh6o2%0Af9rH&s=128" },
    accountId: "9da7a204-544e-5fd1-9a12-61176c5d4cd8",
  }),
  oauth({
    id: "concept2",
    name: "Concept2",
    factory: Concept2,
    authorization: "https://log.concept2.com/oauth/authorize",
    token: "https://log.concept2.com/oauth/access_token",
    userinfo: "https://log.concept2.com/api/users/me",
    scope: "user:read,results:write",
    profile: { data: { id: 1, username: "rower", first_name: "Row", last_name: "Er", gender: "F", dob: "1990-01-01", email: "rower@example.com", country: "USA", profile_image: "https://log.concept2.com/images/rower.jpg", age_restricted: false } },
    user: { name: "rower", email: "rower@example.com", image: "https://log.concept2.com/images/rower.jpg" },
    accountId: "1",
  }),
  selfHostedOidc("descope", "Descope", Descope, "https://api.descope.com/P2abc123"),
  oauth({
    id: "dribbble",
    name: "Dribbble",
    factory: Dribbble,
    authorization: "https://dribbble.com/oauth/authorize",
    token: "https://dribbble.com/oauth/token",
    userinfo: "https://api.dribbble.com/v2/user",
    scope: "public",
    profile: { id: 1, name: "Dan Cederholm", login: "simplebits", email: "dan@example.com", avatar_url: "https://cdn.dribbble.com/users/1/avatars/normal/dc.jpg", bio: "Co-founder", pro: true },
    user: { name: "Dan Cederholm", email: "dan@example.com", image: "https://cdn.dribbble.com/users/1/avatars/normal/dc.jpg" },
    accountId: "1",
  }),
  selfHostedOidc("duende-identity-server6", "DuendeIdentityServer6", DuendeIdentityServer6, "https://demo.duendesoftware.com"),
  oauth({
    id: "eventbrite",
    name: "Eventbrite",
    factory: Eventbrite,
    authorization: "https://www.eventbrite.com/oauth/authorize",
    token: "https://www.eventbrite.com/oauth/token",
    userinfo: "https://www.eventbriteapi.com/v3/users/me/",
    authMethod: "client_secret_post",
    scope: "user.profile",
    profile: { id: "1234567890", name: "Eve Brite", first_name: "Eve", last_name: "Brite", is_public: false, image_id: "98765", emails: [{ email: "old@example.com", verified: true, primary: false }, { email: "eve@example.com", verified: true, primary: true }] },
    user: { name: "Eve Brite", email: "eve@example.com", image: "https://img.evbuc.com/https%3A%2F%2Fcdn.evbuc.com%2Fimages%2F98765%2F1%2Foriginal.jpg" },
    accountId: "1234567890",
  }),
  oauth({
    id: "eveonline",
    name: "EVE Online",
    factory: EVEOnline,
    authorization: "https://login.eveonline.com/v2/oauth/authorize",
    token: "https://login.eveonline.com/v2/oauth/token",
    userinfo: "https://login.eveonline.com/oauth/verify",
    scope: "publicData",
    profile: { CharacterID: 95465499, CharacterName: "CCP Bartender", ExpiresOn: "2026-11-27T01:20:00", Scopes: "publicData", TokenType: "Character", CharacterOwnerHash: "lots_of_random_characters", IntellectualProperty: "EVE" },
    user: { name: "CCP Bartender", email: null, image: "https://image.eveonline.com/Character/95465499_128.jpg" },
    accountId: "95465499",
  }),
  oauth({
    id: "faceit",
    name: "FACEIT",
    factory: FACEIT,
    authorization: "https://accounts.faceit.com/accounts",
    token: "https://api.faceit.com/auth/v1/oauth/token",
    userinfo: "https://api.faceit.com/auth/v1/resources/userinfo",
    params: { redirect_popup: "true" },
    profile: { guid: "0d7a5a8c-7a1b-4b5c-9b2a-5d7a8c7a1b4b", name: "Fay Ceit", nickname: "fayceit", email: "fay@example.com", picture: "https://distribution.faceit-cdn.net/images/fay.jpeg", locale: "en" },
    user: { name: "Fay Ceit", email: "fay@example.com", image: "https://distribution.faceit-cdn.net/images/fay.jpeg" },
    accountId: "0d7a5a8c-7a1b-4b5c-9b2a-5d7a8c7a1b4b",
  }),
  oauth({
    id: "figma",
    name: "Figma",
    factory: Figma,
    authorization: "https://www.figma.com/oauth",
    token: "https://api.figma.com/v1/oauth/token",
    userinfo: "https://api.figma.com/v1/me",
    scope: "files:read",
    profile: { id: "1234567890123456789", handle: "Fig Ma", email: "fig@example.com", img_url: "https://s3-alpha.figma.com/profile/fig.png" },
    user: { name: "Fig Ma", email: "fig@example.com", image: "https://s3-alpha.figma.com/profile/fig.png" },
    accountId: "1234567890123456789",
  }),
  oauth({
    id: "foursquare",
    name: "Foursquare",
    factory: Foursquare,
    authorization: "https://foursquare.com/oauth2/authenticate",
    token: "https://foursquare.com/oauth2/access_token",
    userinfo: "https://api.foursquare.com/v2/users/self",
    scope: null,
    profile: { response: { user: { id: "1234567", firstName: "Four", lastName: "Square", photo: { prefix: "https://fastly.4sqi.net/img/user/", suffix: "/1234567-ABC.jpg" }, contact: { email: "four@example.com" } } } },
    standIn: {
      // The v2 API takes the token as `oauth_token` in the query, with the API version.
      routes: {
        "GET https://api.foursquare.com/v2/users/self": (request, standIn) => {
          const query = new URL(request.url).searchParams
          if (query.get("oauth_token") !== standIn.accessToken) standIn.failures.push(`Foursquare: oauth_token ${query.get("oauth_token")}`)
          if (query.get("v") !== "20230131") standIn.failures.push(`Foursquare: v ${query.get("v")}`)
          return json({ response: { user: { id: "1234567", firstName: "Four", lastName: "Square", photo: { prefix: "https://fastly.4sqi.net/img/user/", suffix: "/1234567-ABC.jpg" }, contact: { email: "four@example.com" } } } })
        },
      },
    },
    user: { name: "Four Square", email: "four@example.com", image: "https://fastly.4sqi.net/img/user/original/1234567-ABC.jpg" },
    accountId: "1234567",
  }),
  oauth({
    id: "freshbooks",
    name: "Freshbooks",
    factory: Freshbooks,
    authorization: "https://auth.freshbooks.com/service/auth/oauth/authorize",
    token: "https://api.freshbooks.com/auth/oauth/token",
    userinfo: "https://api.freshbooks.com/auth/api/v1/users/me",
    scope: null,
    profile: { response: { id: 2192788, identity_id: 2192788, first_name: "Fresh", last_name: "Books", email: "fresh@example.com", language: "en", confirmed_at: "2024-01-01T00:00:00Z" } },
    user: { name: "Fresh Books", email: "fresh@example.com", image: null },
    accountId: "2192788",
  }),
  selfHostedOidc("frontegg", "Frontegg", Frontegg, "https://app-abc123.frontegg.com"),
  oauth({
    id: "hubspot",
    name: "HubSpot",
    factory: HubSpot,
    authorization: "https://app.hubspot.com/oauth/authorize",
    token: "https://api.hubapi.com/oauth/v1/token",
    userinfo: "https://api.hubapi.com/oauth/v1/access-tokens",
    authMethod: "client_secret_post",
    scope: "oauth",
    profile: hubspotInfo,
    standIn: {
      // The user is the access token's metadata: the token is in the path, not in a header.
      routes: {
        "GET https://api.hubapi.com/oauth/v1/access-tokens/{accessToken}": () => json(hubspotInfo),
      },
    },
    user: { name: "jane@hubspot.example", email: "jane@hubspot.example", image: null },
    accountId: "1234567",
  }),
  oidc({
    id: "huggingface",
    name: "Hugging Face",
    factory: HuggingFace,
    issuer: "https://huggingface.co",
    profile: { sub: "6401f2b1d7a1b0b0a0b0c0d0", name: "Hug Face", preferred_username: "hugface", profile: "https://huggingface.co/hugface", picture: "https://cdn-avatars.huggingface.co/hugface.png", email: "hug@example.com", email_verified: true, isPro: false },
    user: { name: "Hug Face", email: "hug@example.com", image: "https://cdn-avatars.huggingface.co/hugface.png" },
    accountId: "6401f2b1d7a1b0b0a0b0c0d0",
  }),
  selfHostedOidc("identity-server4", "IdentityServer4", IdentityServer4, "https://demo.identityserver.io"),
  oauth({
    id: "instagram",
    name: "Instagram",
    factory: Instagram,
    authorization: "https://api.instagram.com/oauth/authorize",
    token: "https://api.instagram.com/oauth/access_token",
    userinfo: "https://graph.instagram.com/me",
    authMethod: "client_secret_post",
    scope: "user_profile",
    profile: { id: "17841405793187218", username: "insta_jane", account_type: "PERSONAL", name: "Jane" },
    // Instagram's token response has no token_type (the provider adds it) but the user's id.
    standIn: { tokenResponse: { token_type: undefined, user_id: 17841405793187218 } },
    user: { name: "insta_jane", email: null, image: null },
    accountId: "17841405793187218",
  }),
  selfHostedOidc("kinde", "Kinde", Kinde, "https://acme.kinde.com"),
  selfHostedOidc("logto", "Logto", Logto, "https://acme.logto.app/oidc", { scope: "offline_access openid email profile" }),
  oauth({
    id: "mailchimp",
    name: "Mailchimp",
    factory: Mailchimp,
    authorization: "https://login.mailchimp.com/oauth2/authorize",
    token: "https://login.mailchimp.com/oauth2/token",
    userinfo: "https://login.mailchimp.com/oauth2/metadata",
    scope: null,
    profile: { dc: "us1", role: "owner", accountname: "Freddie's Jokes", user_id: 42, login: { email: "freddie@example.com", avatar: null, login_id: 8675309, login_name: "freddie", login_email: "freddie@example.com" }, login_url: "https://login.mailchimp.com", api_endpoint: "https://us1.api.mailchimp.com" },
    user: { name: "Freddie's Jokes", email: "freddie@example.com", image: null },
    accountId: "8675309",
  }),
  oauth({
    id: "mailru",
    name: "Mail.ru",
    factory: Mailru,
    authorization: "https://oauth.mail.ru/login",
    token: "https://oauth.mail.ru/token",
    userinfo: "https://oauth.mail.ru/userinfo",
    scope: "userinfo",
    profile: { id: "1234567890", name: "Ivan Petrov", first_name: "Ivan", last_name: "Petrov", nickname: "ivan", email: "ivan@mail.ru", image: "https://filin.mail.ru/pic?d=ivan", locale: "ru_RU" },
    user: { name: "Ivan Petrov", email: "ivan@mail.ru", image: "https://filin.mail.ru/pic?d=ivan" },
    accountId: "1234567890",
  }),
  oauth({
    id: "mastodon",
    name: "Mastodon",
    factory: Mastodon,
    providerOptions: { issuer: "https://mastodon.social" },
    authorization: "https://mastodon.social/oauth/authorize",
    token: "https://mastodon.social/oauth/token",
    userinfo: "https://mastodon.social/api/v1/accounts/verify_credentials",
    scope: "read",
    profile: { id: "14715", username: "trwnh", acct: "trwnh", display_name: "infinite love ⴳ", locked: false, bot: false, created_at: "2016-11-24T00:00:00.000Z", note: "", url: "https://mastodon.social/@trwnh", avatar: "https://files.mastodon.social/accounts/avatars/000/014/715/original/a.png", avatar_static: "https://files.mastodon.social/accounts/avatars/000/014/715/original/a.png", header: "", header_static: "", followers_count: 1, following_count: 1, statuses_count: 1, last_status_at: null },
    user: { name: "trwnh", email: null, image: "https://files.mastodon.social/accounts/avatars/000/014/715/original/a.png" },
    accountId: "14715",
  }),
  oauth({
    id: "mattermost",
    name: "Mattermost",
    factory: Mattermost,
    providerOptions: { issuer: "https://chat.example.com" },
    authorization: "https://chat.example.com/oauth/authorize",
    token: "https://chat.example.com/oauth/access_token",
    userinfo: "https://chat.example.com/api/v4/users/me",
    authMethod: "client_secret_post",
    scope: null,
    profile: { id: "x3yb8cuu6fb1pnbeq4fpq3xqxo", username: "matt", first_name: "Matt", last_name: "Ermost", nickname: "", email: "matt@example.com", email_verified: true, auth_service: "", roles: "system_user", locale: "en", create_at: 1, update_at: 1, delete_at: 0 },
    user: { name: "matt", email: "matt@example.com", image: null },
    accountId: "x3yb8cuu6fb1pnbeq4fpq3xqxo",
  }),
  oauth({
    id: "medium",
    name: "Medium",
    factory: Medium,
    authorization: "https://medium.com/m/oauth/authorize",
    token: "https://api.medium.com/v1/tokens",
    userinfo: "https://api.medium.com/v1/me",
    scope: "basicProfile",
    profile: { data: { id: "5303d74c64f66366f00cb9b2a94f3251bf5", username: "majelbstoat", name: "Jamie Talbot", url: "https://medium.com/@majelbstoat", imageUrl: "https://images.medium.com/0*fkfQiTzT7TlUGGyI.png" } },
    user: { name: "Jamie Talbot", email: null, image: "https://images.medium.com/0*fkfQiTzT7TlUGGyI.png" },
    accountId: "5303d74c64f66366f00cb9b2a94f3251bf5",
  }),
  oauth({
    id: "netlify",
    name: "Netlify",
    factory: Netlify,
    authorization: "https://app.netlify.com/authorize",
    token: "https://api.netlify.com/oauth/token",
    userinfo: "https://api.netlify.com/api/v1/user",
    scope: null,
    profile: { id: "5b1c2d3e4f5a6b7c8d9e0f1a", uid: "5b1c", full_name: "Net Lify", avatar_url: "https://avatars.netlify.com/net.png", email: "net@example.com", site_count: 3 },
    user: { name: "Net Lify", email: "net@example.com", image: "https://avatars.netlify.com/net.png" },
    accountId: "5b1c2d3e4f5a6b7c8d9e0f1a",
  }),
  oauth({
    id: "netsuite",
    name: "NetSuite",
    factory: NetSuite,
    // NetSuite has no userinfo endpoint: the app gives the URL of its RESTlet.
    providerOptions: { accountID: "TSTDRV1234567", userinfo: "https://tstdrv1234567.restlets.api.netsuite.com/app/site/hosting/restlet.nl" },
    authorization: "https://tstdrv1234567.app.netsuite.com/app/login/oauth2/authorize.nl",
    token: "https://tstdrv1234567.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token",
    userinfo: "https://tstdrv1234567.restlets.api.netsuite.com/app/site/hosting/restlet.nl",
    scope: "restlets rest_webservices",
    profile: { id: 1234, name: "Nettie Suite", email: "nettie@example.com", location: 1, role: 3, roleId: "administrator", roleCenter: "BASIC", subsidiary: 1 },
    user: { name: "Nettie Suite", email: "nettie@example.com", image: null },
    accountId: "1234",
  }),
  oauth({
    id: "nextcloud",
    name: "Nextcloud",
    factory: Nextcloud,
    providerOptions: { issuer: "https://cloud.example.com" },
    authorization: "https://cloud.example.com/apps/oauth2/authorize",
    token: "https://cloud.example.com/apps/oauth2/api/v1/token",
    userinfo: "https://cloud.example.com/ocs/v1.php/cloud/users",
    scope: null,
    profile: { id: "alice", displayname: "Alice Cloud", email: "alice@example.com", enabled: true, language: "en" },
    standIn: {
      // Nextcloud's token response names the user; the OCS API answers it in an envelope.
      tokenResponse: { user_id: "alice" },
      routes: {
        "GET https://cloud.example.com/ocs/v1.php/cloud/users/alice": (request, standIn) => {
          if (request.headers.get("ocs-apirequest") !== "true") standIn.failures.push("Nextcloud: OCS-APIRequest header missing")
          return standIn.checkBearer(request, "nextcloud users") ?? json({ ocs: { meta: { status: "ok", statuscode: 100 }, data: { id: "alice", displayname: "Alice Cloud", email: "alice@example.com", enabled: true, language: "en" } } })
        },
      },
    },
    user: { name: "Alice Cloud", email: "alice@example.com", image: "https://cloud.example.com/avatar/alice/512" },
    accountId: "alice",
  }),
  selfHostedOidc("onelogin", "OneLogin", OneLogin, "https://acme.onelogin.com/oidc/2", {
    providerOptions: { issuer: "https://acme.onelogin.com" },
    configIssuer: "https://acme.onelogin.com",
  }),
  selfHostedOidc("hydra", "Hydra", OryHydra, "https://hydra.example.com/", { authjsModule: "ory-hydra" }),
  oauth({
    id: "osso",
    name: "Osso",
    factory: Osso,
    providerOptions: { issuer: "https://demo.ossoapp.com/" },
    authorization: "https://demo.ossoapp.com/oauth/authorize",
    token: "https://demo.ossoapp.com/oauth/token",
    userinfo: "https://demo.ossoapp.com/oauth/me",
    scope: null,
    profile: { id: "d8d1d1a0-5b5b-4b5b-8b5b-5b5b5b5b5b5b", email: "sso@acme.example", idp: "Okta", requested: { domain: "acme.example" } },
    user: { name: null, email: "sso@acme.example", image: null },
    accountId: "d8d1d1a0-5b5b-4b5b-8b5b-5b5b5b5b5b5b",
  }),
  oauth({
    id: "osu",
    name: "osu!",
    factory: Osu,
    authorization: "https://osu.ppy.sh/oauth/authorize",
    token: "https://osu.ppy.sh/oauth/token",
    userinfo: "https://osu.ppy.sh/api/v2/me",
    scope: "identify",
    profile: { id: 2, username: "peppy", avatar_url: "https://a.ppy.sh/2", country_code: "AU", is_active: true, is_bot: false, is_online: false, is_supporter: true, last_visit: null, profile_colour: "#3366FF" },
    user: { name: "peppy", email: null, image: "https://a.ppy.sh/2" },
    accountId: "2",
  }),
  selfHostedOidc("passage", "Passage", Passage, "https://abc123.withpassage.com"),
  oauth({
    id: "patreon",
    name: "Patreon",
    factory: Patreon,
    authorization: "https://www.patreon.com/oauth2/authorize",
    token: "https://www.patreon.com/api/oauth2/token",
    userinfo: "https://www.patreon.com/api/oauth2/api/current_user",
    scope: "identity identity[email]",
    profile: { data: { id: "12345", type: "user", attributes: { full_name: "Pat Reon", email: "pat@example.com", image_url: "https://c8.patreon.com/2/200/12345", is_email_verified: true } } },
    user: { name: "Pat Reon", email: "pat@example.com", image: "https://c8.patreon.com/2/200/12345" },
    accountId: "12345",
  }),
  selfHostedOidc("ping-id", "Ping Identity", PingId, "https://auth.pingone.com/8a4c7d3e-0000-4000-8000-000000000000/as"),
  oauth({
    id: "pinterest",
    name: "Pinterest",
    factory: Pinterest,
    authorization: "https://www.pinterest.com/oauth",
    token: "https://api.pinterest.com/v5/oauth/token",
    userinfo: "https://api.pinterest.com/v5/user_account",
    scope: "user_accounts:read",
    profile: { account_type: "PINNER", profile_image: "https://i.pinimg.com/75x75_RS/pin.jpg", website_url: "https://pin.example", username: "pinner" },
    user: { name: "pinner", email: null, image: "https://i.pinimg.com/75x75_RS/pin.jpg" },
    accountId: "pinner",
  }),
  oauth({
    id: "pipedrive",
    name: "Pipedrive",
    factory: Pipedrive,
    authorization: "https://oauth.pipedrive.com/oauth/authorize",
    token: "https://oauth.pipedrive.com/oauth/token",
    userinfo: "https://api.pipedrive.com/users/me",
    scope: null,
    profile: { success: true, data: { id: 123, name: "Pipe Drive", email: "pipe@example.com", icon_url: "https://pipedrive.example/icon.png", company_id: 1, company_name: "Acme" } },
    user: { name: "Pipe Drive", email: "pipe@example.com", image: "https://pipedrive.example/icon.png" },
    accountId: "123",
  }),
  oidc({
    id: "roblox",
    name: "Roblox",
    factory: Roblox,
    issuer: "https://apis.roblox.com/oauth/",
    scope: "openid profile",
    profile: { sub: "1516563360", name: "exampleuser", nickname: "exampleuser", preferred_username: "exampleuser", created_at: 1584682495, profile: "https://www.roblox.com/users/1516563360/profile", picture: "https://tr.rbxcdn.com/avatar.png" },
    user: { name: "exampleuser", email: null, image: "https://tr.rbxcdn.com/avatar.png" },
    accountId: "1516563360",
  }),
  oidc({
    id: "simplelogin",
    name: "SimpleLogin",
    factory: SimpleLogin,
    issuer: "https://app.simplelogin.io",
    profile: { sub: "ada@simplelogin.co", id: 1, name: "Ada", email: "alias.ada@simplelogin.co", email_verified: true, avatar_url: "https://app.simplelogin.io/avatar/1.png", client: "demo" },
    user: { name: "Ada", email: "alias.ada@simplelogin.co", image: "https://app.simplelogin.io/avatar/1.png" },
    accountId: "ada@simplelogin.co",
  }),
  oauth({
    id: "strava",
    name: "Strava",
    factory: Strava,
    authorization: "https://www.strava.com/api/v3/oauth/authorize",
    token: "https://www.strava.com/api/v3/oauth/token",
    userinfo: "https://www.strava.com/api/v3/athlete",
    authMethod: "client_secret_post",
    scope: "read",
    params: { approval_prompt: "auto" },
    profile: { id: 12345678, username: "marianne_t", firstname: "Marianne", lastname: "Teutenberg", profile: "https://xxxxxx.cloudfront.net/pictures/athletes/123/large.jpg", city: "San Francisco", sex: "F" },
    // Strava's token response also carries the athlete.
    standIn: { tokenResponse: { athlete: { id: 12345678 } } },
    user: { name: "Marianne Teutenberg", email: null, image: "https://xxxxxx.cloudfront.net/pictures/athletes/123/large.jpg" },
    accountId: "12345678",
  }),
  oauth({
    id: "threads",
    name: "Threads",
    factory: Threads,
    authorization: "https://threads.net/oauth/authorize",
    token: "https://graph.threads.net/oauth/access_token",
    userinfo: "https://graph.threads.net/v1.0/me",
    authMethod: "client_secret_post",
    scope: "threads_basic",
    // The shape Auth.js's profile() reads; the provider also reads Threads' flat answer.
    profile: { data: { id: "1234567890", username: "threadsapitestuser", threads_profile_picture_url: "https://scontent.cdninstagram.com/t.jpg" } },
    user: { name: "threadsapitestuser", email: null, image: "https://scontent.cdninstagram.com/t.jpg" },
    accountId: "1234567890",
  }),
  oauth({
    id: "tiktok",
    name: "TikTok",
    factory: TikTok,
    authorization: "https://www.tiktok.com/v2/auth/authorize",
    token: "https://open.tiktokapis.com/v2/oauth/token/",
    userinfo: "https://open.tiktokapis.com/v2/user/info/",
    authMethod: "client_secret_post",
    scope: "user.info.basic",
    params: { client_key: "client-id" },
    profile: { data: { user: { open_id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4", avatar_url: "https://p19-sign.tiktokcdn-us.com/avatar.jpeg", display_name: "Tik Toker" } }, error: { code: "ok", message: "", log_id: "20220829194722CBE87ED59D524E727021" } },
    standIn: {
      tokenResponse: { open_id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4", refresh_expires_in: 31536000 },
      routes: {
        // TikTok reads the client as `client_key`; the provider adds it to the standard form.
        "POST https://open.tiktokapis.com/v2/oauth/token/": async (request, standIn) => {
          const form = new URLSearchParams(await request.clone().text())
          if (form.get("client_key") !== form.get("client_id")) standIn.failures.push(`TikTok: client_key ${form.get("client_key")}`)
          return standIn.tokenFor(request)
        },
      },
    },
    user: { name: "Tik Toker", email: null, image: "https://p19-sign.tiktokcdn-us.com/avatar.jpeg" },
    accountId: "723f24d7-e717-40f8-a2b6-cb8464cd23b4",
  }),
  oauth({
    id: "todoist",
    name: "Todoist",
    factory: Todoist,
    authorization: "https://todoist.com/oauth/authorize",
    token: "https://todoist.com/oauth/access_token",
    userinfo: "https://api.todoist.com/sync/v9/sync",
    authMethod: "client_secret_post",
    scope: "data:read",
    profile: { id: "2671355", email: "todo@example.com", full_name: "Todo Ist", avatar_big: "https://dcff1xvirvpfp.cloudfront.net/big.jpg", lang: "en" },
    standIn: {
      // The user comes from a Sync API POST asking for the `user` resource.
      routes: {
        "POST https://api.todoist.com/sync/v9/sync": async (request, standIn) => {
          const body = (await request.clone().json()) as { sync_token?: string; resource_types?: string }
          if (body.sync_token !== "*" || body.resource_types !== '["user"]') standIn.failures.push(`Todoist: sync body ${JSON.stringify(body)}`)
          return standIn.checkBearer(request, "todoist sync") ?? json({ sync_token: "abc", full_sync: true, user: { id: "2671355", email: "todo@example.com", full_name: "Todo Ist", avatar_big: "https://dcff1xvirvpfp.cloudfront.net/big.jpg", lang: "en" } })
        },
      },
    },
    user: { name: "Todo Ist", email: "todo@example.com", image: "https://dcff1xvirvpfp.cloudfront.net/big.jpg" },
    accountId: "2671355",
  }),
  oauth({
    id: "trakt",
    name: "Trakt",
    factory: Trakt,
    authorization: "https://trakt.tv/oauth/authorize",
    token: "https://api.trakt.tv/oauth/token",
    userinfo: "https://api.trakt.tv/users/me",
    scope: null,
    profile: { username: "sean", private: false, name: "Sean Rudford", vip: true, vip_ep: false, ids: { slug: "sean" }, joined_at: "2010-09-25T17:49:25.000Z", location: null, about: null, gender: null, age: null, images: { avatar: { full: "https://walter.trakt.tv/images/users/sean.jpg" } } },
    standIn: {
      routes: {
        "GET https://api.trakt.tv/users/me": (request, standIn) => {
          if (request.headers.get("trakt-api-version") !== "2" || request.headers.get("trakt-api-key") !== "client-id") standIn.failures.push("Trakt: API version or key header missing")
          return standIn.checkBearer(request, "trakt users/me") ?? json({ username: "sean", private: false, name: "Sean Rudford", vip: true, vip_ep: false, ids: { slug: "sean" }, joined_at: "2010-09-25T17:49:25.000Z", location: null, about: null, gender: null, age: null, images: { avatar: { full: "https://walter.trakt.tv/images/users/sean.jpg" } } })
        },
      },
    },
    user: { name: "Sean Rudford", email: null, image: "https://walter.trakt.tv/images/users/sean.jpg" },
    accountId: "sean",
  }),
  selfHostedOidc("united-effects", "United Effects", UnitedEffects, "https://auth.unitedeffects.com/ag-1234", {
    scope: "openid email profile",
    params: { resource: "https://auth.unitedeffects.com/ag-1234" },
    user: { name: "Ada Lovelace", email: "ada@example.com", image: null },
  }),
  oidc({
    id: "vipps",
    name: "Vipps",
    factory: Vipps,
    issuer: "https://api.vipps.no/access-management-1.0/access/",
    scope: "openid name email",
    // idToken: false — the profile is read from userinfo; the ID token has `sub` only.
    profile: { sub: "c06c4afe-d9e1-4c5d-939a-177d752a0944", name: "Ada Lovelace", given_name: "Ada", family_name: "Lovelace", email: "user@example.com", email_verified: true, sid: "7d78a726-af92-499e-b857-de263ef9a969" },
    standIn: { idTokenClaims: { sub: "c06c4afe-d9e1-4c5d-939a-177d752a0944" } },
    user: { name: "Ada Lovelace", email: "user@example.com" },
    accountId: "c06c4afe-d9e1-4c5d-939a-177d752a0944",
  }),
  oauth({
    id: "vk",
    name: "VK",
    factory: VK,
    authorization: "https://oauth.vk.com/authorize",
    token: "https://oauth.vk.com/access_token?v=5.131",
    userinfo: "https://api.vk.com/method/users.get",
    authMethod: "client_secret_post",
    scope: "email",
    params: { v: "5.131" },
    profile: { id: 743784474, first_name: "Pavel", last_name: "Durov", photo_100: "https://sun1-1.userapi.com/pavel_100.jpg", can_access_closed: true, is_closed: false },
    // VK's token response has no token_type; it carries the email and user id instead.
    standIn: {
      tokenResponse: { token_type: undefined, email: "pavel@vk.example", user_id: 743784474 },
      routes: {
        "GET https://api.vk.com/method/users.get": (request, standIn) =>
          standIn.checkBearer(request, "vk users.get") ?? json({ response: [{ id: 743784474, first_name: "Pavel", last_name: "Durov", photo_100: "https://sun1-1.userapi.com/pavel_100.jpg", can_access_closed: true, is_closed: false }] }),
      },
    },
    added: { email: "pavel@vk.example" },
    user: { name: "Pavel Durov", email: "pavel@vk.example", image: "https://sun1-1.userapi.com/pavel_100.jpg" },
    accountId: "743784474",
  }),
  oauth({
    id: "webex",
    name: "Webex",
    factory: Webex,
    authorization: "https://webexapis.com/v1/authorize",
    token: "https://webexapis.com/v1/access_token",
    userinfo: "https://webexapis.com/v1/people/me",
    scope: "spark:kms spark:people_read",
    profile: { id: "Y2lzY29zcGFyazovL3VzL1BFT1BMRS9mNWIzNjE4Ny1jOGRkLTQ3MjctOGIyZi1mOWM0NDdmMjkwNDY", emails: ["john.andersen@example.com"], displayName: "John Andersen", nickName: "John", avatar: "https://1efa7a94ed21783e352-c62266528714497a17239ececf39e9e2.ssl.cf1.rackcdn.com/V1~54c844c89e678e5a7b16a306bc2897b9~wx29yGtlTpilEFlYzqPKag==~1600", type: "person" },
    user: { name: "John Andersen", email: "john.andersen@example.com", image: "https://1efa7a94ed21783e352-c62266528714497a17239ececf39e9e2.ssl.cf1.rackcdn.com/V1~54c844c89e678e5a7b16a306bc2897b9~wx29yGtlTpilEFlYzqPKag==~1600" },
    accountId: "Y2lzY29zcGFyazovL3VzL1BFT1BMRS9mNWIzNjE4Ny1jOGRkLTQ3MjctOGIyZi1mOWM0NDdmMjkwNDY",
  }),
  oauth({
    id: "wechat",
    name: "WeChat",
    factory: WeChat,
    authorization: "https://open.weixin.qq.com/connect/oauth2/authorize",
    token: "https://api.weixin.qq.com/sns/oauth2/access_token",
    userinfo: "https://api.weixin.qq.com/sns/userinfo",
    authMethod: "client_secret_post",
    scope: "snsapi_userinfo",
    params: { appid: "client-id" },
    profile: { openid: "oLVPpjqs2BhvzwPj5A-vTYAX3GLc", nickname: "微信用户", sex: 1, province: "Guangdong", city: "Shenzhen", country: "CN", headimgurl: "https://thirdwx.qlogo.cn/mmopen/g3Monu/132", privilege: [], unionid: "o6_bmasdasdsad6_2sgVt7hMZOPfL" },
    standIn: {
      // The code is exchanged by GET with appid and secret; the answer has no token_type, but the openid.
      tokenRequest: "wechat-query",
      tokenResponse: { token_type: undefined, openid: "oLVPpjqs2BhvzwPj5A-vTYAX3GLc", unionid: "o6_bmasdasdsad6_2sgVt7hMZOPfL" },
      routes: {
        "GET https://api.weixin.qq.com/sns/userinfo": (request, standIn) => {
          const query = new URL(request.url).searchParams
          if (query.get("access_token") !== standIn.accessToken || query.get("openid") !== "oLVPpjqs2BhvzwPj5A-vTYAX3GLc") standIn.failures.push(`WeChat userinfo: ${request.url}`)
          return json({ openid: "oLVPpjqs2BhvzwPj5A-vTYAX3GLc", nickname: "微信用户", sex: 1, province: "Guangdong", city: "Shenzhen", country: "CN", headimgurl: "https://thirdwx.qlogo.cn/mmopen/g3Monu/132", privilege: [], unionid: "o6_bmasdasdsad6_2sgVt7hMZOPfL" })
        },
      },
    },
    user: { name: "微信用户", email: null, image: "https://thirdwx.qlogo.cn/mmopen/g3Monu/132" },
    accountId: "o6_bmasdasdsad6_2sgVt7hMZOPfL",
  }),
  oauth({
    id: "wikimedia",
    name: "Wikimedia",
    factory: Wikimedia,
    authorization: "https://meta.wikimedia.org/w/rest.php/oauth2/authorize",
    token: "https://meta.wikimedia.org/w/rest.php/oauth2/access_token",
    userinfo: "https://meta.wikimedia.org/w/rest.php/oauth2/resource/profile",
    scope: null,
    profile: { sub: "46618563", username: "Wiki Editor", editcount: 1200, confirmed_email: true, blocked: false, registered: "20200101000000", groups: ["*", "user", "autoconfirmed"], rights: ["read", "edit"], grants: ["basic", "mwoauth-authonlyprivate"], realname: "", email: "editor@example.org" },
    user: { name: "Wiki Editor", email: "editor@example.org", image: null },
    accountId: "46618563",
  }),
  oauth({
    id: "wordpress",
    name: "WordPress.com",
    factory: WordPress,
    authorization: "https://public-api.wordpress.com/oauth2/authorize",
    token: "https://public-api.wordpress.com/oauth2/token",
    userinfo: "https://public-api.wordpress.com/rest/v1/me",
    scope: "auth",
    profile: { ID: 12345678, display_name: "Word Presser", username: "wordpresser", email: "wp@example.com", primary_blog: 1, avatar_URL: "https://0.gravatar.com/avatar/wp", email_verified: true },
    user: { name: "Word Presser", email: "wp@example.com", image: "https://0.gravatar.com/avatar/wp" },
    accountId: "12345678",
  }),
  oauth({
    id: "yandex",
    name: "Yandex",
    factory: Yandex,
    authorization: "https://oauth.yandex.ru/authorize",
    token: "https://oauth.yandex.ru/token",
    userinfo: "https://login.yandex.ru/info",
    scope: "login:info login:email login:avatar",
    profile: { id: "1000034426", login: "ivan", client_id: "4760187d81bc4b7799476b42b5103713", psuid: "1.AAceCw.tbHgw5DtJ9_zeqPrk-Ba2w.qPWSRC5v2t2IaksPJgnge", display_name: "Ivan", real_name: "Ivan Ivanov", first_name: "Ivan", last_name: "Ivanov", default_email: "ivan@yandex.ru", emails: ["ivan@yandex.ru"], is_avatar_empty: false, default_avatar_id: "131652443" },
    user: { name: "Ivan", email: "ivan@yandex.ru", image: "https://avatars.yandex.net/get-yapic/131652443/islands-200" },
    accountId: "1000034426",
  }),
  oauth({
    id: "zoho",
    name: "Zoho",
    factory: Zoho,
    authorization: "https://accounts.zoho.com/oauth/v2/auth",
    token: "https://accounts.zoho.com/oauth/v2/token",
    userinfo: "https://accounts.zoho.com/oauth/user/info",
    scope: "AaaServer.profile.Read",
    profile: { ZUID: 1234567, First_Name: "Zo", Last_Name: "Ho", Display_Name: "zoho", Email: "zo@example.com" },
    user: { name: "Zo Ho", email: "zo@example.com", image: null },
    accountId: "1234567",
  }),
]
