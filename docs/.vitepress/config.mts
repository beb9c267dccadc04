import { existsSync, readdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { defineConfig, type DefaultTheme } from "vitepress"

/** The generated API reference (`typedoc --options docs/typedoc.json`), one page per import path. */
function apiPages(): DefaultTheme.SidebarItem[] {
  const dir = fileURLToPath(new URL("../reference/api/authflow/", import.meta.url))
  if (!existsSync(dir)) return []
  const pages: string[] = ["authflow"]
  const walk = (sub: string) => {
    for (const entry of readdirSync(dir + sub, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory()) walk(`${sub}${entry.name}/`)
      else if (entry.name.endsWith(".md")) pages.push(`authflow/${sub}${entry.name.slice(0, -3)}`)
    }
  }
  walk("")
  return pages.map((page) => ({ text: page.replace(/-\d+$/, ""), link: `/reference/api/${page}` }))
}

export default defineConfig({
  title: "authflow",
  description: "Authentication for web applications as explicit state machines, wire-compatible with Auth.js v5.",
  lang: "en",
  // Every page, asset and the search index are served from the site itself: no CDN, no web fonts
  // from elsewhere (the default theme's Inter ships inside vitepress), so the site works offline.
  head: [
    ["meta", { name: "color-scheme", content: "light dark" }],
    ["link", { rel: "icon", type: "image/svg+xml", href: "/favicon.svg" }],
  ],
  lastUpdated: false,
  // Links to the app a page tells you to start (http://localhost:3000) are not pages of this site.
  ignoreDeadLinks: "localhostLinks",
  srcExclude: ["**/README.md"],
  markdown: { theme: { light: "github-light", dark: "github-dark" } },
  themeConfig: {
    search: { provider: "local" },
    outline: [2, 3],
    nav: [
      { text: "Getting started", link: "/getting-started/" },
      { text: "Guides", link: "/guides/providers" },
      { text: "Concepts", link: "/concepts/machines" },
      { text: "Reference", link: "/reference/" },
    ],
    sidebar: [
      {
        text: "Getting started",
        items: [
          { text: "Install", link: "/getting-started/" },
          { text: "Plain Node", link: "/getting-started/node" },
          { text: "Next.js", link: "/getting-started/nextjs" },
          { text: "SvelteKit", link: "/getting-started/sveltekit" },
          { text: "SolidStart", link: "/getting-started/solid-start" },
          { text: "Qwik", link: "/getting-started/qwik" },
        ],
      },
      {
        text: "Guides",
        items: [
          { text: "Providers", link: "/guides/providers" },
          { text: "Email sign-in", link: "/guides/email" },
          { text: "Passkeys", link: "/guides/passkeys" },
          { text: "Second factors", link: "/guides/second-factor" },
          { text: "Passwords", link: "/guides/passwords" },
          { text: "Several accounts", link: "/guides/multi-session" },
          { text: "Adapters and database sessions", link: "/guides/adapters" },
          { text: "Token refresh", link: "/guides/token-refresh" },
          { text: "Rate limiting", link: "/guides/rate-limiting" },
          { text: "Languages", link: "/guides/i18n" },
          { text: "Session lifetime and logout", link: "/guides/logout" },
          { text: "The browser client", link: "/guides/browser-client" },
          { text: "Deployment", link: "/guides/deployment" },
          { text: "The edge runtime", link: "/guides/edge" },
          { text: "Migration from Auth.js", link: "/guides/migration" },
          { text: "Troubleshooting", link: "/guides/troubleshooting" },
        ],
      },
      {
        text: "Concepts",
        items: [
          { text: "Flows are machines", link: "/concepts/machines" },
          { text: "The inspector", link: "/concepts/inspector" },
          { text: "Model tests", link: "/concepts/model-tests" },
          { text: "The security model", link: "/concepts/security" },
        ],
      },
      {
        text: "Reference",
        items: [
          { text: "Configuration and routes", link: "/reference/" },
          { text: "Compatibility with Auth.js v5", link: "/reference/compatibility" },
          { text: "Providers", link: "/reference/providers" },
          { text: "Changes", link: "/reference/changes" },
          { text: "Performance figures", link: "/reference/performance" },
          { text: "Security figures", link: "/reference/security-figures" },
          { text: "API", collapsed: true, items: apiPages() },
        ],
      },
    ],
  },
})
