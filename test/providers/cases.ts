/**
 * One entry per built-in OAuth/OIDC provider: the factory, how its stand-in server behaves, the raw
 * profile it hands out (userinfo answer or ID token claims), and the user and account id
 * `profile()` must make of it. Shared by the profile unit tests and the full-flow tests.
 */
import Apple from "../../src/providers/apple.js"
import Atlassian from "../../src/providers/atlassian.js"
import Auth0 from "../../src/providers/auth0.js"
import Authentik from "../../src/providers/authentik.js"
import Bitbucket from "../../src/providers/bitbucket.js"
import Cognito from "../../src/providers/cognito.js"
import Discord from "../../src/providers/discord.js"
import Dropbox from "../../src/providers/dropbox.js"
import Facebook from "../../src/providers/facebook.js"
import FusionAuth from "../../src/providers/fusionauth.js"
import GitHub from "../../src/providers/github.js"
import GitLab from "../../src/providers/gitlab.js"
import Google from "../../src/providers/google.js"
import Kakao from "../../src/providers/kakao.js"
import Keycloak from "../../src/providers/keycloak.js"
import Line from "../../src/providers/line.js"
import LinkedIn from "../../src/providers/linkedin.js"
import MicrosoftEntraID from "../../src/providers/microsoft-entra-id.js"
import Naver from "../../src/providers/naver.js"
import Notion from "../../src/providers/notion.js"
import OIDC from "../../src/providers/oidc.js"
import Okta from "../../src/providers/okta.js"
import Reddit from "../../src/providers/reddit.js"
import Salesforce from "../../src/providers/salesforce.js"
import Slack from "../../src/providers/slack.js"
import Spotify from "../../src/providers/spotify.js"
import Twitch from "../../src/providers/twitch.js"
import Twitter from "../../src/providers/twitter.js"
import WorkOS from "../../src/providers/workos.js"
import Zitadel from "../../src/providers/zitadel.js"
import Zoom from "../../src/providers/zoom.js"
import { addedCases } from "./cases-added.js"
import { bearerRoute, entraTenant, json, oauth, oidc, photoBytes, type ProviderCase } from "./case-kit.js"

export { entraTenant, type ExpectedUser, type ProviderCase } from "./case-kit.js"

