/**
 * Sign in with WeChat, an OAuth 2 provider, in the WeChat app (official account) or by QR code
 * on a website.
 *
 * @module
 */
import { customFetch } from "../core/symbols.js"
import type { OAuthConfig, OAuthUserConfig, TokenEndpointConfig, UserinfoEndpointConfig } from "./oauth.js"
import { endpointUrl, withTokenType } from "./oauth.js"

/**
 * The answer of `GET /sns/userinfo`.
 *
 * @see https://developers.weixin.qq.com/doc/oplatform/en/Website_App/WeChat_Login/Authorized_Interface_Calling_UnionID.html
 */
export interface WeChatProfile {
  openid: string
  nickname: string
  sex: number
  province: string
  city: string
  country: string
  headimgurl: string
  privilege: string[]
  /** Present when the app is bound to a WeChat Open Platform account. */
  unionid?: string
  [claim: string]: unknown
}

/** Options of {@link WeChat}. */
export type WeChatUserConfig = OAuthUserConfig<WeChatProfile> & {
  /**
   * `"OfficialAccount"`: sign-in inside the WeChat app (`snsapi_userinfo`); `"WebsiteApp"`: a QR code on a
   * website (`snsapi_login`).
   * @default "OfficialAccount"
   */
  platformType?: "OfficialAccount" | "WebsiteApp"
}

const tokenUrl = "https://api.weixin.qq.com/sns/oauth2/access_token"
const userinfoUrl = "https://api.weixin.qq.com/sns/userinfo"

/**
 * WeChat. WeChat names the client `appid` and its secret `secret`, takes the code exchange as a GET
 * with query parameters, answers without `token_type` (added as `bearer`) and with the user's
 * `openid`, and reads the profile with the token in the query. The account id is the `unionid`, as
 * in Auth.js, or the `openid` when the app has no Open Platform binding. WeChat gives no email.
 *
 * @example
 * ```ts
 * import WeChat from "authflow/providers/wechat"
 *
 * // AUTH_WECHAT_ID (the AppID) and AUTH_WECHAT_SECRET are read from the environment
 * const config = { providers: [WeChat] }
 * // or explicitly, for QR-code sign-in on a website:
 * WeChat({ clientId: process.env.AUTH_WECHAT_ID, clientSecret: process.env.AUTH_WECHAT_SECRET, platformType: "WebsiteApp" })
 * ```
 * @see https://developers.weixin.qq.com/doc/oplatform/en/Website_App/WeChat_Login/Wechat_Login.html
 */
export default function WeChat(options: WeChatUserConfig = {}): OAuthConfig<WeChatProfile> {
  const { [customFetch]: userFetch, ...rest } = options
  const inApp = (options.platformType ?? "OfficialAccount") === "OfficialAccount"
  const wechatFetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const send = userFetch ?? globalThis.fetch
    const url = input instanceof Request ? input.url : String(input)
    if (url.startsWith(tokenUrl) && init?.method === "POST" && init.body instanceof URLSearchParams) {
      // The standard form (client_secret_post) becomes WeChat's GET with appid and secret.
      const form = init.body
      const exchange = new URL(url)
      const params = { appid: form.get("client_id"), secret: form.get("client_secret"), code: form.get("code"), refresh_token: form.get("refresh_token"), grant_type: form.get("grant_type") }
      for (const [key, value] of Object.entries(params)) if (value !== null) exchange.searchParams.set(key, value)
      return send(exchange.href, { method: "GET", headers: { accept: "application/json" }, redirect: init.redirect, signal: init.signal })
    }
    return send(input, init)
  }) as typeof fetch
  return {
    id: "wechat",
    name: "WeChat",
    type: "oauth",
    authorization: {
      url: inApp ? "https://open.weixin.qq.com/connect/oauth2/authorize" : "https://open.weixin.qq.com/connect/qrconnect",
      params: { appid: options.clientId, scope: inApp ? "snsapi_userinfo" : "snsapi_login" },
    },
    token: { url: tokenUrl, conform: withTokenType } satisfies TokenEndpointConfig,
    userinfo: {
      url: userinfoUrl,
      async request({ tokens, provider, fetch }) {
        const url = new URL(endpointUrl(provider.userinfo as UserinfoEndpointConfig<WeChatProfile>) ?? userinfoUrl)
        url.searchParams.set("access_token", String(tokens.access_token))
        url.searchParams.set("openid", String(tokens.openid))
        url.searchParams.set("lang", "zh_CN")
        const response = await fetch(url)
        const profile = (await response.json()) as WeChatProfile & { errcode?: number; errmsg?: string }
        if (!response.ok || profile.errcode) throw new Error(`WeChat sns/userinfo answered ${profile.errcode ?? response.status}: ${profile.errmsg ?? ""}`)
        return profile
      },
    },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    [customFetch]: wechatFetch,
    profile(profile) {
      return { id: profile.unionid ?? profile.openid, name: profile.nickname ?? null, email: null, image: profile.headimgurl || null }
    },
    style: { brandColor: "#07c160", bg: "#fff", text: "#000" },
    // The user's customFetch is wrapped above; left in the options, the merge would unwrap it.
    options: userFetch ? rest : options,
  }
}