const originalCases: ProviderCase[] = [
  oauth({
    id: "github",
    name: "GitHub",
    factory: GitHub,
    authorization: "https://github.com/login/oauth/authorize",
    token: "https://github.com/login/oauth/access_token",
    userinfo: "https://api.github.com/user",
    scope: "read:user user:email",
    // A private email: /user has none, /user/emails has the primary one.
    profile: { id: 583231, login: "octocat", node_id: "MDQ6VXNlcjU4MzIzMQ==", name: "The Octocat", email: null, avatar_url: "https://avatars.githubusercontent.com/u/583231?v=4" },
    standIn: {
      routes: {
        "GET https://api.github.com/user/emails": bearerRoute([
          { email: "octocat@users.noreply.github.com", primary: false, verified: true, visibility: null },
          { email: "octocat@github.com", primary: true, verified: true, visibility: "private" },
        ]),
      },
    },
    added: { email: "octocat@github.com" },
    user: { name: "The Octocat", email: "octocat@github.com", image: "https://avatars.githubusercontent.com/u/583231?v=4" },
    accountId: "583231",
  }),
  oidc({
    id: "google",
    name: "Google",
    factory: Google,
    issuer: "https://accounts.google.com",
    profile: { sub: "110169484474386276334", email: "jane@gmail.com", email_verified: true, name: "Jane Doe", given_name: "Jane", family_name: "Doe", picture: "https://lh3.googleusercontent.com/a/jane", azp: "client-id" },
    user: { name: "Jane Doe", email: "jane@gmail.com", image: "https://lh3.googleusercontent.com/a/jane" },
    accountId: "110169484474386276334",
  }),
  oidc({
    id: "apple",
    name: "Apple",
    factory: Apple,
    issuer: "https://appleid.apple.com",
    authMethod: "client_secret_post",
    scope: "name email",
    params: { response_mode: "form_post" },
    responseMode: "form_post",
    callbackParams: { user: JSON.stringify({ name: { firstName: "Jane", lastName: "Appleseed" }, email: "jane@privaterelay.appleid.com" }) },
    profile: { sub: "001234.abcdef0123456789.1234", email: "jane@privaterelay.appleid.com", email_verified: "true", is_private_email: "true", auth_time: 1_700_000_000, nonce_supported: true },
    standIn: {
      // Like Apple's own metadata: no userinfo endpoint.
      metadata: {
        authorization_endpoint: "https://appleid.apple.com/auth/authorize",
        token_endpoint: "https://appleid.apple.com/auth/token",
        jwks_uri: "https://appleid.apple.com/auth/keys",
        userinfo_endpoint: undefined,
        response_modes_supported: ["query", "fragment", "form_post"],
        token_endpoint_auth_methods_supported: ["client_secret_post"],
      },
    },
    user: { name: "Jane Appleseed", email: "jane@privaterelay.appleid.com", image: null },
    accountId: "001234.abcdef0123456789.1234",
  }),
  oidc({
    id: "microsoft-entra-id",
    name: "Microsoft Entra ID",
    factory: MicrosoftEntraID,
    issuer: `https://login.microsoftonline.com/${entraTenant}/v2.0`,
    providerOptions: { issuer: `https://login.microsoftonline.com/${entraTenant}/v2.0` },
    scope: "openid profile email User.Read",
    profile: { sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ", oid: "00000000-0000-0000-66f3-3332eca7ea81", tid: entraTenant, name: "Megan Bowen", email: "meganb@contoso.com", preferred_username: "meganb@contoso.com", ver: "2.0" },
    standIn: {
      routes: {
        "GET https://graph.microsoft.com/v1.0/me/photos/48x48/$value": (request, standIn) =>
          standIn.checkBearer(request, "graph photo") ?? new Response(photoBytes, { headers: { "content-type": "image/jpeg" } }),
      },
    },
    user: { name: "Megan Bowen", email: "meganb@contoso.com", image: `data:image/jpeg;base64,${Buffer.from(photoBytes).toString("base64")}` },
    accountId: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
  }),
  oauth({
    id: "discord",
    name: "Discord",
    factory: Discord,
    authorization: "https://discord.com/oauth2/authorize",
    token: "https://discord.com/api/oauth2/token",
    userinfo: "https://discord.com/api/users/@me",
    scope: "identify email",
    profile: { id: "80351110224678912", username: "nelly", discriminator: "0", global_name: "Nelly", avatar: "8342729096ea3675442027381ff50dfe", verified: true, email: "nelly@discord.com" },
    user: { name: "Nelly", email: "nelly@discord.com", image: "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png" },
    accountId: "80351110224678912",
  }),
  oauth({
    id: "facebook",
    name: "Facebook",
    factory: Facebook,
    authorization: "https://www.facebook.com/v19.0/dialog/oauth",
    token: "https://graph.facebook.com/oauth/access_token",
    userinfo: "https://graph.facebook.com/me",
    scope: "email",
    profile: { id: "10224364891234567", name: "Mark Example", email: "mark@example.com", picture: { data: { height: 50, width: 50, is_silhouette: false, url: "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10224364891234567" } } },
    user: { name: "Mark Example", email: "mark@example.com", image: "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10224364891234567" },
    accountId: "10224364891234567",
  }),
  oauth({
    id: "twitter",
    name: "Twitter",
    factory: Twitter,
    authorization: "https://x.com/i/oauth2/authorize",
    token: "https://api.x.com/2/oauth2/token",
    userinfo: "https://api.x.com/2/users/me",
    scope: "users.read tweet.read offline.access",
    profile: { data: { id: "2244994945", name: "X Developers", username: "XDevelopers", profile_image_url: "https://pbs.twimg.com/profile_images/1/x_normal.jpg" } },
    user: { name: "X Developers", email: null, image: "https://pbs.twimg.com/profile_images/1/x_normal.jpg" },
    accountId: "2244994945",
  }),
  oidc({
    id: "auth0",
    name: "Auth0",
    factory: Auth0,
    issuer: "https://tenant.eu.auth0.com/",
    providerOptions: { issuer: "https://tenant.eu.auth0.com/" },
    profile: { sub: "auth0|64f1c2b3a4d5e6f708192a3b", nickname: "jdoe", name: "John Doe", picture: "https://s.gravatar.com/avatar/jdoe.png", email: "jdoe@example.com", email_verified: true, updated_at: "2024-05-01T10:00:00.000Z" },
    user: { name: "John Doe", email: "jdoe@example.com", image: "https://s.gravatar.com/avatar/jdoe.png" },
    accountId: "auth0|64f1c2b3a4d5e6f708192a3b",
  }),
  oidc({
    id: "okta",
    name: "Okta",
    factory: Okta,
    issuer: "https://dev-123456.okta.com/oauth2/default",
    providerOptions: { issuer: "https://dev-123456.okta.com/oauth2/default" },
    profile: { sub: "00uid4BxXw6I6TV4m0g3", name: "John Okta", preferred_username: "john@example.com", email: "john@example.com", email_verified: true },
    user: { name: "John Okta", email: "john@example.com" },
    accountId: "00uid4BxXw6I6TV4m0g3",
  }),
  oidc({
    id: "keycloak",
    name: "Keycloak",
    factory: Keycloak,
    issuer: "https://keycloak.test/realms/app",
    providerOptions: { issuer: "https://keycloak.test/realms/app" },
    profile: { sub: "f2c3d4e5-a6b7-4c8d-9e0f-112233445566", preferred_username: "kc-user", email: "kc@example.com", email_verified: true },
    user: { name: "kc-user", email: "kc@example.com" },
    accountId: "f2c3d4e5-a6b7-4c8d-9e0f-112233445566",
  }),
  oidc({
    id: "cognito",
    name: "Cognito",
    factory: Cognito,
    issuer: "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf123",
    providerOptions: { issuer: "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf123" },
    profile: { sub: "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee", "cognito:username": "jane", email: "jane@example.com", email_verified: true, token_use: "id" },
    user: { name: "jane", email: "jane@example.com", image: null },
    accountId: "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee",
  }),
  oauth({
    id: "gitlab",
    name: "GitLab",
    factory: GitLab,
    providerOptions: { baseUrl: "https://gitlab.example.com" },
    authorization: "https://gitlab.example.com/oauth/authorize",
    token: "https://gitlab.example.com/oauth/token",
    userinfo: "https://gitlab.example.com/api/v4/user",
    scope: "read_user",
    profile: { id: 1, username: "john_smith", name: "John Smith", state: "active", avatar_url: "https://gitlab.example.com/uploads/-/system/user/avatar/1/index.jpg", web_url: "https://gitlab.example.com/john_smith", email: "john@example.com" },
    user: { name: "John Smith", email: "john@example.com", image: "https://gitlab.example.com/uploads/-/system/user/avatar/1/index.jpg" },
    accountId: "1",
  }),
  oidc({
    id: "linkedin",
    name: "LinkedIn",
    factory: LinkedIn,
    issuer: "https://www.linkedin.com/oauth",
    authMethod: "client_secret_post",
    profile: { sub: "782bbtaQ", name: "Li Nked", given_name: "Li", family_name: "Nked", picture: "https://media.licdn.com/dms/image/li.jpg", email: "li@example.com", email_verified: true, locale: "en-US" },
    user: { name: "Li Nked", email: "li@example.com", image: "https://media.licdn.com/dms/image/li.jpg" },
    accountId: "782bbtaQ",
  }),
  oidc({
    id: "slack",
    name: "Slack",
    factory: Slack,
    issuer: "https://slack.com",
    profile: { sub: "U0R7JM", "https://slack.com/user_id": "U0R7JM", "https://slack.com/team_id": "T0R7GR", email: "krane@slack-corp.com", email_verified: true, name: "krane", picture: "https://secure.gravatar.com/avatar/krane.jpg", given_name: "Bront", family_name: "Labradoodle" },
    user: { name: "krane", email: "krane@slack-corp.com", image: "https://secure.gravatar.com/avatar/krane.jpg" },
    accountId: "U0R7JM",
  }),
  oauth({
    id: "spotify",
    name: "Spotify",
    factory: Spotify,
    authorization: "https://accounts.spotify.com/authorize",
    token: "https://accounts.spotify.com/api/token",
    userinfo: "https://api.spotify.com/v1/me",
    scope: "user-read-email",
    profile: { id: "smedjan", display_name: "Smedjan", email: "smedjan@example.com", images: [{ url: "https://i.scdn.co/image/ab67", height: 300, width: 300 }], country: "SE" },
    user: { name: "Smedjan", email: "smedjan@example.com", image: "https://i.scdn.co/image/ab67" },
    accountId: "smedjan",
  }),
  oidc({
    id: "twitch",
    name: "Twitch",
    factory: Twitch,
    issuer: "https://id.twitch.tv/oauth2",
    authMethod: "client_secret_post",
    scope: "openid user:read:email",
    params: { claims: JSON.stringify({ id_token: { email: null, picture: null, preferred_username: null } }) },
    profile: { sub: "713936733", preferred_username: "streamer", email: "streamer@example.com", email_verified: true, picture: "https://static-cdn.jtvnw.net/jtv_user_pictures/streamer.png", azp: "client-id" },
    // Twitch answers the scope as an array; the provider's conform makes it a string.
    standIn: { tokenResponse: { scope: ["openid", "user:read:email"] } },
    accountScope: "openid user:read:email",
    user: { name: "streamer", email: "streamer@example.com", image: "https://static-cdn.jtvnw.net/jtv_user_pictures/streamer.png" },
    accountId: "713936733",
  }),
  oauth({
    id: "reddit",
    name: "Reddit",
    factory: Reddit,
    authorization: "https://www.reddit.com/api/v1/authorize",
    token: "https://www.reddit.com/api/v1/access_token",
    userinfo: "https://oauth.reddit.com/api/v1/me",
    scope: "identity",
    profile: { id: "abc12", name: "spez", icon_img: "https://styles.redditmedia.com/t5_6/styles/profileIcon.png?width=256&amp;s=abc", verified: true },
    user: { name: "spez", email: null, image: "https://styles.redditmedia.com/t5_6/styles/profileIcon.png?width=256&s=abc" },
    accountId: "abc12",
  }),
  oauth({
    id: "zoom",
    name: "Zoom",
    factory: Zoom,
    authorization: "https://zoom.us/oauth/authorize",
    token: "https://zoom.us/oauth/token",
    userinfo: "https://api.zoom.us/v2/users/me",
    scope: null,
    profile: { id: "KDcuGIm1QgePTO8WbOqwIQ", first_name: "Jill", last_name: "Chill", display_name: "Jill Chill", email: "jchill@example.com", type: 2, pic_url: "https://zoom.us/p/KDcuGIm1QgePTO8WbOqwIQ/pic.jpg", account_id: "q6gBJVO5TzexKYTb_I2rpg" },
    user: { name: "Jill Chill", email: "jchill@example.com", image: "https://zoom.us/p/KDcuGIm1QgePTO8WbOqwIQ/pic.jpg" },
    accountId: "KDcuGIm1QgePTO8WbOqwIQ",
  }),
  oauth({
    id: "notion",
    name: "Notion",
    factory: Notion,
    authorization: "https://api.notion.com/v1/oauth/authorize",
    token: "https://api.notion.com/v1/oauth/token",
    userinfo: "https://api.notion.com/v1/users/me",
    scope: null,
    params: { owner: "user" },
    profile: { object: "user", id: "e79a0b74-3aba-4149-9f74-0bb5791a6ee6", type: "person", name: "Avocado Lovelace", avatar_url: "https://secure.notion-static.com/e6a352a8.jpg", person: { email: "avo@example.org" } },
    standIn: {
      routes: {
        "GET https://api.notion.com/v1/users/me": (request, standIn) => {
          if (request.headers.get("notion-version") !== "2022-06-28") standIn.failures.push("Notion-Version header missing")
          return (
            standIn.checkBearer(request, "notion users/me") ??
            json({
              object: "user",
              id: "bot-0001",
              type: "bot",
              bot: {
                owner: {
                  type: "user",
                  user: { object: "user", id: "e79a0b74-3aba-4149-9f74-0bb5791a6ee6", type: "person", name: "Avocado Lovelace", avatar_url: "https://secure.notion-static.com/e6a352a8.jpg", person: { email: "avo@example.org" } },
                },
              },
            })
          )
        },
      },
    },
    user: { name: "Avocado Lovelace", email: "avo@example.org", image: "https://secure.notion-static.com/e6a352a8.jpg" },
    accountId: "e79a0b74-3aba-4149-9f74-0bb5791a6ee6",
  }),
  oauth({
    id: "dropbox",
    name: "Dropbox",
    factory: Dropbox,
    authorization: "https://www.dropbox.com/oauth2/authorize",
    token: "https://api.dropboxapi.com/oauth2/token",
    userinfo: "https://api.dropboxapi.com/2/users/get_current_account",
    scope: "account_info.read",
    params: { token_access_type: "offline" },
    profile: { account_id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc", name: { given_name: "Franz", surname: "Ferdinand", familiar_name: "Franz", display_name: "Franz Ferdinand (Personal)", abbreviated_name: "FF" }, email: "franz@dropbox.com", email_verified: true, profile_photo_url: "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA" },
    standIn: { userinfoMethod: "POST" },
    user: { name: "Franz Ferdinand (Personal)", email: "franz@dropbox.com", image: "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA" },
    accountId: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
  }),
  oidc({
    id: "salesforce",
    name: "Salesforce",
    factory: Salesforce,
    issuer: "https://login.salesforce.com",
    // idToken: false — the profile comes from userinfo, whose sub matches the ID token's.
    profile: { sub: "https://login.salesforce.com/id/00Dx0000000BV7z/005x00000012Q9P", user_id: "005x00000012Q9P", organization_id: "00Dx0000000BV7z", name: "Sales Person", preferred_username: "sales@example.com", email: "sales@example.com", email_verified: true, picture: "https://example.my.salesforce.com/profilephoto/005/F" },
    standIn: { idTokenClaims: { sub: "https://login.salesforce.com/id/00Dx0000000BV7z/005x00000012Q9P" } },
    user: { name: "Sales Person", email: "sales@example.com", image: "https://example.my.salesforce.com/profilephoto/005/F" },
    accountId: "https://login.salesforce.com/id/00Dx0000000BV7z/005x00000012Q9P",
  }),
  oauth({
    id: "atlassian",
    name: "Atlassian",
    factory: Atlassian,
    authorization: "https://auth.atlassian.com/authorize",
    token: "https://auth.atlassian.com/oauth/token",
    userinfo: "https://api.atlassian.com/me",
    authMethod: "client_secret_post",
    scope: "read:me",
    params: { audience: "api.atlassian.com" },
    profile: { account_id: "5b10ac8d82e05b22cc7d4ef5", account_type: "atlassian", email: "mia@example.com", email_verified: true, name: "Mia Krystof", picture: "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/mia.png", nickname: "mia" },
    user: { name: "Mia Krystof", email: "mia@example.com", image: "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/mia.png" },
    accountId: "5b10ac8d82e05b22cc7d4ef5",
  }),
  oauth({
    id: "workos",
    name: "WorkOS",
    factory: WorkOS,
    providerOptions: { connection: "conn_01E4ZCR3C56J083X43JQXF3JK5" },
    authorization: "https://api.workos.com/sso/authorize",
    token: "https://api.workos.com/sso/token",
    userinfo: "https://api.workos.com/sso/profile",
    authMethod: "client_secret_post",
    params: { connection: "conn_01E4ZCR3C56J083X43JQXF3JK5" },
    profile: { object: "profile", id: "prof_01DMC79VCBZ0NY2099737PSVF1", idp_id: "00u1a0ufowBJlzPlk357", connection_id: "conn_01E4ZCR3C56J083X43JQXF3JK5", connection_type: "OktaSAML", organization_id: "org_01EHWNCE74X7JSDV0X3SZ3KJNY", email: "todd@example.com", first_name: "Todd", last_name: "Rundgren", raw_attributes: { picture: "https://example.com/todd.png" } },
    // The profile comes with the token; /sso/profile must not be needed.
    standIn: {
      tokenResponse: {
        profile: { object: "profile", id: "prof_01DMC79VCBZ0NY2099737PSVF1", idp_id: "00u1a0ufowBJlzPlk357", connection_id: "conn_01E4ZCR3C56J083X43JQXF3JK5", connection_type: "OktaSAML", organization_id: "org_01EHWNCE74X7JSDV0X3SZ3KJNY", email: "todd@example.com", first_name: "Todd", last_name: "Rundgren", raw_attributes: { picture: "https://example.com/todd.png" } },
      },
      userinfo: undefined,
    },
    user: { name: "Todd Rundgren", email: "todd@example.com", image: "https://example.com/todd.png" },
    accountId: "prof_01DMC79VCBZ0NY2099737PSVF1",
  }),
  oidc({
    id: "zitadel",
    name: "ZITADEL",
    factory: Zitadel,
    issuer: "https://my-instance.zitadel.cloud",
    providerOptions: { issuer: "https://my-instance.zitadel.cloud" },
    profile: { sub: "77776025198584418", name: "Zita Del", preferred_username: "zita@my-instance.zitadel.cloud", email: "zita@example.com", email_verified: true, picture: "https://my-instance.zitadel.cloud/assets/v1/avatar.png" },
    user: { name: "Zita Del", email: "zita@example.com", image: "https://my-instance.zitadel.cloud/assets/v1/avatar.png" },
    accountId: "77776025198584418",
  }),
  oidc({
    id: "authentik",
    name: "Authentik",
    factory: Authentik,
    issuer: "https://authentik.test/application/o/app/",
    providerOptions: { issuer: "https://authentik.test/application/o/app/" },
    profile: { sub: "5c5c9b5e3b0f4b6c8c1d2e3f4a5b6c7d", nickname: "akadmin", preferred_username: "akadmin", name: "authentik Default Admin", email: "admin@authentik.test", email_verified: true, groups: ["admins"] },
    user: { name: "authentik Default Admin", email: "admin@authentik.test" },
    accountId: "5c5c9b5e3b0f4b6c8c1d2e3f4a5b6c7d",
  }),
  oidc({
    id: "fusionauth",
    name: "FusionAuth",
    factory: FusionAuth,
    issuer: "https://fusionauth.test",
    providerOptions: { issuer: "https://fusionauth.test", tenantId: "30663132-6464-6665-3032-326466613934" },
    scope: "openid offline_access email profile",
    params: { tenantId: "30663132-6464-6665-3032-326466613934" },
    profile: { sub: "00000000-0000-0001-0000-000000000000", given_name: "Richard", family_name: "Hendricks", email: "richard@piedpiper.test", email_verified: true, applicationId: "client-id" },
    standIn: {
      metadata: {
        authorization_endpoint: "https://fusionauth.test/oauth2/authorize",
        token_endpoint: "https://fusionauth.test/oauth2/token",
        userinfo_endpoint: "https://fusionauth.test/oauth2/userinfo",
        jwks_uri: "https://fusionauth.test/.well-known/jwks.json",
      },
      // FusionAuth adds a challenge header to successful token responses.
      tokenHeaders: { "www-authenticate": 'Bearer realm="FusionAuth"' },
    },
    user: { name: "Richard Hendricks", email: "richard@piedpiper.test", image: null },
    accountId: "00000000-0000-0001-0000-000000000000",
  }),
  oauth({
    id: "kakao",
    name: "Kakao",
    factory: Kakao,
    authorization: "https://kauth.kakao.com/oauth/authorize",
    token: "https://kauth.kakao.com/oauth/token",
    userinfo: "https://kapi.kakao.com/v2/user/me",
    authMethod: "client_secret_post",
    scope: null,
    profile: { id: 123456789, connected_at: "2022-04-11T01:45:28Z", kakao_account: { profile: { nickname: "홍길동", profile_image_url: "http://yyy.kakao.com/dn/img_640x640.jpg", is_default_image: false }, email: "hong@kakao.com", is_email_valid: true, is_email_verified: true } },
    user: { name: "홍길동", email: "hong@kakao.com", image: "http://yyy.kakao.com/dn/img_640x640.jpg" },
    accountId: "123456789",
  }),
  oauth({
    id: "naver",
    name: "Naver",
    factory: Naver,
    authorization: "https://nid.naver.com/oauth2.0/authorize",
    token: "https://nid.naver.com/oauth2.0/token",
    userinfo: "https://openapi.naver.com/v1/nid/me",
    authMethod: "client_secret_post",
    scope: null,
    profile: { resultcode: "00", message: "success", response: { id: "32742776", nickname: "OpenAPI", name: "오픈 API", email: "openapi@naver.com", profile_image: "https://ssl.pstatic.net/static/pwe/address/nodata_33x33.gif" } },
    user: { name: "OpenAPI", email: "openapi@naver.com", image: "https://ssl.pstatic.net/static/pwe/address/nodata_33x33.gif" },
    accountId: "32742776",
  }),
  oidc({
    id: "line",
    name: "LINE",
    factory: Line,
    issuer: "https://access.line.me",
    profile: { sub: "U1234567890abcdef1234567890abcdef", name: "Taro Line", picture: "https://profile.line-scdn.net/abcdefghijklmn", email: "taro.line@example.com", amr: ["pwd"] },
    // LINE's metadata announces ES256, but web-login ID tokens are HS256 with the channel secret.
    standIn: {
      idTokenAlg: "HS256",
      metadata: {
        authorization_endpoint: "https://access.line.me/oauth2/v2.1/authorize",
        token_endpoint: "https://api.line.me/oauth2/v2.1/token",
        userinfo_endpoint: "https://api.line.me/oauth2/v2.1/userinfo",
        jwks_uri: "https://api.line.me/oauth2/v2.1/certs",
        id_token_signing_alg_values_supported: ["ES256"],
      },
    },
    user: { name: "Taro Line", email: "taro.line@example.com", image: "https://profile.line-scdn.net/abcdefghijklmn" },
    accountId: "U1234567890abcdef1234567890abcdef",
  }),
  oauth({
    id: "bitbucket",
    name: "Bitbucket",
    factory: Bitbucket,
    authorization: "https://bitbucket.org/site/oauth2/authorize",
    token: "https://bitbucket.org/site/oauth2/access_token",
    userinfo: "https://api.bitbucket.org/2.0/user",
    scope: "account email",
    profile: { account_id: "557058:c0b72ad0-1cb5-4018-9cdc-0cde8492c443", uuid: "{d301aafa-d676-4ee0-88be-962be7417567}", username: "tutorials", nickname: "tutorials", display_name: "tutorials account", type: "user", links: { avatar: { href: "https://bitbucket.org/account/tutorials/avatar/" } } },
    standIn: {
      routes: {
        "GET https://api.bitbucket.org/2.0/user/emails": bearerRoute({
          pagelen: 10,
          page: 1,
          size: 2,
          values: [
            { email: "old@example.com", is_primary: false, is_confirmed: true, type: "email" },
            { email: "tutorials@example.com", is_primary: true, is_confirmed: true, type: "email" },
          ],
        }),
      },
    },
    added: { email: "tutorials@example.com" },
    user: { name: "tutorials account", email: "tutorials@example.com", image: "https://bitbucket.org/account/tutorials/avatar/" },
    accountId: "557058:c0b72ad0-1cb5-4018-9cdc-0cde8492c443",
  }),
  oidc({
    id: "oidc",
    name: "OpenID Connect",
    factory: OIDC,
    issuer: "https://sso.corp.test",
    providerOptions: { issuer: "https://sso.corp.test" },
    profile: { sub: "corp-user-42", name: "Corp User", email: "user@corp.test", email_verified: true, picture: "https://sso.corp.test/avatars/42.png" },
    standIn: { metadata: { authorization_response_iss_parameter_supported: true } },
    user: { name: "Corp User", email: "user@corp.test", image: "https://sso.corp.test/avatars/42.png" },
    accountId: "corp-user-42",
  }),
]

/** Every provider's case: the first providers', then those added for parity with @auth/core. */
export const cases: ProviderCase[] = [...originalCases, ...addedCases]

/** The profile `profile()` sees for a case: the provider's answer, plus what the userinfo request adds, plus Apple's posted `user`. */
export function rawProfile(c: ProviderCase): Record<string, unknown> {
  if (c.id === "apple" && c.callbackParams?.user) return { ...c.profile, user: JSON.parse(c.callbackParams.user) }
  return { ...c.profile, ...c.added }
}
